// `etbench gate CONFIG`: run the suite, compare with its baseline and
// thresholds, exit 0 pass / 1 regression / 2 error / 3 inconclusive (asked).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>

#include "command_support.h"
#include "etbench/base/terminal_text.h"
#include "commands.h"
#include "comparison_cli.h"
#include "etbench/cli/etbench_cli.h"
#include "etbench/cli/history_recording.h"
#include "etbench/compare/baseline_store.h"
#include "etbench/compare/night_gate.h"
#include "etbench/harness/workflows.h"
#include "etbench/history/history_workflow.h"
#include "etbench/reports/history_render.h"
#include "etbench/reports/report_loader.h"
#include "etbench/reports/reports.h"
#include "etbench/reports/summary.h"
#include "etbench/reports/warning_text.h"
#include "etbench/results/results.h"
#include "gate_change_points.h"
#include "gate_confirm.h"
#include "gate_pull_request.h"
#include "session_run.h"
#include "suite_run.h"

namespace etbench {

namespace po = boost::program_options;

namespace {

// A run that is not judged (a history too short): its summary on stdout
// (unless a report takes stdout) and the requested reports. The JSON, CSV
// and TSV reports are `not_judged`, the comparison a judged night writes
// with no rows and its `not_judged` saying why, so a machine reader reads
// one schema every night; the Markdown and HTML reports are of the run and
// say under their heading why it was not judged (`why`), and its JUnit has
// a failing case when the night fails all the same (`failure`: why, ""
// when it does not). Exit 0, or 2 when a report cannot be written.
int EmitRunOnly(const std::string& command, const std::string& results_path,
                const ComparisonOutput& output, const Comparison& not_judged,
                const MetricSet& candidate, const std::string& why, const std::string& failure,
                std::ostream& out, std::ostream& err, Disk& disk) {
  auto loaded = reports::LoadReportFile(results_path, disk);
  if (!loaded.ok()) return ReportError(command, loaded.error(), err);
  auto requests = reports::ParseReportRequests(output.report_specs);
  if (!requests.ok()) return ReportError(command, requests.error(), err);
  const auto to_stdout = [](const reports::ReportRequest& r) {
    return r.path.empty() || r.path == "-";
  };
  const auto summary = [&](const reports::ReportRequest& r) {
    return to_stdout(r) && r.format == reports::ReportFormat::kTerminal;
  };
  const bool stdout_taken = std::any_of(requests->begin(), requests->end(), [&](const auto& r) {
    return to_stdout(r) && !summary(r);
  });
  const bool show_summary =
      !stdout_taken || std::any_of(requests->begin(), requests->end(), summary);
  if (show_summary && loaded->results) {
    out << reports::RenderSummaryTable(*loaded->results, results_path);
    // The results file is the night's first session; the history has all.
    if (const std::size_t sessions = SessionCount(candidate); sessions > 1) {
      const std::string dir = std::filesystem::path(results_path).parent_path().string();
      out << "(session 1 of the night's " << sessions << "; sessions 2-" << sessions << " under "
          << TerminalText(harness::SessionsDir(dir)) << "/; all " << sessions
          << " are in the history)\n";
    }
  }
  reports::ReportOptions options;
  options.generator = std::string("etbench ") + ETBENCH_VERSION;
  options.results_note = why;
  options.results_failure = failure;
  const reports::ReportInput run = loaded->Input(output.title);
  reports::ReportInput comparison;
  comparison.comparison = &not_judged;
  comparison.candidate = &candidate;
  comparison.title = output.title;
  for (const reports::ReportRequest& r : requests.value()) {
    if (summary(r)) continue;  // shown above
    const bool machine = r.format == reports::ReportFormat::kJson ||
                         r.format == reports::ReportFormat::kCsv ||
                         r.format == reports::ReportFormat::kTsv;
    Status written = reports::WriteReports({r}, machine ? comparison : run, options, out, disk);
    if (!written.ok()) return ReportError(command, written.error(), err);
  }
  return kExitOk;
}

std::vector<std::string> TonightsChangePointLines(const history::ConfirmedTonight& tonight) {
  return reports::RenderConfirmedChangePoints(tonight.confirmed, tonight.older_open);
}

// `gate CONFIG --base SETTING… [--head SETTING…]`: the pull-request gate,
// the head build against its base build interleaved on this runner — `ab`
// with --a = --base and --b = --head (same settings, flags and exit codes).
std::optional<CommandArgs> AsAbArgs(const CommandArgs& args) {
  bool base = false;
  CommandArgs ab;
  for (const std::string& a : args) {
    const bool is_base = a == "--base" || a.rfind("--base=", 0) == 0;
    const bool is_head = a == "--head" || a.rfind("--head=", 0) == 0;
    base = base || is_base;
    if (is_base || is_head) {
      ab.push_back((is_base ? "--a" : "--b") + a.substr(6));
    } else {
      ab.push_back(a);
    }
  }
  if (!base) return std::nullopt;
  return ab;
}

}  // namespace

int RunGateCommand(const CommandArgs& args, const CliDeps& deps) {
  std::ostream& out = *deps.out;
  std::ostream& err = *deps.err;
  if (auto ab = AsAbArgs(args)) return RunAbCommand(*ab, deps);
  const std::string command = "gate";
  harness::GateRequest request;
  std::string& config_path = request.config_path;
  harness::ConfigOverrides& overrides = request.overrides;
  std::string history_spec;
  int iterations = -1;
  std::string other_machine = "gate";
  bool advisory = false;
  bool no_confirm = false;
  bool strict_threshold = false;
  std::vector<std::string> confirm_with;
  std::size_t sessions = kDefaultNightSessions;
  std::size_t sustained_nights = kDefaultSustainedNights;
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
      "machines without a baseline of their own.\n\n"
      "--baseline history gates against this machine's own history (--history, default\n"
      "results/history.db): tonight's run is judged against the distribution of the\n"
      "earlier runs (nights) of the suite on this device and host since the last change\n"
      "point, after removing the machine's level that all metrics share; the night is\n"
      "the unit (docs/comparison.md, \"Gating against earlier nights\"). Until the\n"
      "history holds 5 nights a run is recorded, its summary and reports shown, and the\n"
      "gate exits 0 saying so. A baseline file merged from 5 or more runs (baseline save\n"
      "R1 R2 ...) is judged the same way. Parts of Method::execute (operators,\n"
      "delegates, framework tax) fail the gate only when they move it by its threshold\n"
      "with their whole interval or move with it; --every-part gates each one. A model\n"
      "slower tonight as a whole process (its load path, where no kernel runs, as slow\n"
      "as its Method::execute) is listed, not counted: the night is at best 'no\n"
      "regression detected'. Where tonight's machine level lies beyond the nights'\n"
      "level noise, intervals widen.\n"
      "Before failing, the suspect models run once more and each metric counts with\n"
      "its faster run (--no-confirm: not).\n"
      "--confirm-with SETTING... (an ab setting of the previous good build, e.g.\n"
      "program=old/executor_runner or config=FILE) then runs the suspect models\n"
      "interleaved, that build (A) against tonight's (B), as 'etbench ab' does, and\n"
      "the builds decide: an A/B regression is confirmed (exit 1), an A/B without one\n"
      "withdraws the alert (exit 0), an undecided A/B leaves the night's verdict.\n"
      "A regression change point that tonight's run confirmed (history detect's test,\n"
      "e.g. a small change on its third night) is judged as an alert is: its models\n"
      "run once more (--no-confirm: not) and each metric counts with its faster run;\n"
      "one that holds is reported and fails the night too; later nights remind of it\n"
      "until 'etbench history ack ID'.\n"
      "An unchanged night passes when every gated row rules out its threshold, or, where\n"
      "the nights are too noisy to resolve the threshold, rules out the smallest change\n"
      "the gate would have caught on those nights (their MDE, not widened by tonight's\n"
      "level; the row shows it as its threshold and says so); --strict-threshold keeps\n"
      "the threshold there ('no regression detected').\n"
      "A night is --sessions N runs of the suite (default 6), each a fresh etbench\n"
      "process, models interleaved; a time metric's night value is the lower decile\n"
      "over its sessions of each session's lower decile (load only adds time), and\n"
      "the history records every session of the night.\n"
      "--history DB appends every gated run to that history. The history is opened and\n"
      "checked (reachable, schema, writable) before any model runs.\n\n"
      "Pull requests: etbench gate CONFIG --base SETTING... [--head SETTING...] runs\n"
      "the base build (A) and the head build (B) interleaved on this runner until\n"
      "every metric is decided or the budget is spent: exactly 'etbench ab' with\n"
      "--a = --base and --b = --head (its options are listed below), e.g.\n"
      "  etbench gate configs/et_runner_command.yaml \\\n"
      "      --base program=base/build/tools/et_runner/et_runner\n\n"
      "Exit codes: 0 pass, no regression detected, or a history too short to judge;\n"
      "1 regression (tonight's, or a change point tonight confirmed); 2 usage/input error,\n"
      "missing baseline, unusable history or a model\n"
      "that failed to run;\n"
      "3 inconclusive (no regression detected, not a pass) with --fail-on-inconclusive;\n"
      "130 interrupted (Ctrl-C or SIGTERM; no verdict).\n\nOptions");
  options.add_options()
      ("help,h", "show this help")
      ("config", po::value(&config_path)->required(), "suite file (YAML)")
      ("baseline", po::value(&request.baseline_path),
       "baseline or results file to compare with, or 'history'")
      ("history", po::value(&history_spec),
       "history database (SQLite file or postgresql://…) to append the run to")
      ("root", po::value(&request.root)->default_value("."), "directory holding baselines/")
      ("thresholds", po::value(&request.thresholds_path), "thresholds YAML (overrides the suite's)")
      ("iterations", po::value(&iterations), "executions measured per repetition")
      ("model", po::value(&overrides.models)->composing(), "gate only this model (repeatable)")
      ("label", po::value(&overrides.labels)->composing(), "KEY=VALUE metadata label")
      ("report", po::value(&output.report_specs)->composing(),
       "FORMAT[=FILE]: terminal, markdown, junit, json, csv, tsv, html (repeatable)")
      ("color", po::value(&output.color)->default_value("auto"), "auto, always or never")
      ("fail-on-inconclusive", po::bool_switch(&output.fail_on_inconclusive),
       "exit 3 when the outcome is inconclusive")
      ("other-machine", po::value(&other_machine)->default_value("gate"),
       "baseline from another machine: gate (verdicts count) or advisory (exit 0)")
      ("every-part", po::bool_switch(&request.night.every_part),
       "against nights: gate every operator, delegate and framework tax on its own")
      ("strict-threshold", po::bool_switch(&strict_threshold),
       "against nights: pass only below each row's own threshold, never at the\n"
       "nights' resolution (an MDE above the threshold leaves 'no regression detected')")
      ("sustained-nights", po::value(&sustained_nights)->default_value(kDefaultSustainedNights),
       "against the history: a step fails once tonight and the N - 1 nights before it\n"
       "are each beyond the threshold (0 = tonight alone)")
      ("no-confirm", po::bool_switch(&no_confirm),
       "against nights: fail on the first run, without measuring suspect models again")
      ("confirm-with", po::value(&confirm_with)->composing(),
       "against nights: a setting of the previous good build (repeatable); a regression\n"
       "is then confirmed or withdrawn by an interleaved A/B of the suspect models")
      ("sessions", po::value(&sessions)->default_value(kDefaultNightSessions),
       "against nights: fresh processes (sessions) per night, 1 = this process only")
      ("advisory", po::bool_switch(&advisory),
       "verdicts are advice: exit 0, reports say 'advisory' first, JUnit has no failures");
  const std::vector<std::string> pull_request_options = AddPullRequestOptions(&options);
  po::positional_options_description positional;
  positional.add("config", 1);
  po::variables_map vm;
  if (auto exit = HelpOrParse(command, args, options, &positional, &vm, out, err)) return *exit;
  if (Status s = RejectPullRequestOptions(vm, pull_request_options); !s.ok()) {
    return ReportError(command, s.error(), err);
  }
  if (vm.count("iterations")) overrides.iterations = iterations;
  request.confirm = !no_confirm;
  request.night.pass_at_resolution = !strict_threshold;
  if (sustained_nights > 10) {
    return ReportError(command, UsageError("--sustained-nights must be 0..10"), err);
  }
  if (sessions < 1 || sessions > 50) {
    return ReportError(command, UsageError("--sessions must be 1..50"), err);
  }
  if (other_machine != "gate" && other_machine != "advisory") {
    return ReportError(command, UsageError("--other-machine must be gate or advisory"), err);
  }

