// `etbench baseline save|show|update`: the stored reference a gate compares
// against, under baselines/<device>/<suite>.json.
#include "command_support.h"
#include "commands.h"
#include "comparison_cli.h"
#include "etbench/cli/etbench_cli.h"
#include "etbench/harness/baseline_store.h"
#include "etbench/harness/config.h"
#include "etbench/harness/orchestrator.h"

namespace etbench {

namespace po = boost::program_options;

namespace {

const char kCommand[] = "baseline";

std::string ContextValue(const MetricSet& set, const std::string& key) {
  auto it = set.context.find(key);
  return it == set.context.end() ? std::string() : it->second;
}

// Stores `results_path` as a baseline; `path` empty → the default path.
int SaveFromResults(const std::string& results_path, std::string path, const std::string& name,
                    const std::string& root, bool force, std::ostream& err) {
  auto metrics = LoadMetricSetFile(results_path);
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
      << " metrics from " << results_path << ")\n";
  return kExitOk;
}

}  // namespace

int RunBaselineCommand(const CommandArgs& args, std::ostream& out, std::ostream& err) {
  const std::string usage =
      "Usage: etbench baseline save RESULTS [--name N] [--path P] [--root DIR] [--force]\n"
      "       etbench baseline show BASELINE\n"
      "       etbench baseline update CONFIG [--path P] [--root DIR]\n\n"
      "save: store a results file as the baseline of its suite and device\n"
      "      (<root>/baselines/<device>/<suite>.json; refuses to overwrite without --force).\n"
      "show: summarise a baseline.\n"
      "update: replace the suite's baseline with its latest results (nightly jobs).\n";
  std::string action, input, path, name, root = ".";
  bool force = false;
  po::options_description options(usage + "\nOptions");
  options.add_options()
      ("help,h", "show this help")
      ("action", po::value(&action)->required(), "save, show or update")
      ("input", po::value(&input)->required(), "results, baseline or config file")
      ("name", po::value(&name), "baseline name (default: the suite)")
      ("path", po::value(&path), "baseline file (default: <root>/baselines/<device>/<suite>.json)")
      ("root", po::value(&root)->default_value("."), "directory holding baselines/")
      ("force", po::bool_switch(&force), "overwrite an existing baseline");
  po::positional_options_description positional;
  positional.add("action", 1).add("input", 1);
  po::variables_map vm;
  if (auto exit = HelpOrParse(kCommand, args, options, &positional, &vm, out, err)) return *exit;
  if (action == "save") return SaveFromResults(input, path, name, root, force, err);
  if (action == "show") {
    auto baseline = LoadBaseline(input);
    if (!baseline.ok()) return ReportError(kCommand, baseline.error(), err);
    out << RenderBaselineSummary(baseline.value());
    return kExitOk;
  }
  if (action == "update") {
    auto config = harness::LoadSuiteConfig(input);
    if (!config.ok()) return ReportError(kCommand, config.error(), err);
    const std::string results =
        harness::ResolvedOutputDir(config.value()) + "/" + harness::ResultsFileName(config.value());
    return SaveFromResults(results, path, name, root, /*force=*/true, err);
  }
  return ReportError(kCommand,
                     UsageError("unknown action '" + action + "' (expected save, show or update)"),
                     err);
}

}  // namespace etbench
