// `etbench compare BASELINE CANDIDATE`: any two results or baseline files.
#include "command_support.h"
#include "commands.h"
#include "comparison_cli.h"
#include "etbench/cli/etbench_cli.h"
#include "etbench/harness/workflows.h"
#include "etbench/results/gbench_json.h"
#include "etbench/results/input_files.h"

namespace etbench {

namespace po = boost::program_options;

namespace {

// The one model of a set whose metrics all come from one model ("" if none
// or several).
std::string OnlyModel(const MetricSet& set) {
  std::string model;
  for (const Metric& m : set.metrics) {
    if (!model.empty() && m.key.model != model) return "";
    model = m.key.model;
  }
  return model;
}

// Makes a Google Benchmark file comparable with the other side, as
// compare.py compares two files: by benchmark name. A file compared with a
// results file takes that run's suite and unit; two files of one binary
// each are matched whatever the binaries are called (build-old/bm against
// build-new/bm_patched). Notes what it did on `err`.
Status MatchGoogleBenchmarkFiles(MetricSet& baseline, MetricSet& candidate, std::ostream& err) {
  const bool base_file = results::IsGoogleBenchmarkFileSet(baseline);
  const bool cand_file = results::IsGoogleBenchmarkFileSet(candidate);
  if (!base_file && !cand_file) return Ok{};
  if (base_file != cand_file) {
    MetricSet& file = base_file ? baseline : candidate;
    const MetricSet& run = base_file ? candidate : baseline;
    return results::AdoptGoogleBenchmarkFile(ContextValue(run, "suite"), ContextValue(run, "unit"),
                                             &file);
  }
  const std::string base_model = OnlyModel(baseline), cand_model = OnlyModel(candidate);
  if (base_model.empty() || cand_model.empty() || base_model == cand_model) return Ok{};
  for (Metric& m : candidate.metrics) m.key.model = base_model;
  candidate.context["suite"] = ContextValue(baseline, "suite");
  err << "etbench compare: matching the benchmarks of '" << cand_model << "' with those of '"
      << base_model << "' by name (one Google Benchmark binary on each side)\n";
  return Ok{};
}

}  // namespace

int RunCompareCommand(const CommandArgs& args, const CliDeps& deps) {
  std::ostream& out = *deps.out;
  std::ostream& err = *deps.err;
  const std::string command = "compare";
  std::string baseline_path, candidate_path, thresholds_path;
  ComparisonOutput output;
  uint64_t seed = 0;
  po::options_description options(
      "Usage: etbench compare BASELINE CANDIDATE [options]\n\n"
      "Compares two results files (etbench run), baselines (etbench baseline save) or\n"
      "Google Benchmark JSON files (--benchmark_format=json, repetitions as samples):\n"
      "per metric the relative change, a bootstrap confidence interval, a Mann-Whitney\n"
      "p-value (Benjamini-Hochberg over per-operator metrics) and a verdict; then the\n"
      "attribution of Method::execute's change and structure changes (docs/comparison.md).\n\n"
      "Exit codes: 0 no regression; 1 regression; 2 usage or input error;\n"
      "3 inconclusive with --fail-on-inconclusive.\n\nOptions");
  options.add_options()
      ("help,h", "show this help")
      ("baseline", po::value(&baseline_path)->required(), "baseline: results, baseline or Google Benchmark file")
      ("candidate", po::value(&candidate_path)->required(), "candidate: results, baseline or Google Benchmark file")
      ("thresholds", po::value(&thresholds_path), "thresholds YAML (default: built-in rules)")
      ("report", po::value(&output.report_specs)->composing(),
       "FORMAT[=FILE]: terminal, markdown, junit, json, csv, tsv, html (repeatable)")
      ("color", po::value(&output.color)->default_value("auto"), "auto, always or never")
      ("seed", po::value(&seed)->default_value(0), "mixed into the bootstrap seeds")
      ("fail-on-inconclusive", po::bool_switch(&output.fail_on_inconclusive),
       "exit 3 when the outcome is inconclusive");
  po::positional_options_description positional;
  positional.add("baseline", 1).add("candidate", 1);
  po::variables_map vm;
  if (auto exit = HelpOrParse(command, args, options, &positional, &vm, out, err)) return *exit;
  auto baseline = results::LoadMetricSetFile(baseline_path, *deps.disk);
  if (!baseline.ok()) return ReportError(command, baseline.error(), err);
  auto candidate = results::LoadMetricSetFile(candidate_path, *deps.disk);
  if (!candidate.ok()) return ReportError(command, candidate.error(), err);
  if (Status s = MatchGoogleBenchmarkFiles(*baseline, *candidate, err); !s.ok()) {
    return ReportError(command, s.error(), err);
  }
  auto thresholds = harness::LoadThresholdsOrDefault(thresholds_path, *deps.disk);
  if (!thresholds.ok()) return ReportError(command, thresholds.error(), err);
  CompareOptions compare_options;
  compare_options.seed = seed;
  auto comparison = Compare(baseline.value(), candidate.value(), thresholds.value(), compare_options);
  if (!comparison.ok()) return ReportError(command, comparison.error(), err);
  output.title = baseline_path + " → " + candidate_path;
  return EmitComparison(command, comparison.value(), baseline.value(), candidate.value(), output,
                        *deps.env, *deps.disk, out, err);
}

}  // namespace etbench
