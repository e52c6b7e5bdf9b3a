#pragma once
// The suite configuration: one typed struct, loaded from YAML
// (configs/README.md documents every key) and overridden by CLI flags.
//
// Contract: a SuiteConfig returned by LoadSuiteConfig / ParseSuiteConfig is
// valid (every required key present, every referenced file exists, every
// command template only uses known placeholders). ApplyOverrides keeps it
// valid or returns an error naming the flag.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "etbench/base/disk.h"
#include "etbench/base/result.h"

namespace etbench::harness {

enum class RunnerKind {
  kBuiltin,  // the reference runtime, in-process
  kCommand,  // any external program writing an ETDump
  kGbench,   // a Google Benchmark binary
};

/// "builtin", "command", "gbench".
std::string_view RunnerKindName(RunnerKind kind);
/// Parses a runner name; the error lists the accepted names.
Result<RunnerKind> ParseRunnerKind(std::string_view name);

/// One entry of `models:`. For gbench suites a "model" is a benchmark binary.
struct ModelSpec {
  std::string name;
  /// builtin/command: the model file; gbench: the benchmark binary. Relative
  /// paths are relative to the working directory of `etbench run`.
  std::string path;
  /// command: spliced where the template has `{args}`; gbench: appended.
  std::vector<std::string> args;
  /// builtin: regression injection, "OP=FACTOR" (et_runner's --slowdown).
  std::vector<std::string> slowdown;
  /// builtin: overrides the model's seed.
  std::optional<uint64_t> seed;
  /// Optional ETRecord: op types and module paths of the events.
  std::string etrecord_path;
  /// gbench: --benchmark_filter.
  std::string filter;
  /// "file:line:column" of the entry, for messages.
  std::string position;
  /// Executions per repetition for this model (unset: the suite's); set by
  /// time sizing (time_sizing.h), not by suite files.
  std::optional<int> warmup;
  std::optional<int> iterations;
};

/// How external programs run (command and gbench runners).
struct ProcessOptions {
  /// Added to (or replacing in) the inherited environment.
  std::map<std::string, std::string> env;
  /// Working directory of the program ("" = that of etbench).
  std::string working_dir;
  /// Seconds before the program's process group gets SIGTERM (0 = never).
  double timeout_s = 600;
  /// Seconds between SIGTERM and SIGKILL.
  double kill_grace_s = 2;
};

struct CommandOptions {
  /// argv template; placeholders: {model} {name} {etdump} {debug_output}
  /// {workdir} {iterations} {warmup} {repetition} {time_source}, and {args}
  /// as a whole element. "{{" and "}}" are literal braces.
  std::vector<std::string> argv;
  ProcessOptions process;
};

struct GbenchOptions {
  /// Appended to every benchmark binary's command line.
  std::vector<std::string> args;
  /// "real_time" or "cpu_time": which time becomes the samples.
  std::string metric = "real_time";
  /// --benchmark_min_time in seconds (0 = the binary's default).
  double min_time_s = 0;
  ProcessOptions process;
};

struct BuiltinOptions {
  /// Allocation events in every block (allocations in the results).
  bool log_allocations = false;
};

/// --shard i/n: this machine runs the models whose position p in the
/// (filtered) suite has p % count == index - 1.
struct Shard {
  int index = 1;  // 1-based
  int count = 1;
};

/// Parses "i/n" with 1 <= i <= n.
Result<Shard> ParseShard(std::string_view text);

/// Checks a builtin slowdown "OP=FACTOR" (FACTOR >= 1).
Status CheckSlowdownSpec(const std::string& spec);

/// Errors (usage) when a CPU of `cpus` is not one this process may run on
/// ("cpu_affinity: CPU 999 is not available (this process may use 0-3)"):
/// pinning would fail at run time, model after model.
Status CheckCpuAffinity(const std::vector<int>& cpus);

struct SuiteConfig {
  /// The YAML file it came from ("" when built in code).
  std::string source_path;
  std::string suite;
  RunnerKind runner = RunnerKind::kBuiltin;
  /// "ns" or "cycles": the tick source of the ETDump timestamps.
  std::string time_source = "ns";
  /// Tick rate for `cycles` when the runner writes no metadata sidecar.
  std::optional<double> tick_rate_hz;
  /// Unit of every time sample in the results: ns, us, ms, s or cycles.
  std::string unit = "ms";
  int warmup = 3;
  /// Few iterations in many repetitions: samples of one repetition vary
  /// together, so repetitions carry the information (design_effect.h).
  int iterations = 10;
  int repetitions = 6;
  /// Time-sized interleaved comparisons (ab, gate --base; time_sizing.h):
  /// measured and warm-up seconds per model and run, and the total budget
  /// in seconds. Unset: the command's defaults.
  std::optional<double> min_time_s;
  std::optional<double> warmup_time_s;
  std::optional<double> budget_s;
  /// CPUs the model runs on (empty = no pinning).
  std::vector<int> cpu_affinity;
  std::vector<ModelSpec> models;
  /// Optional thresholds file for the comparison (checked to exist).
  std::string thresholds_path;
  /// Where results and ETDumps go; "{suite}" is replaced by the suite name.
  std::string output_dir = "results/{suite}";
  /// device, branch, commit and free-form labels (device/branch/commit are
  /// taken from the environment or git when absent).
  std::map<std::string, std::string> labels;
  BuiltinOptions builtin;
  CommandOptions command;
  bool has_command = false;  // a `command:` section was given
  GbenchOptions gbench;
  bool has_gbench = false;  // a `gbench:` section was given

