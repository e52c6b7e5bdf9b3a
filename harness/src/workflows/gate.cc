// The `gate` workflow: run the suite, find and check its baseline, compare,
// and decide whether the verdicts count or are advice.
#include <algorithm>
#include <optional>

#include "etbench/compare/ab_schedule.h"
#include "etbench/compare/baseline_store.h"
#include "etbench/compare/run_context.h"
#include "etbench/harness/workflows.h"
#include "etbench/results/gbench_json.h"
#include "etbench/results/input_files.h"
#include "etbench/results/results.h"

namespace etbench::harness {
namespace {

// "host, boot <id>": runs with equal values ran on one machine instance.
std::string MachineOf(const MetricSet& set) {
  const std::string boot = ContextValue(set, "boot_id");
  return "host '" + ContextValue(set, "host") + "'" + (boot.empty() ? "" : ", boot " + boot.substr(0, 8));
}

// The sessions of one night: the first (its results are the night's
// results file) and every session's metrics merged.
struct Night {
  SuiteRunOutput first;
  MetricSet metrics;
  bool interrupted = false;
  std::string stopped_path;  // the interrupted session's results
};

// Runs `config` `sessions` times; a failed model in any session is an
// input error (`what` says which run).
Result<Night> RunNight(const SuiteConfig& config, std::size_t sessions, const SuiteRunFn& run_suite,
                       const SuiteRunFn& run_session, const std::string& what) {
  Night night;
  std::vector<MetricSet> sets;
  const std::string dir = ResolvedOutputDir(config);
  for (std::size_t s = 1; s <= std::max<std::size_t>(sessions, 1); ++s) {
    SuiteConfig one = config;
    if (s >= 2) one.output_dir = SessionsDir(dir) + "/s" + std::to_string(s);
    const SuiteRunFn& run_fn = sessions >= 2 && run_session ? run_session : run_suite;
    auto run = run_fn(one);
    if (!run.ok()) return run.error();
    if (run->results.interrupted) {
      night.interrupted = true;
      night.stopped_path = run->results_path;
      return night;
    }
    if (run->results.CountWithStatus(results::ModelStatus::kFailed) > 0) {
      return InputError("some models did not run" + what + " (see " + run->results_path +
                        "); the gate cannot judge them");
    }
    sets.push_back(results::ToMetricSet(run->results));
    if (s == 1) night.first = std::move(run).value();
  }
  if (sets.size() == 1) {
    night.metrics = std::move(sets.front());
    return night;
  }
  // Newest first: the first session's context (its results file) wins.
  std::reverse(sets.begin(), sets.end());
  auto merged = MergeMetricSets(sets);
  if (!merged.ok()) return merged.error();
  night.metrics = std::move(merged).value();
  night.metrics.context = sets.back().context;
  return night;
}

// Adds `metrics` to the confirmation runs' metrics of `outcome`.
void AddConfirmation(GateOutcome* outcome, const MetricSet& metrics) {
  if (!outcome->confirmation) {
    outcome->confirmation = metrics;
    return;
  }
  for (const Metric& m : metrics.metrics) outcome->confirmation->metrics.push_back(m);
}

// GateRequest::change_point_models: the models of change points tonight
// confirms that no confirmation run measured yet are measured again (an
// interrupted run sets outcome->interrupted).
Status ConfirmChangePoints(const GateRequest& request, const SuiteConfig& config,
                           const SuiteRunFn& run_suite, GateOutcome* outcome) {
  if (!request.change_point_models || !request.confirm) return Ok{};
  auto models = request.change_point_models(
      outcome->candidate, outcome->confirmation ? &*outcome->confirmation : nullptr);
  if (!models.ok()) return models.error();
  std::vector<std::string> again;
  for (const std::string& m : models.value()) {
    const auto& measured = outcome->confirmation_models;
    if (std::find(measured.begin(), measured.end(), m) == measured.end() &&
        std::find(again.begin(), again.end(), m) == again.end()) {
      again.push_back(m);
    }
  }
  if (again.empty()) return Ok{};
  SuiteConfig rerun_config = config;
  rerun_config.model_filter = again;
  rerun_config.output_dir = ResolvedOutputDir(config) + "/confirm-change-points";
  auto rerun = RunNight(rerun_config, request.sessions, run_suite, request.run_session, " again");
  if (!rerun.ok()) return rerun.error();
  if (rerun->interrupted) {
    outcome->interrupted = true;
    outcome->results_path = rerun->stopped_path;
    return Ok{};
  }
  AddConfirmation(outcome, rerun->metrics);
  outcome->change_point_models = std::move(again);
  outcome->change_point_path = rerun->first.results_path;
  return Ok{};
}

}  // namespace

std::string SessionsDir(const std::string& output_dir) { return output_dir + "/sessions"; }

Result<GateOutcome> Gate(const GateRequest& request, const SuiteRunFn& run_suite,
                         const WarningSink& warn, Disk& disk) {
  ConfigOverrides overrides = request.overrides;
  overrides.quiet = true;  // the comparison is the output
  auto config = LoadSuite(request.config_path, overrides, disk);
  if (!config.ok()) return config.error();
  const std::string thresholds_path =
      request.thresholds_path.empty() ? config->thresholds_path : request.thresholds_path;
  auto thresholds = LoadThresholdsOrDefault(thresholds_path, disk);
  if (!thresholds.ok()) return thresholds.error();
  // A baseline file named on the command line is read (and checked that it
  // is one) before any model runs: a typo must not cost the night, nor
  // replace the output directory's last results with a run it cannot judge.
  std::optional<MetricSet> named_baseline;
  if (!request.baseline_source && !request.baseline_path.empty()) {
    auto baseline = results::LoadMetricSetFile(request.baseline_path, disk);
    if (!baseline.ok()) return baseline.error();
    named_baseline = std::move(baseline).value();
  }
  if (request.before_run) {
    if (Status s = request.before_run(); !s.ok()) return s.error();
  }

  auto night = RunNight(config.value(), request.sessions, run_suite, request.run_session, "");
  if (!night.ok()) return night.error();
  if (night->interrupted) {
    // Ctrl-C or SIGTERM: stopped on request, no verdict (not an input error).
    GateOutcome stopped;
    stopped.interrupted = true;
    stopped.results_path = night->stopped_path;
    stopped.config = std::move(config).value();
    return stopped;
  }
  const SuiteRunOutput& first = night->first;
  GateOutcome outcome;
  std::vector<MetricSet> nights;
  outcome.candidate = night->metrics;
  outcome.results_path = first.results_path;
  outcome.baseline_path = request.baseline_path;
  if (outcome.baseline_path.empty()) {
    outcome.baseline_path = DefaultBaselinePath(request.root, ContextValue(outcome.candidate, "device"),
                                                ContextValue(outcome.candidate, "suite"));
  }
  if (request.baseline_source) {
    auto provided = request.baseline_source(outcome.candidate, thresholds.value());
    if (!provided.ok()) return provided.error();
    if (!provided->has_value()) {
      outcome.no_baseline_yet = true;
    } else {
      outcome.baseline = std::move((*provided)->metrics);
      outcome.baseline_path = std::move((*provided)->label);
      nights = std::move((*provided)->nights);
      // A history too short to say: no verdict, the gate passes.
      outcome.nights_too_short = !nights.empty() && nights.size() < request.night.min_nights;
    }
  } else {
    if (named_baseline) {
      outcome.baseline = std::move(*named_baseline);
    } else {  // the default path names the run's device: known only now
      auto baseline = results::LoadMetricSetFile(outcome.baseline_path, disk);
      if (!baseline.ok()) return baseline.error();
      outcome.baseline = std::move(baseline).value();
    }
    // A Google Benchmark file names no suite and has its own time unit: it
    // stands for this suite's run in the suite's unit.
    if (results::IsGoogleBenchmarkFileSet(outcome.baseline)) {
      Status adopted = results::AdoptGoogleBenchmarkFile(config->suite, first.results.metadata.unit,
                                                         &outcome.baseline);
      if (!adopted.ok()) return InputError(outcome.baseline_path + ": " + adopted.error().message);
    }
    // A baseline merged from several runs holds nights too; with fewer
    // than the model needs it is compared as one baseline.
    if (auto split = SplitSessions(outcome.baseline);
        split && split->size() >= request.night.min_nights) {
      nights = std::move(split).value();
    }
  }
  outcome.nights = nights.size();
  if (request.on_run) {
    if (Status s = request.on_run(first, outcome.candidate); !s.ok()) return s.error();
  }
  if (outcome.no_baseline_yet || outcome.nights_too_short) {
    if (Status s = ConfirmChangePoints(request, config.value(), run_suite, &outcome); !s.ok()) {
      return s.error();
    }
    outcome.title = config->suite + ": no baseline yet → " + outcome.results_path;
    outcome.machine = MachineOf(outcome.candidate);
    outcome.config = std::move(config).value();
    return outcome;
  }
  // Another suite or time source is an error; another device or tick rate
  // a loud warning.
  const MetricSet& candidate = outcome.candidate;
  const BaselineExpectation expected{config->suite, ContextValue(candidate, "time_source"),
                                     ContextValue(candidate, "device"),
                                     RunContextOf(candidate).tick_rate_hz};
  std::vector<ComparisonWarning> warnings;
  if (Status s = CheckBaselineMatches(outcome.baseline, expected, warnings); !s.ok()) {
    return InputError(outcome.baseline_path + ": " + s.error().message);
  }
  for (const ComparisonWarning& w : warnings) warn(w);
  if (nights.size() >= request.night.min_nights) {
    auto judged = CompareNights(nights, candidate, thresholds.value(), request.night);
    if (!judged.ok()) return judged.error();
    const std::vector<std::string> suspects = ModelsToMeasureAgain(judged->comparison);
    if (request.confirm && !suspects.empty()) {
      // One night is one draw of the machine: before failing, or leaving a
      // row undecided on the slower side, measure those models once more
      // in fresh processes; a spike of interference rarely hits both runs,
      // a code change always does.
      SuiteConfig again = config.value();
      again.model_filter = suspects;
      again.output_dir = ResolvedOutputDir(config.value()) + "/confirm";
      auto rerun = RunNight(again, request.sessions, run_suite, request.run_session, " again");
      if (!rerun.ok()) return rerun.error();
      if (rerun->interrupted) {
        GateOutcome stopped;
        stopped.interrupted = true;
        stopped.results_path = rerun->stopped_path;
        stopped.config = std::move(config).value();
        return stopped;
      }
      const MetricSet& confirmation = rerun->metrics;
      judged = CompareNights(nights, candidate, thresholds.value(), request.night, &confirmation);
      if (!judged.ok()) return judged.error();
      outcome.confirmation_models = again.model_filter;
      outcome.confirmation_path = rerun->first.results_path;
      AddConfirmation(&outcome, confirmation);
    }
    outcome.night_model = true;
    outcome.recent_nights = judged->recent_nights;
    outcome.look_nights = judged->nights;
    outcome.machine_level = judged->machine_level;
    outcome.comparison = std::move(judged->comparison);
  } else {
    auto comparison = Compare(outcome.baseline, candidate, thresholds.value());
    if (!comparison.ok()) return comparison.error();
    outcome.comparison = std::move(comparison).value();
  }
  if (Status s = ConfirmChangePoints(request, config.value(), run_suite, &outcome); !s.ok()) {
    return s.error();
  }
  outcome.title = config->suite + ": " + outcome.baseline_path + " → " + outcome.results_path;
  outcome.baseline_machine = MachineOf(outcome.baseline);
  outcome.machine = MachineOf(candidate);
  outcome.advisory =
      request.advisory_on_other_machine && outcome.baseline_machine != outcome.machine;
  outcome.config = std::move(config).value();
  return outcome;
}

}  // namespace etbench::harness