  request.advisory_on_other_machine = other_machine == "advisory";

  const bool from_history = request.baseline_path == "history";
  if (!confirm_with.empty() && !from_history) {
    return ReportError(command,
                       UsageError("--confirm-with needs --baseline history (it confirms a "
                                  "first-night alert against the previous build)"),
                       err);
  }
  std::size_t history_runs = 0;  // this machine's runs before this one
  std::string restarted_at;  // the commit of the change point the baseline starts at
  if (from_history && history_spec.empty()) history_spec = history::kDefaultHistoryPath;
  Thresholds gate_thresholds;  // the gate's, as the baseline source was given them
  const bool every_part = request.night.every_part;
  if (from_history) {
    // A baseline file's sessions are no nights before tonight: the
    // sustained-step look reads the history's newest nights only.
    request.night.sustained_nights = sustained_nights;
    request.sessions = sessions;
    request.run_session = SessionRunFn(deps, config_path, overrides);
    request.baseline_source = [&history_spec, &history_runs, &restarted_at, &gate_thresholds,
                               every_part](const MetricSet& candidate,
                                           const Thresholds& thresholds)
        -> Result<std::optional<harness::ProvidedBaseline>> {
      gate_thresholds = thresholds;
      auto stable =
          history::BaselineForCandidate(history_spec, candidate, thresholds, every_part);
      if (!stable.ok()) return stable.error();
      history_runs = stable->runs_used;
      if (stable->runs_used < stable->runs_available) restarted_at = stable->first_commit;
      if (stable->runs_used == 0) return std::optional<harness::ProvidedBaseline>();
      return std::optional<harness::ProvidedBaseline>(harness::ProvidedBaseline{
          std::move(stable->metrics), "history: " + stable->note, std::move(stable->nights)});
    };
  }
  // The change points tonight confirms as the gate's own check found them,
  // with the confirmation runs made by then: still tonight's answer unless
  // a model was measured again for one of them.
  std::optional<history::ConfirmedTonight> confirmed_in_gate;
  if (from_history) {
    // A change point tonight confirms is judged as a first-night alert is:
    // its models measured again, each metric by the faster run.
    request.change_point_models = [&history_spec, &gate_thresholds, every_part, &confirmed_in_gate](
                                      const MetricSet& candidate, const MetricSet* confirmation)
        -> Result<std::vector<std::string>> {
      auto confirmed = history::RegressionsConfirmedTonight(history_spec, candidate, gate_thresholds,
                                                            every_part, confirmation);
      if (!confirmed.ok()) return confirmed.error();
      std::vector<std::string> models;
      for (const history::ChangePoint& cp : confirmed->confirmed) {
        if (std::find(models.begin(), models.end(), cp.key.model) == models.end()) {
          models.push_back(cp.key.model);
        }
      }
      confirmed_in_gate = std::move(confirmed).value();
      return models;
    };
  }
  if (!history_spec.empty()) {
    // The run joins the history whatever the verdict, so detect sees it.
    request.on_run = [&history_spec, &err](const harness::SuiteRunOutput& run,
                                           const MetricSet& night) -> Status {
      auto note = RecordRun(history_spec, run.results, run.results_path, &night);
      if (!note.ok()) return note.error();
      err << "etbench gate: " << note.value() << "\n";
      return Ok{};
    };
  }

