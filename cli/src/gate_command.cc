// `etbench gate CONFIG`: run the suite, compare with its baseline and
// thresholds, exit 0 pass / 1 regression / 2 error / 3 inconclusive (asked).
#include <iostream>

#include "command_support.h"
#include "commands.h"
#include "comparison_cli.h"
#include "etbench/cli/etbench_cli.h"
#include "etbench/harness/baseline_store.h"
#include "etbench/harness/results.h"
#include "suite_run.h"

namespace etbench {

namespace po = boost::program_options;

namespace {

// "host, boot <id>": runs with equal values ran on one machine instance.
std::string MachineOf(const MetricSet& set) {
  const std::string boot = ContextValue(set, "boot_id");
  return "host '" + ContextValue(set, "host") + "'" + (boot.empty() ? "" : ", boot " + boot.substr(0, 8));
}

}  // namespace

int RunGateCommand(const CommandArgs& args, std::ostream& out, std::ostream& err) {
  const std::string command = "gate";
  std::string config_path, baseline_path, thresholds_path, root = ".";
  harness::ConfigOverrides overrides;
  int iterations = -1;
  std::string other_machine = "gate";
  ComparisonOutput output;
  po::options_description options(
      "Usage: etbench gate CONFIG [options]\n\n"
      "Runs the suite CONFIG, compares its results with the suite's baseline\n"
      "(<root>/baselines/<device>/<suite>.json unless --baseline) using the suite's\n"
      "thresholds (or --thresholds, or the built-in rules), prints the verdicts and\n"
      "writes the requested reports.\n\n"
      "Timings depend on the machine and its build: a baseline recorded on another\n"
      "machine (host name or boot) is compared with warnings. --other-machine advisory\n"
      "turns its verdicts into advice (exit 0 unless an error), for jobs that run on\n"
      "machines without a baseline of their own (the README's main job).\n\n"
      "Exit codes: 0 pass; 1 regression; 2 usage/input error, missing baseline or a\n"
      "model that failed to run; 3 inconclusive with --fail-on-inconclusive;\n"
      "130 interrupted (Ctrl-C or SIGTERM; no verdict).\n\nOptions");
  options.add_options()
      ("help,h", "show this help")
      ("config", po::value(&config_path)->required(), "suite file (YAML)")
      ("baseline", po::value(&baseline_path), "baseline or results file to compare with")
      ("root", po::value(&root)->default_value("."), "directory holding baselines/")
      ("thresholds", po::value(&thresholds_path), "thresholds YAML (overrides the suite's)")
      ("iterations", po::value(&iterations), "executions measured per repetition")
      ("model", po::value(&overrides.models)->composing(), "gate only this model (repeatable)")
      ("label", po::value(&overrides.labels)->composing(), "KEY=VALUE metadata label")
      ("report", po::value(&output.report_specs)->composing(),
       "FORMAT[=FILE]: terminal, markdown, junit, json, csv, tsv, html (repeatable)")
      ("color", po::value(&output.color)->default_value("auto"), "auto, always or never")
      ("fail-on-inconclusive", po::bool_switch(&output.fail_on_inconclusive),
       "exit 3 when the outcome is inconclusive")
      ("other-machine", po::value(&other_machine)->default_value("gate"),
       "baseline from another machine: gate (verdicts count) or advisory (exit 0)");
  po::positional_options_description positional;
  positional.add("config", 1);
  po::variables_map vm;
  if (auto exit = HelpOrParse(command, args, options, &positional, &vm, out, err)) return *exit;
  if (vm.count("iterations")) overrides.iterations = iterations;
  overrides.quiet = true;  // the comparison is the output
  if (other_machine != "gate" && other_machine != "advisory") {
    return ReportError(command, UsageError("--other-machine must be gate or advisory"), err);
  }

  auto config = harness::LoadSuiteConfig(config_path);
  if (!config.ok()) return ReportError(command, config.error(), err);
  if (Status s = harness::ApplyOverrides(overrides, &config.value()); !s.ok()) {
    return ReportError(command, s.error(), err);
  }
  if (thresholds_path.empty()) thresholds_path = config->thresholds_path;
  auto thresholds = LoadThresholdsOrDefault(thresholds_path);
  if (!thresholds.ok()) return ReportError(command, thresholds.error(), err);

  auto run = RunSuiteWithSystemDeps(config.value(), err);
  if (!run.ok()) return ReportError(command, run.error(), err);
  const harness::RunResults& results = run->results;
  if (results.interrupted) {
    // Ctrl-C (or SIGTERM): stopped on request, not an input error.
    err << "etbench gate: interrupted; no verdict (partial results in " << run->results_path
        << ")\n";
    return kExitInterrupted;
  }
  if (results.CountWithStatus(harness::ModelStatus::kFailed) > 0 || results.interrupted) {
    return ReportError(command,
                       InputError("some models did not run (see " + run->results_path +
                                  "); the gate cannot judge them"),
                       err);
  }
  MetricSet candidate = harness::ToMetricSet(results);

  std::vector<std::string> warnings;
  MetricSet baseline_metrics;
  if (baseline_path.empty()) {
    baseline_path =
        DefaultBaselinePath(root, ContextValue(candidate, "device"), ContextValue(candidate, "suite"));
  }
  auto baseline = LoadMetricSetFile(baseline_path);
  if (!baseline.ok()) return ReportError(command, baseline.error(), err);
  baseline_metrics = std::move(baseline).value();
  // Another suite or time source is an error; another device or tick rate
  // a loud warning (printed with the comparison's warnings).
  const BaselineExpectation expected{config->suite, ContextValue(candidate, "time_source"),
                                     ContextValue(candidate, "device"),
                                     ContextValue(candidate, "tick_rate_hz")};
  if (Status s = CheckBaselineMatches(baseline_metrics, expected, warnings); !s.ok()) {
    return ReportError(command, InputError(baseline_path + ": " + s.error().message), err);
  }
  for (const std::string& w : warnings) err << "etbench gate: " << w << "\n";
  auto comparison = Compare(baseline_metrics, candidate, thresholds.value());
  if (!comparison.ok()) return ReportError(command, comparison.error(), err);
  output.title = config->suite + ": " + baseline_path + " → " + run->results_path;
  const int exit_code =
      EmitComparison(command, comparison.value(), baseline_metrics, candidate, output, out, err);
  const std::string baseline_machine = MachineOf(baseline_metrics);
  const std::string machine = MachineOf(candidate);
  if (other_machine == "advisory" && baseline_machine != machine && exit_code != kExitInputError) {
    err << "etbench gate: advisory: the baseline was measured on another machine ("
        << baseline_machine << "; this is " << machine << "), so its verdicts are advice (exit "
        << exit_code << " becomes 0). To gate on this machine, record its baseline: etbench run "
        << config_path << " && etbench baseline save " << run->results_path << " --force\n";
    return kExitOk;
  }
  return exit_code;
}

}  // namespace etbench
