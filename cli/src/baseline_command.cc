// `etbench baseline save|show|update`: the stored reference a gate compares
// against, under baselines/<device>/<suite>.json.
#include "command_support.h"
#include "etbench/base/terminal_text.h"
#include "commands.h"
#include "etbench/cli/etbench_cli.h"
#include "etbench/compare/ab_schedule.h"
#include "etbench/compare/baseline_store.h"
#include "etbench/harness/config.h"
#include "etbench/harness/orchestrator.h"
#include "etbench/harness/workflows.h"
#include "etbench/history/history_workflow.h"
#include "etbench/reports/baseline_summary.h"

namespace etbench {

namespace po = boost::program_options;

namespace {

const char kBaselineCommand[] = "baseline";

// Prints what was saved; the exit code.
int ReportSaved(const Result<harness::SavedBaseline>& saved, std::ostream& err) {
  if (!saved.ok()) return ReportError(kBaselineCommand, saved.error(), err);
  const std::vector<std::string>& inputs = saved->inputs;
  err << "etbench baseline: saved " << TerminalText(saved->path) << " (" << saved->metric_count
      << " metrics from " << TerminalText(inputs.front())
      << (inputs.size() > 1 ? " and " + std::to_string(inputs.size() - 1) + " more" : "") << ")\n";
  return kExitOk;
}

// `update --from-history`: the suite's stable segment becomes its baseline.
int UpdateFromHistory(const std::string& spec, const std::string& suite, std::string path,
                      const std::string& name, const std::string& root, std::ostream& err,
                      Disk& disk) {
  auto stable = history::BaselineForSuite(spec, suite);
  if (!stable.ok()) return ReportError(kBaselineCommand, stable.error(), err);
  if (stable->runs_used == 0) {
    return ReportError(kBaselineCommand, InputError(spec + ": no run of suite '" + suite + "'"), err);
  }
  Baseline baseline;
  baseline.metrics = std::move(stable->metrics);
  baseline.name = name.empty() ? suite : name;
  if (path.empty()) {
    path = DefaultBaselinePath(root, ContextValue(baseline.metrics, "device"), suite);
  }
  if (Status saved = SaveBaseline(path, baseline, /*force=*/true, disk); !saved.ok()) {
    return ReportError(kBaselineCommand, saved.error(), err);
  }
  err << "etbench baseline: saved " << TerminalText(path) << " from the history: "
      << TerminalText(stable->note) << "\n";
  return kExitOk;
}

// --name, --path and --root: where a baseline goes.
void AddPlacementOptions(po::options_description& d, harness::BaselineSaveRequest* request) {
  d.add_options()
      ("name", po::value(&request->name), "baseline name (default: the suite)")
      ("path", po::value(&request->path),
       "baseline file (default: <root>/baselines/<device>/<suite>.json)")
      ("root", po::value(&request->root)->default_value("."), "directory holding baselines/");
}

int Save(const CommandArgs& args, std::ostream& out, std::ostream& err, Disk& disk) {
  harness::BaselineSaveRequest request;
  po::options_description d(
      "Usage: etbench baseline save RESULTS... [--name N] [--path P] [--root DIR] [--force]\n\n"
      "Stores a results file as the baseline of its suite and device\n"
      "(<root>/baselines/<device>/<suite>.json; refuses to overwrite without --force).\n"
      "Several results files (runs at different times) merge into one baseline: their\n"
      "runs then show how much this machine varies, and the gate allows for it.\n\n"
      "Exit codes: 0 saved; 2 usage error, unreadable results, or a baseline already\n"
      "there (without --force); 130 interrupted (Ctrl-C, SIGTERM; saved in full or not).\n\nOptions");
  d.add_options()
      ("help,h", "show this help")
      ("results", po::value(&request.inputs)->required(), "results files");
  AddPlacementOptions(d, &request);
  d.add_options()("force", po::bool_switch(&request.force), "overwrite an existing baseline");
  po::positional_options_description positional;
  positional.add("results", -1);
  po::variables_map vm;
  if (auto exit = HelpOrParse("baseline save", args, d, &positional, &vm, out, err)) return *exit;
  return ReportSaved(harness::SaveBaselineFromResults(request, disk), err);
}

int Show(const CommandArgs& args, std::ostream& out, std::ostream& err, Disk& disk) {
  std::string input;
  po::options_description d(
      "Usage: etbench baseline show BASELINE\n\n"
      "Summarises a baseline file: its suite, device, host, date, models and metrics.\n\n"
      "Exit codes: 0 shown; 2 usage error or an unreadable baseline.\n\nOptions");
  d.add_options()
      ("help,h", "show this help")
      ("baseline", po::value(&input)->required(), "baseline file");
  po::positional_options_description positional;
  positional.add("baseline", 1);
  po::variables_map vm;
  if (auto exit = HelpOrParse("baseline show", args, d, &positional, &vm, out, err)) return *exit;
  auto baseline = LoadBaseline(input, disk);
  if (!baseline.ok()) return ReportError(kBaselineCommand, baseline.error(), err);
  out << reports::RenderBaselineSummary(baseline.value());
  return kExitOk;
}

int Update(const CommandArgs& args, std::ostream& out, std::ostream& err, Disk& disk) {
  harness::BaselineSaveRequest request;
  std::string config_path, from_history;
  po::options_description d(
      "Usage: etbench baseline update CONFIG [--path P] [--root DIR] [--from-history DB]\n\n"
      "Replaces the suite's baseline with its latest results (nightly jobs), or with\n"
      "--from-history with the runs in the history since the last change point (the\n"
      "suite's newest device and host; docs/history.md).\n\n"
      "Exit codes: 0 saved; 2 usage error, a bad suite file, no results or no run of the\n"
      "suite in the history; 130 interrupted (Ctrl-C, SIGTERM; saved in full or not).\n\nOptions");
  d.add_options()
      ("help,h", "show this help")
      ("config", po::value(&config_path)->required(), "suite file (YAML)");
  AddPlacementOptions(d, &request);
  d.add_options()
      ("from-history", po::value(&from_history),
       "take the baseline from this history (SQLite file or postgresql://…)");
  po::positional_options_description positional;
  positional.add("config", 1);
  po::variables_map vm;
  if (auto exit = HelpOrParse("baseline update", args, d, &positional, &vm, out, err)) return *exit;
  if (!from_history.empty()) {
    auto config = harness::LoadSuiteConfig(config_path, {}, disk);
    if (!config.ok()) return ReportError(kBaselineCommand, config.error(), err);
    return UpdateFromHistory(from_history, config->suite, request.path, request.name, request.root,
                             err, disk);
  }
  return ReportSaved(harness::UpdateBaseline(config_path, request, disk), err);
}

}  // namespace

int RunBaselineCommand(const CommandArgs& args, std::ostream& out, std::ostream& err,
                       Disk& disk) {
  return DispatchSubcommand(
      kBaselineCommand,
      "Usage: etbench baseline <save|show|update> [options]\n\n"
      "The stored reference a gate compares against: baselines/<device>/<suite>.json.\n",
      {{"save", "store results files as their suite's baseline", Save},
       {"show", "summarise a baseline", Show},
       {"update", "replace a suite's baseline with its latest results or its history", Update}},
      "Exit codes: 0 ok; 2 usage or input error.", args, out, err, disk);
}

}  // namespace etbench