  // An unusable history fails in seconds, not after the suite ran (once a
  // named baseline file was read: a typo there creates no database).
  if (!history_spec.empty()) {
    request.before_run = [&history_spec] { return history::CheckHistoryForAdding(history_spec); };
  }
  auto gate = harness::Gate(
      request, RunSuiteFn(deps),
      [&err](const ComparisonWarning& w) {
        err << "etbench gate: " << TerminalText(reports::WarningText(w)) << "\n";
      },
      *deps.disk);
  if (!gate.ok()) return ReportError(command, gate.error(), err);
  if (gate->night_model) {
    char level[32];
    std::snprintf(level, sizeof level, "%+.1f%%", 100 * gate->machine_level);
    err << "etbench gate: judged against " << gate->nights << " earlier nights"
        << (from_history ? "" : " of the baseline") << " (";
    if (gate->recent_nights >= 2) {
      // The rows then say "against" the nights before the recent ones.
      err << "the sustained look: tonight and the " << gate->recent_nights - 1 << " night"
          << (gate->recent_nights == 2 ? "" : "s") << " before it against the "
          << gate->look_nights << " before them; ";
    }
    err << "the night is the unit; tonight's machine level " << level
        << ", removed from every time metric)";
    if (!gate->confirmation_models.empty()) {
      std::string models;
      for (const std::string& m : gate->confirmation_models) models += (models.empty() ? "" : ", ") + m;
      err << "; " << models << " measured again to confirm (" << TerminalText(gate->confirmation_path)
          << "), each metric judged by the faster run";
    }
    err << "; a regression here is a first-night alert (tonight is beyond its threshold)";
    if (from_history && sustained_nights >= 2) {
      err << " or a sustained step (tonight and the " << sustained_nights - 1
          << " nights before it each beyond it)";
    }
    err << "; etbench history detect confirms a change point after 3 nights at the new level\n";
  }
  if (!gate->change_point_models.empty()) {
    std::string models;
    for (const std::string& m : gate->change_point_models) models += (models.empty() ? "" : ", ") + m;
    err << "etbench gate: tonight's first run would confirm a change point of " << models
        << ", measured again (" << TerminalText(gate->change_point_path)
        << "): each metric is judged by the faster run\n";
  }
  if (gate->interrupted) {
    err << "etbench gate: interrupted; no verdict (partial results in " << TerminalText(gate->results_path)
        << ")\n";
    return kExitInterrupted;
  }
  // Tonight's run is in the history now: what `history detect` confirmed
  // with it ("change point confirmed"), whatever tonight's own verdict.
  history::ConfirmedTonight tonight;
  if (from_history && confirmed_in_gate && gate->change_point_models.empty()) {
    tonight = std::move(*confirmed_in_gate);
  } else if (from_history) {
    auto confirmed = history::RegressionsConfirmedTonight(
        history_spec, gate->candidate, gate_thresholds, every_part,
        gate->confirmation ? &*gate->confirmation : nullptr);
    if (!confirmed.ok()) return ReportError(command, confirmed.error(), err);
    tonight = std::move(confirmed).value();
  }
  if (gate->no_baseline_yet || gate->nights_too_short) {
    const bool fails = ExitWithConfirmed(tonight, kExitOk, advisory) != kExitOk;
    const std::string too_short = reports::RenderNotJudged(
        history_runs, kMinGateNights, gate->config.suite, gate->machine,
        history::HistoryDisplayName(history_spec), restarted_at, fails);
    err << "etbench gate: " << too_short << "\n";
    std::string failure;  // the change points that fail the night, for JUnit
    for (const std::string& line : TonightsChangePointLines(tonight)) {
      PrintWarning(command, line, err);  // as the judged nights' warnings are
      if (fails) failure += (failure.empty() ? "" : "\n") + line;
    }
    // What a judged night's JSON and CSV hold, with no rows: the outcome
    // is the night's exit, `not_judged` says why.
    Comparison not_judged;
    not_judged.outcome = fails ? GateOutcome::kRegression : GateOutcome::kPass;
    not_judged.not_judged =
        NotJudged{"history_too_short", history_runs, kMinGateNights, too_short};
    not_judged.settings = SettingsFrom(gate_thresholds);
    not_judged.candidate_context = gate->candidate.context;
    for (const std::string& line : TonightsChangePointLines(tonight)) {
      not_judged.warnings.push_back(TextWarning{line});
    }
    if (advisory) {
      not_judged.advisory = true;
      not_judged.advisory_reason = "--advisory";
    }
    return ExitWithConfirmed(
        tonight,
        EmitRunOnly(command, gate->results_path, output, not_judged, gate->candidate,
                    "not judged: " + too_short, failure, out, err, *deps.disk),
        advisory);
  }
  output.title = gate->title;
  Comparison& comparison = gate->comparison;
  if (advisory) {
    comparison.advisory = true;
    comparison.advisory_reason = "--advisory";
  } else if (gate->advisory) {
    err << "etbench gate: advisory: the baseline was measured on another machine ("
        << gate->baseline_machine << "; this is " << gate->machine << "), so its verdicts are advice (exit "
        << GateExitCode(comparison, output.fail_on_inconclusive)
        << " becomes 0). To gate on this machine, record its baseline: etbench run " << config_path
        << " && etbench baseline save " << gate->results_path << " --force\n";
    comparison.advisory = true;
    comparison.advisory_reason = "the baseline was measured on another machine";
  }
  for (const std::string& line : TonightsChangePointLines(tonight)) {
    comparison.warnings.push_back(TextWarning{line});  // the reports carry it too
  }
  if (ExitWithConfirmed(tonight, kExitOk, comparison.advisory) != kExitOk) {
    // The night fails (exit 1): every report's outcome says so, not "PASS"
    // above a warning (their warnings say why; JUnit adds a failing case).
    comparison.outcome = GateOutcome::kRegression;
  }
  int exit = EmitComparison(command, comparison, gate->baseline, gate->candidate, output,
                            *deps.env, *deps.disk, out, err);
  exit = ExitWithConfirmed(tonight, exit, comparison.advisory);
  if (confirm_with.empty() && from_history && gate->night_model && !comparison.advisory &&
      exit == kExitRegression) {
    // What to do with a failed night: tell the code from the night, or
    // accept an intended change.
    std::string models;
    for (const std::string& m : SuspectModels(comparison)) models += " --model " + m;
    err << "etbench gate: next: ";
    if (!models.empty()) {
      err << "to tell a change of the code from a slow night, run it interleaved with the "
             "previous build: etbench ab "
          << TerminalText(config_path) << TerminalText(models)
          << " --a SETTING (the previous build, e.g. program=old/executor_runner), or this gate "
             "with --confirm-with SETTING; ";
    }
    err << "if the change is intended, 'etbench history ack ID' accepts it once history detect "
           "confirms it (3 nights at the new level)\n";
  }
  if (confirm_with.empty() || !gate->night_model || comparison.advisory) return exit;
  ConfirmRequest confirm;
  confirm.config_path = config_path;
  confirm.settings = confirm_with;
  confirm.models = SuspectModels(comparison);
  confirm.labels = overrides.labels;
  confirm.thresholds_path = request.thresholds_path;
  return ConfirmWithBuilds(confirm, exit, deps);
}

}  // namespace etbench
