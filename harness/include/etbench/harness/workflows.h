#pragma once
// The workflows behind `etbench run`, `gate` and `ab` as library functions:
// everything between parsed flags and rendered output (config, overrides,
// thresholds, running, metrics, baseline lookup and checks, comparison,
// the advisory policy). Every outside effect goes through `RunDeps`
// (process runner, clock, environment, progress, Ctrl-C flag, or a runner
// double), so callers and tests choose real or fake dependencies. `run` and
// `gate` take them as a SuiteRunFn: the dependencies of a run (a progress
// bar, Ctrl-C caught) then exist only while the suite runs.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "etbench/harness/ab.h"
#include "etbench/compare/comparison.h"
#include "etbench/harness/config.h"
#include "etbench/compare/metrics.h"
#include "etbench/compare/night_gate.h"
#include "etbench/harness/orchestrator.h"
#include "etbench/compare/thresholds.h"
#include "etbench/base/disk.h"
#include "etbench/base/result.h"

namespace etbench::harness {

/// The thresholds file at `path` (read through `disk`), or the built-in
/// defaults when empty.
Result<Thresholds> LoadThresholdsOrDefault(const std::string& path, Disk& disk = DefaultDisk());

/// The suite file at `config_path` (read through `disk`) with `overrides`
/// applied. Errors: the config's or the override's one line.
Result<SuiteConfig> LoadSuite(const std::string& config_path, const ConfigOverrides& overrides,
                              Disk& disk = DefaultDisk());

/// Runs one loaded suite: RunSuite with the caller's dependencies.
using SuiteRunFn = std::function<Result<SuiteRunOutput>(const SuiteConfig& config)>;

/// RunSuite with `deps` (which must outlive the function).
SuiteRunFn RunSuiteWith(const RunDeps& deps);

/// Called with each warning when it arises, as data (the caller words it:
/// etbench::reports::WarningText).
using WarningSink = std::function<void(const ComparisonWarning& warning)>;

// ---- run -------------------------------------------------------------------

struct RunOutcome {
  SuiteConfig config;  // as run (overrides applied)
  SuiteRunOutput run;
};

/// `etbench run`: loads the suite, applies `overrides` and runs it.
/// Errors (exit 2): config, overrides, RunSuite's errors. Failed models are
/// in the results, not errors. The suite file is read through `disk`.
Result<RunOutcome> Run(const std::string& config_path, const ConfigOverrides& overrides,
                       const SuiteRunFn& run_suite, Disk& disk = DefaultDisk());

// ---- gate ------------------------------------------------------------------

/// A baseline that does not come from a file (`gate --baseline history`).
struct ProvidedBaseline {
  MetricSet metrics;
  std::string label;  // what the title and errors call it
  /// The runs `metrics` was merged from, oldest first, one MetricSet each:
  /// the nights the gate judges tonight against (night_gate.h). Empty:
  /// `metrics` is compared as one baseline; fewer than the model needs:
  /// the gate says so and passes.
  std::vector<MetricSet> nights;
};

/// Called with the run's metrics and the thresholds the gate will judge them
/// with; returns the baseline, or nullopt when there is none yet for this
/// candidate (the gate then compares nothing).
using BaselineSource = std::function<Result<std::optional<ProvidedBaseline>>(
    const MetricSet& candidate, const Thresholds& thresholds)>;

/// Called once with the finished run (all models ran), before comparing,
/// whatever the verdict will be (e.g. appending it to a history).
/// `run`: the night's first session; `night`: every session's metrics
/// (MergeMetricSets: each session's repetitions kept apart), what the
/// history records as the night.
using RunSink = std::function<Status(const SuiteRunOutput& run, const MetricSet& night)>;

/// The models of the regression change points that tonight's run (already
/// in the history: GateRequest::on_run) confirms, each metric
/// `confirmation` measured judged by the faster of the two runs (null: the
/// run alone; history::RegressionsConfirmedTonight).
using ChangePointModels = std::function<Result<std::vector<std::string>>(
    const MetricSet& candidate, const MetricSet* confirmation)>;

struct GateRequest {
  std::string config_path;
  ConfigOverrides overrides;  // `quiet` is forced: the comparison is the output
  /// "" = <root>/baselines/<device>/<suite>.json of the run's device and suite.
  std::string baseline_path;
  std::string root = ".";
  /// "" = the suite's thresholds file, or the built-in rules.
  std::string thresholds_path;
  /// A baseline from another machine (host or boot) makes the verdicts
  /// advice instead of failing (`--other-machine advisory`).
  bool advisory_on_other_machine = false;
  /// Set: the baseline comes from here instead of `baseline_path`.
  BaselineSource baseline_source;
  /// Set: sees the run before the comparison (its error is the gate's).
  RunSink on_run;
  /// Set: called once the suite, thresholds and a named baseline file are
  /// read and checked, before any model runs (e.g. checking that a history
  /// can take the run); its error is the gate's and nothing runs.
  std::function<Status()> before_run;
  /// How the nightly model judges (every part, machine level).
  NightGateOptions night;
  /// Against nights: when the first judgement finds a regression, run the
  /// suspect models once more (fresh processes, output under
  /// <output_dir>/confirm) and judge each metric by the faster of the two
  /// runs before failing.
  bool confirm = true;
  /// Set (a gate against history): with `confirm`, a model whose change
  /// point tonight's run confirms is measured again too when no
  /// confirmation run measured it yet (output under
  /// <output_dir>/confirm-change-points), so that a change point fails the
  /// night only as a first-night alert does: with the faster of two runs.
  ChangePointModels change_point_models;
  /// Sessions a night samples (≥ 1): the suite is run this many times, one
  /// after the other (models interleaved), each by `run_session` when set
  /// (a fresh process), and each metric's night value is taken over its
  /// sessions (NightValue: a time's lower decile). Sessions 2.. write
  /// under <output_dir>/sessions/sK; a confirmation runs this many
  /// sessions of the suspect models.
  std::size_t sessions = 1;
  SuiteRunFn run_session;
};

struct GateOutcome {
  SuiteConfig config;
  std::string results_path;
  /// Ctrl-C or SIGTERM stopped the run: no baseline, no comparison.
  bool interrupted = false;
  std::string baseline_path;
  MetricSet baseline;
  MetricSet candidate;
  /// The baseline source had none for this candidate: nothing was compared
  /// (`comparison` is empty) and the gate passes.
  bool no_baseline_yet = false;
  Comparison comparison;
  /// "<suite>: <baseline> → <results>".
  std::string title;
  /// "host 'h', boot 01234567" of each side: equal when they ran on one
  /// machine instance.
  std::string baseline_machine;
  std::string machine;
  /// The verdicts are advice: advisory requested and the machines differ.
  bool advisory = false;
  /// The baseline's nights (runs) when it has several: a history, or a
  /// baseline merged from several results files. With at least
  /// NightGateOptions::min_nights the comparison is the nightly model's
  /// (CompareNights: the night is the unit); a history with fewer is
  /// `nights_too_short` (nothing compared, the gate passes); a merged file
  /// with fewer is compared by Compare, as one baseline.
  std::size_t nights = 0;
  /// With night_model, the look that decided (NightGate::recent_nights):
  /// 1 = tonight against all `nights`; n ≥ 2 = a sustained step, tonight
  /// and the n − 1 nights before it against the `look_nights` before them.
  std::size_t recent_nights = 1;
  std::size_t look_nights = 0;
  bool night_model = false;
  bool nights_too_short = false;
  double machine_level = 0;  // tonight's, when night_model
  /// The models a confirmation run measured again (empty: none ran), and
  /// its results file.
  std::vector<std::string> confirmation_models;
  std::string confirmation_path;
  /// The models measured again for a change point tonight's run confirmed
  /// (GateRequest::change_point_models), and that run's results file.
  std::vector<std::string> change_point_models;
  std::string change_point_path;
  /// Every metric the confirmation runs measured tonight (none ran: null),
  /// for history::RegressionsConfirmedTonight.
  std::optional<MetricSet> confirmation;
};

/// Where sessions 2.. of a night whose first session writes to
/// `output_dir` write their results: <output_dir>/sessions (session K under
/// sK).
std::string SessionsDir(const std::string& output_dir);

/// `etbench gate`: runs the suite, loads its baseline, checks that it fits
/// (another suite or time source is an error; another device or tick rate a
/// warning, sent to `warn` before comparing) and compares: against its
/// nights (CompareNights) when the baseline has enough of them, else as one
/// baseline (Compare). Errors (exit 2):
/// config, thresholds, a named baseline file that cannot be read or is no
/// baseline, results or Google Benchmark file (these three, and
/// `before_run`, before any model runs, so nothing is written), the run, a
/// model that did not run (names the results file), a missing (the default
/// path) or unfitting baseline, the comparison. The suite,
/// thresholds and baseline files are read through `disk`.
Result<GateOutcome> Gate(const GateRequest& request, const SuiteRunFn& run_suite,
                         const WarningSink& warn, Disk& disk = DefaultDisk());

// ---- ab --------------------------------------------------------------------

struct AbRequest {
  std::string config_path;
  std::vector<std::string> a_settings, b_settings;  // KEY=VALUE (see ab.h)
  ConfigOverrides overrides;                         // model, iterations, warmup, labels
  /// Exactly this many ABBA blocks; 0 = sequential (until every gated
  /// metric is decided or the budget is spent).
  int blocks = 0;
  uint64_t seed = 0;
  /// Explicit values (flags) win over the suite's keys (budget_s,
  /// min_time_s, warmup_time_s), which win over the defaults
  /// (DefaultAbBudget, kAbDefault*).
  std::optional<double> budget_s, min_time_s, warmup_time_s;
  /// --iterations without --min-time: the suite's counts, no time sizing.
  bool iterations_only = false;
  /// "" = <suite output_dir>/ab.
  std::string output_dir;
  /// "" = variant A's thresholds file, or the built-in rules.
  std::string thresholds_path;
  /// The verdicts are advice (exit 0; reports say so first).
  bool advisory = false;
  /// Keep every run's ETDump (AbPlan::keep_etdumps).
  bool keep_etdumps = false;
  /// Keep every run's directory (AbPlan::keep_runs).
  bool keep_runs = false;
  /// Randomise each run's layout: program copies and stack padding
  /// (AbPlan::layout; --no-layout-randomization turns it off).
  bool layout_randomization = true;
};

/// The default budget is per selected model: a block runs every model, so
/// its time grows with the models, and each model needs as many blocks
/// as a one-model comparison to decide (docs/comparison.md, "Budget").
inline constexpr double kAbDefaultBudgetPerModelS = 60;
inline constexpr double kAbDefaultMinTimeS = 0.2;
inline constexpr double kAbDefaultWarmupTimeS = 0.05;

/// The budget when neither --budget nor the suite's budget_s is given:
/// kAbDefaultBudgetPerModelS times the models this invocation runs
/// (SelectModels: --model filter and shard; at least one).
double DefaultAbBudget(const SuiteConfig& config);

struct AbOutcome {
  SuiteConfig a_config;
  AbPlan plan;  // as run: output directory and descriptions resolved
  AbRunOutput run;
  /// Empty when the run was interrupted.
  std::optional<Comparison> comparison;
  /// "<suite>: A: … → B: …".
  std::string title;
};

/// Called once the variants and thresholds are valid, before the first run,
/// with the plan and its order (so a caller can show what will run).
using AbStartSink = std::function<void(const AbPlan& plan, const std::vector<AbVariant>& order)>;

/// `etbench ab`: loads both variants ("--a"/"--b" name them in errors) and
/// the thresholds, sizes the runs by time, runs ABBA blocks (a fixed number,
/// or sequentially until decided within the budget) and compares B with A
/// block by block unless interrupted. Errors (exit 2): bad settings,
/// thresholds or budget/time values, RunAb's errors (a failed model names
/// its run).
Result<AbOutcome> Ab(const AbRequest& request, const RunDeps& deps, const AbStartSink& on_start);

// ---- baseline save / update ------------------------------------------------

struct BaselineSaveRequest {
  /// Results or baseline files, merged in order (save); empty for update.
  std::vector<std::string> inputs;
  /// "" = <root>/baselines/<device>/<suite>.json of the (merged) metrics.
  std::string path;
  std::string name;  // "" = the suite
  std::string root = ".";
  bool force = false;  // overwrite an existing baseline
};

struct SavedBaseline {
  std::string path;
  std::size_t metric_count = 0;
  std::vector<std::string> inputs;  // the files it was made from
};

/// `etbench baseline save`: the metric sets of `inputs` merged (samples and
/// repetition groups concatenated in order) stored as a baseline. Errors:
/// unreadable inputs, inputs of another suite, time source or unit (names
/// both files), an existing baseline without `force`, a failed write.
/// Reads and writes through `disk`.
Result<SavedBaseline> SaveBaselineFromResults(const BaselineSaveRequest& request,
                                              Disk& disk = DefaultDisk());

/// `etbench baseline update CONFIG`: the suite's latest results (its
/// results file under its output directory) become its baseline,
/// overwriting the old one.
Result<SavedBaseline> UpdateBaseline(const std::string& config_path,
                                     const BaselineSaveRequest& request,
                                     Disk& disk = DefaultDisk());

/// "A: the suite as it is", or "B: program=x, arg=y".
std::string DescribeAbVariant(const char* letter, const std::vector<std::string>& settings);

}  // namespace etbench::harness
