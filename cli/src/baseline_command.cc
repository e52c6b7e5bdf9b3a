// `etbench baseline save|show|update`: the stored reference a gate compares
// against, under baselines/<device>/<suite>.json.
#include "command_support.h"
#include "commands.h"
#include "etbench/cli/etbench_cli.h"
#include "etbench/compare/ab_schedule.h"
#include "etbench/compare/baseline_store.h"
#include "etbench/harness/config.h"
#include "etbench/harness/orchestrator.h"
#include "etbench/harness/workflows.h"
#include "etbench/history/history_workflow.h"

namespace etbench {

namespace po = boost::program_options;

namespace {

const char kCommand[] = "baseline";

// Prints what was saved; the exit code.
int ReportSaved(const Result<harness::SavedBaseline>& saved, std::ostream& err) {
  if (!saved.ok()) return ReportError(kCommand, saved.error(), err);
  const std::vector<std::string>& inputs = saved->inputs;
  err << "etbench baseline: saved " << saved->path << " (" << saved->metric_count
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
  std::string action, from_history;
  harness::BaselineSaveRequest request;
  std::vector<std::string>& inputs = request.inputs;
  po::options_description options(usage + "\nOptions");
  options.add_options()
      ("help,h", "show this help")
      ("action", po::value(&action)->required(), "save, show or update")
      ("input", po::value(&inputs)->required(), "results, baseline or config file(s)")
      ("name", po::value(&request.name), "baseline name (default: the suite)")
      ("path", po::value(&request.path), "baseline file (default: <root>/baselines/<device>/<suite>.json)")
      ("root", po::value(&request.root)->default_value("."), "directory holding baselines/")
      ("force", po::bool_switch(&request.force), "overwrite an existing baseline")
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
  if (action == "save") return ReportSaved(harness::SaveBaselineFromResults(request), err);
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
  if (!from_history.empty()) {
    auto config = harness::LoadSuiteConfig(input);
    if (!config.ok()) return ReportError(kCommand, config.error(), err);
    return UpdateFromHistory(from_history, config->suite, request.path, request.name, request.root,
                             err);
  }
  return ReportSaved(harness::UpdateBaseline(input, request), err);
}

}  // namespace etbench
