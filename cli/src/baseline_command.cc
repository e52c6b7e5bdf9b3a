// `etbench baseline save|show|update`: the stored reference a gate compares
// against, under baselines/<device>/<suite>.json.
#include "command_support.h"
#include "commands.h"
#include "comparison_cli.h"
#include "etbench/cli/etbench_cli.h"
#include "etbench/harness/ab_schedule.h"
#include "etbench/harness/baseline_store.h"
#include "etbench/harness/config.h"
#include "etbench/harness/orchestrator.h"
#include "etbench/history/history_workflow.h"

namespace etbench {

namespace po = boost::program_options;

namespace {

const char kCommand[] = "baseline";

// The metric sets of `inputs` merged: samples and their repetition groups
// concatenated in order. All must be of one suite, time source and unit.
Result<MetricSet> LoadAndMerge(const std::vector<std::string>& inputs) {
  std::vector<MetricSet> sets;
  for (const std::string& input : inputs) {
    auto metrics = LoadMetricSetFile(input);
    if (!metrics.ok()) return metrics.error();
    for (const char* key : {"suite", "time_source", "unit"}) {
      if (!sets.empty() && ContextValue(*metrics, key) != ContextValue(sets.front(), key)) {
        return InputError(input + ": " + key + " '" + ContextValue(*metrics, key) + "' differs from '" +
                          ContextValue(sets.front(), key) + "' in " + inputs.front());
      }
    }
    sets.push_back(std::move(metrics).value());
  }
  if (sets.size() == 1) return std::move(sets.front());
  return MergeMetricSets(sets);
}

// Stores the results in `inputs` (merged) as a baseline; `path` empty → the
// default path.
int SaveFromResults(const std::vector<std::string>& inputs, std::string path,
                    const std::string& name, const std::string& root, bool force,
                    std::ostream& err) {
  auto metrics = LoadAndMerge(inputs);
  if (!metrics.ok()) return ReportError(kCommand, metrics.error(), err);
  Baseline baseline;
  baseline.metrics = std::move(metrics).value();
  baseline.name = name.empty() ? ContextValue(baseline.metrics, "suite") : name;
  if (path.empty()) {
    path = DefaultBaselinePath(root, ContextValue(baseline.metrics, "device"),
                               ContextValue(baseline.metrics, "suite"));
  }
  Status saved = SaveBaseline(path, baseline, force);
  if (!saved.ok()) return ReportError(kCommand, saved.error(), err);
  err << "etbench baseline: saved " << path << " (" << baseline.metrics.metrics.size()
      << " metrics from " << inputs.front()
      << (inputs.size() > 1 ? " and " + std::to_string(inputs.size() - 1) + " more" : "") << ")\n";
  return kExitOk;
}

// `update --from-history`: the suite's stable segment becomes its baseline.
int UpdateFromHistory(const std::string& spec, const std::string& suite, std::string path,
                      const std::string& name, const std::string& root, std::ostream& err) {
  auto stable = history::BaselineForSuite(spec, suite);
  if (!stable.ok()) return ReportError(kCommand, stable.error(), err);
  if (stable->runs_used == 0) {
    return ReportError(kCommand, InputError(spec + ": no run of suite '" + suite + "'"), err);
  }
  Baseline baseline;
  baseline.metrics = std::move(stable->metrics);
  baseline.name = name.empty() ? suite : name;
  if (path.empty()) {
    path = DefaultBaselinePath(root, ContextValue(baseline.metrics, "device"), suite);
  }
  if (Status saved = SaveBaseline(path, baseline, /*force=*/true); !saved.ok()) {
    return ReportError(kCommand, saved.error(), err);
  }
  err << "etbench baseline: saved " << path << " from the history: " << stable->note << "\n";
  return kExitOk;
}

}  // namespace

int RunBaselineCommand(const CommandArgs& args, std::ostream& out, std::ostream& err) {
  const std::string usage =
      "Usage: etbench baseline save RESULTS... [--name N] [--path P] [--root DIR] [--force]\n"
      "       etbench baseline show BASELINE\n"
      "       etbench baseline update CONFIG [--path P] [--root DIR] [--from-history DB]\n\n"
      "save: store a results file as the baseline of its suite and device\n"
      "      (<root>/baselines/<device>/<suite>.json; refuses to overwrite without --force).\n"
      "      Several results files (runs at different times) merge into one baseline: their\n"
      "      runs then show how much this machine varies, and the gate allows for it.\n"
      "show: summarise a baseline.\n"
      "update: replace the suite's baseline with its latest results (nightly jobs), or with\n"
      "      --from-history with the runs in the history since the last change point\n"
      "      (the suite's newest device and host; docs/history.md).\n";
  std::string action, path, name, root = ".", from_history;
  std::vector<std::string> inputs;
  bool force = false;
  po::options_description options(usage + "\nOptions");
  options.add_options()
      ("help,h", "show this help")
      ("action", po::value(&action)->required(), "save, show or update")
      ("input", po::value(&inputs)->required(), "results, baseline or config file(s)")
      ("name", po::value(&name), "baseline name (default: the suite)")
      ("path", po::value(&path), "baseline file (default: <root>/baselines/<device>/<suite>.json)")
      ("root", po::value(&root)->default_value("."), "directory holding baselines/")
      ("force", po::bool_switch(&force), "overwrite an existing baseline")
      ("from-history", po::value(&from_history),
       "update: take the baseline from this history (SQLite file or postgresql://…)");
  po::positional_options_description positional;
  positional.add("action", 1).add("input", -1);
  po::variables_map vm;
  if (auto exit = HelpOrParse(kCommand, args, options, &positional, &vm, out, err)) return *exit;
  if (action != "save" && action != "show" && action != "update") {
    return ReportError(
        kCommand, UsageError("unknown action '" + action + "' (expected save, show or update)"), err);
  }
  if (action == "save") return SaveFromResults(inputs, path, name, root, force, err);
  if (inputs.size() != 1) {
    return ReportError(kCommand, UsageError(action + " takes one file"), err);
  }
  const std::string& input = inputs.front();
  if (action == "show") {
    auto baseline = LoadBaseline(input);
    if (!baseline.ok()) return ReportError(kCommand, baseline.error(), err);
    out << RenderBaselineSummary(baseline.value());
    return kExitOk;
  }
  // update
  auto config = harness::LoadSuiteConfig(input);
  if (!config.ok()) return ReportError(kCommand, config.error(), err);
  if (!from_history.empty()) return UpdateFromHistory(from_history, config->suite, path, name, root, err);
  const std::string results =
      harness::ResolvedOutputDir(config.value()) + "/" + harness::ResultsFileName(config.value());
  return SaveFromResults({results}, path, name, root, /*force=*/true, err);
}

}  // namespace etbench