  // Selection and presentation (CLI; not part of the config hash).
  std::vector<std::string> model_filter;  // run only these models
  std::optional<Shard> shard;
  bool quiet = false;
};

/// How a suite file is checked.
struct SuiteLoadOptions {
  /// The command runner's program (command.argv[0]) must be found (in
  /// PATH, or at its path). false: the caller replaces or checks it
  /// (`etbench ab --a program=…`), so the suite's own need not exist.
  bool check_program = true;
};

/// Reads (through `disk`) and validates a suite file. Errors:
/// "path:line:column: message".
Result<SuiteConfig> LoadSuiteConfig(const std::string& path, const SuiteLoadOptions& options = {},
                                    Disk& disk = DefaultDisk());

/// Same, from YAML text; `source_path` names it in messages and anchors the
/// `models/` lookup of model shorthands ("toy_cnn" → <dir>/models/toy_cnn.yaml).
Result<SuiteConfig> ParseSuiteConfig(const std::string& yaml, const std::string& source_path,
                                     const SuiteLoadOptions& options = {});

/// CLI flags that override the suite file.
struct ConfigOverrides {
  std::optional<int> iterations;
  std::optional<int> warmup;
  std::optional<int> repetitions;
  std::optional<std::string> runner;
  std::optional<std::string> time_source;
  std::optional<std::string> output_dir;
  std::optional<std::string> shard;  // "i/n"
  std::vector<std::string> models;   // --model NAME (repeatable)
  std::vector<std::string> labels;   // --label k=v (repeatable)
  bool quiet = false;
};

/// Applies the flags; errors name the flag ("--shard: ...").
Status ApplyOverrides(const ConfigOverrides& overrides, SuiteConfig* config);

/// SHA-256 (hex) of everything that affects the measurements: runner,
/// options, counts, models. Not: output_dir, labels, selection, shard.
/// Shards of one suite share it, so `etbench merge` can check them.
std::string ConfigHash(const SuiteConfig& config);

/// The models this invocation runs, in suite order: --model filter, then
/// the shard. Errors: a --model name the suite does not have.
Result<std::vector<std::size_t>> SelectModels(const SuiteConfig& config);

/// The suite's model names, "a, b, c" (for messages).
std::string JoinModelNames(const SuiteConfig& config);

/// output_dir with "{suite}" replaced.
std::string ResolvedOutputDir(const SuiteConfig& config);

}  // namespace etbench::harness
