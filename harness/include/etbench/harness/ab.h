#pragma once
// Local before/after comparisons (`etbench ab CONFIG --a … --b …`): two
// variants of one suite, described as settings on top of the suite file,
// run interleaved in randomised ABBA blocks on the same machine so that
// drift and thermal effects hit both alike.
//
// A variant setting is KEY=VALUE:
//   config=FILE        the variant's own suite file (instead of CONFIG)
//   program=PATH       command runner: the program, argv[0] (two builds)
//   command=ARGV       command runner: the whole argv template, split on
//                      spaces ('…' and "…" quote)
//   model=PATH         the model file of the suite's only (selected) model
//   model.NAME=PATH    the model file (gbench: binary) of model NAME
//   arg=VALUE          appended to every model's args (repeatable)
//   env.NAME=VALUE     environment of the command/gbench programs
//   slowdown=OP=FACTOR builtin runner: slow OP down (every model)
//   runner=KIND        builtin or command
// `config=` is applied first, the others in order.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "etbench/base/result.h"
#include "etbench/compare/ab_schedule.h"
#include "etbench/compare/metrics.h"
#include "etbench/compare/comparison.h"
#include "etbench/compare/sequential.h"
#include "etbench/harness/ab_layout.h"
#include "etbench/harness/config.h"
#include "etbench/harness/orchestrator.h"

