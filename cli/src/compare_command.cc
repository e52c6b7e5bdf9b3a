// `etbench compare BASELINE CANDIDATE`: any two results or baseline files.
#include "command_support.h"
#include "commands.h"
#include "comparison_cli.h"
#include "etbench/cli/etbench_cli.h"
#include "etbench/harness/workflows.h"

namespace etbench {

namespace po = boost::program_options;

int RunCompareCommand(const CommandArgs& args, const CliDeps& deps) {
  std::ostream& out = *deps.out;
  std::ostream& err = *deps.err;
  const std::string command = "compare";
  std::string baseline_path, candidate_path, thresholds_path;
  ComparisonOutput output;
  uint64_t seed = 0;
  po::options_description options(
      "Usage: etbench compare BASELINE CANDIDATE [options]\n\n"
      "Compares two results files (etbench run) or baselines (etbench baseline save):\n"
      "per metric the relative change, a bootstrap confidence interval, a Mann-Whitney\n"
      "p-value (Benjamini-Hochberg over per-operator metrics) and a verdict; then the\n"
      "attribution of Method::execute's change and structure changes (docs/comparison.md).\n\n"
      "Exit codes: 0 no regression; 1 regression; 2 usage or input error;\n"
      "3 inconclusive with --fail-on-inconclusive.\n\nOptions");
  options.add_options()
      ("help,h", "show this help")
      ("baseline", po::value(&baseline_path)->required(), "baseline: results or baseline file")
      ("candidate", po::value(&candidate_path)->required(), "candidate: results or baseline file")
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
  auto baseline = harness::LoadMetricSetFile(baseline_path);
  if (!baseline.ok()) return ReportError(command, baseline.error(), err);
  auto candidate = harness::LoadMetricSetFile(candidate_path);
  if (!candidate.ok()) return ReportError(command, candidate.error(), err);
  auto thresholds = harness::LoadThresholdsOrDefault(thresholds_path);
  if (!thresholds.ok()) return ReportError(command, thresholds.error(), err);
  CompareOptions compare_options;
  compare_options.seed = seed;
  auto comparison = Compare(baseline.value(), candidate.value(), thresholds.value(), compare_options);
  if (!comparison.ok()) return ReportError(command, comparison.error(), err);
  output.title = baseline_path + " → " + candidate_path;
  return EmitComparison(command, comparison.value(), baseline.value(), candidate.value(), output,
                        *deps.env, out, err);
}

}  // namespace etbench