namespace etbench::harness {

/// The keys a variant setting accepts, for help texts and errors.
inline constexpr const char* kAbSettingKeys =
    "config, program, command, model, model.NAME, arg, env.NAME, slowdown, runner";

/// Applies one setting other than `config=` to `config`, keeping
/// SuiteConfig's contract (files named exist, programs are executable).
/// Errors say what is wrong with the value, without the flag.
Status ApplyAbSetting(const std::string& setting, SuiteConfig* config);

/// One variant: the suite file (`config_path`, or the `config=` setting),
/// then the other settings in order, then the CLI `overrides` (model
/// selection, iterations, labels). Errors name the flag and setting:
/// "--b model=x.pte: x.pte: no such file". The suite file is read through
/// `disk`.
Result<SuiteConfig> LoadAbVariant(const std::string& config_path,
                                  const std::vector<std::string>& settings,
                                  const ConfigOverrides& overrides, const std::string& flag,
                                  Disk& disk = DefaultDisk());

/// Splits a command line on unquoted spaces; '…' and "…" group (no escapes
/// inside '…'; \" and \\ inside "…"). Errors: an unterminated quote.
Result<std::vector<std::string>> SplitCommandLine(const std::string& text);

struct AbPlan {
  /// ABBA blocks: each variant runs 2·blocks times (one repetition each).
  /// 0: sequential — blocks are added until every gated metric is decided
  /// or the budget is spent (needs `thresholds`).
  int blocks = 0;
  uint64_t seed = 1;
  /// Every run's results go to <output_dir>/NN-a|b/, the merged sides to
  /// <output_dir>/a.json and b.json (baseline files).
  std::string output_dir;
  /// What each variant is ("A: program=build-main/executor_runner"): the
  /// merged side's baseline name and its `ab_variant` context.
  std::string a_description = "A";
  std::string b_description = "B";
  /// Wall-clock seconds for everything (calibration and blocks); no block
  /// starts that would not end within it (sequential mode).
  double budget_s = 60;
  /// At most this many blocks in sequential mode; 0: as many as keep the
  /// output directory within `disk_budget_bytes` (at least 20, at most
  /// 1000; 100 without calibration), estimated from the calibration runs'
  /// results files, then lowered from the first block's, whose runs are
  /// sized as all the later ones (calibration runs hold a few executions,
  /// sized runs hundreds: their files are several times larger). Cheap runs
  /// then spend the time budget, not a fixed block count.
  int max_blocks = 0;
  double disk_budget_bytes = 80e6;
  /// Time sizing (time_sizing.h): measured seconds and warm-up seconds per
  /// model and run; 0 keeps the suite's iteration counts.
  double min_time_s = 0;
  double warmup_time_s = 0;
  /// Keep every run's ETDump (and debug buffer). By default a run's
  /// ETDumps are removed once its numbers are in its results file: they
  /// are what the comparison reads, and the ETDumps of a few hundred runs
  /// would fill the disk.
  bool keep_etdumps = false;
  /// Keep every run's directory (<output_dir>/NN-a|b/, its results file).
  /// By default a run's directory is removed once its numbers were read
  /// back: the merged sides a.json and b.json hold every sample again, and
  /// a few hundred runs' copies would double the disk used.
  bool keep_runs = false;
  /// Layout randomisation for external runners (ab_layout.h): every run
  /// starts its side's program from one of K byte copies, made in
  /// <output_dir>/.etbench-run-PID/ and removed at the end, with a
  /// padding variable of random length; seeded by `seed`.
  AbLayoutOptions layout;
  /// When set, the sides are compared block by block (sequential.h) and
  /// the result is in AbRunOutput::comparison.
  const Thresholds* thresholds = nullptr;
};

/// Where a block's wall time went, in seconds per block (averaged over
/// the runs of the comparison, calibration excluded): what the harness
/// itself costs around the models' executions.
struct AbOverhead {
  double block_s = 0;    // the whole block
  double execute_s = 0;  // the models' executions (warm-up included), estimated from calibration
  double process_s = 0;  // the rest of the runner's processes: start, model load, ETDump write
  double etdump_s = 0;   // reading and processing the ETDumps
  double results_s = 0;  // results files, staging, removing ETDumps
  double looks_s = 0;    // merging the runs and comparing at the looks
};

struct AbRunOutput {
  std::vector<AbVariant> order;
  MetricSet a, b;
  std::string a_path, b_path;  // the merged sides, as baseline files
  /// Each run's results file, in the order run (removed once read, unless
  /// AbPlan::keep_runs; a run that failed or was interrupted keeps its
  /// directory), and its size in bytes.
  std::vector<std::string> run_paths;
  std::vector<double> run_bytes;
  /// Ctrl-C: the runs done so far are on disk, nothing was merged.
  bool interrupted = false;
  /// Blocks run, blocks dropped for interference, seconds spent, and
  /// whether the budget ended the runs (sequential mode).
  std::size_t blocks = 0;
  std::size_t dropped_blocks = 0;
  double seconds = 0;
  bool budget_spent = false;
  /// The block limit (AbPlan::max_blocks, or the disk budget's) ended the
  /// runs with time left, before every metric was decided; `max_blocks`
  /// is that limit.
  bool block_limit = false;
  int max_blocks = 0;
  /// Models stopped early (sequential mode): every gated metric of theirs
  /// was decided at a look before the end, after these blocks and seconds;
  /// later runs left them out.
  std::map<std::string, Decision> stopped_models;
  /// Executions per run of each model after time sizing (empty without),
  /// and what capped them (model → "samples" or "etdump"; absent: min_time).
  std::map<std::string, int> iterations, warmup;
  std::map<std::string, std::string> capped_by;
  /// What min_time alone would have run (only for capped models).
  std::map<std::string, int> time_iterations;
  AbOverhead overhead;
  /// ETDumps (and debug buffers) removed after their runs were read, and
  /// their bytes (0 with keep_etdumps).
  std::size_t etdumps_removed = 0;
  double etdump_bytes_removed = 0;
  /// What layout randomisation did (AbLayout::Describe); empty when it was
  /// off or no side runs an external program.
  std::string layout;
  /// The paired comparison (when the plan has thresholds).
  std::optional<Comparison> comparison;
};

/// Runs ABBA blocks: before every run the variant's config gets
/// repetitions = 1, quiet, and its own output directory; with time sizing
/// one calibration run of each variant first (not compared). Fixed mode
/// runs `blocks` blocks; sequential mode looks at LookSchedule's block
/// counts and stops when AllDecided or the budget is spent; a model whose
/// every gated metric is decided at an earlier look is left out of the
/// later runs (AbSequence). Errors: a model
/// that failed (names the run's results file), an unwritable output, a
/// sequential plan without thresholds.
Result<AbRunOutput> RunAb(const SuiteConfig& a, const SuiteConfig& b, const AbPlan& plan,
                          const RunDeps& deps);

}  // namespace etbench::harness
