#pragma once
// Runners: one interface, three implementations (builtin, command, gbench).
// Given a model and a repetition plan, a runner produces an ETDump (or
// Google Benchmark samples) and a status; the orchestrator does the rest
// (warm-up dropping, grouping, merging repetitions, results).

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "etbench/base/result.h"
#include "etbench/harness/config.h"
#include "etbench/harness/process.h"
#include "etbench/results/gbench_json.h"

namespace etbench::harness {

struct RepetitionPlan {
  int repetition = 0;  // 0-based
  int repetitions = 1;
  int warmup = 0;      // executions not counted
  int iterations = 1;  // executions counted
  /// Absolute; exists; this model's artifact directory.
  std::string workdir;
  /// Absolute paths where this repetition's files go.
  std::string etdump_path;
  std::string debug_output_path;
  /// Called after each execution with the number done in this repetition
  /// (runners that cannot tell call it once at the end, or never).
  std::function<void(int executions_done)> on_execution;
  /// Set on Ctrl-C/SIGTERM; in-process runners check it between executions
  /// and return !ok with `interrupted` (may be null).
  const std::atomic<bool>* cancel = nullptr;
};

/// One Google Benchmark measurement (read by results/gbench_json.h).
using results::BenchmarkSample;

struct RepetitionOutput {
  bool ok = true;
  bool interrupted = false;
  std::string error;  // one line when !ok
  /// Captured output of external programs.
  std::string stdout_text;
  std::string stderr_text;
  /// The ETDump when the runner holds it in memory (else read from
  /// plan.etdump_path).
  std::optional<std::vector<uint8_t>> etdump;
  bool has_etdump = true;         // false for gbench
  std::string metadata_path;      // sidecar written next to the ETDump
  std::string debug_output_path;  // when written
  /// Tick source and rate of the ETDump timestamps.
  std::string time_source = "ns";
  std::optional<double> tick_rate_hz;
  /// Tick source of each delegate's own events ("ns"/"cycles").
  std::vector<std::string> delegate_time_sources;
  /// Rate of a delegate's cycle counter when the run itself counts ns.
  std::optional<double> delegate_cycles_hz;
  /// Leading Execute runs that are warm-up; when set, the exact number of
  /// Execute runs the ETDump must hold.
  std::size_t warmup_runs = 0;
  std::optional<std::size_t> expected_execute_runs;
  /// Google Benchmark samples (gbench), or end-to-end times a program
  /// reported beside its ETDump (the ExecuTorch benchmark app's
  /// avg_inference_latency(ms), …): kept as the model's benchmarks.
  std::vector<BenchmarkSample> benchmarks;
  /// What the runner learnt about the device (the benchmark app's
  /// deviceInfo); added to the run's labels where the suite sets none.
  std::map<std::string, std::string> labels;
  double wall_ms = 0;
};

class Runner {
 public:
  virtual ~Runner() = default;
  virtual std::string Name() const = 0;
  /// What produced the numbers (tool version, program hash, library version).
  virtual std::string Version() const = 0;
  /// True when one Run call covers every repetition (Google Benchmark's
  /// --benchmark_repetitions); the plan then says repetition 0 of N.
  virtual bool RunsAllRepetitionsAtOnce() const { return false; }
  /// Checks every model of the run before any runs, so that configuration
  /// errors (a model file that does not parse, a slowdown of an unknown op
  /// or out of range) stop the run with exit code 2 up front instead of
  /// failing models one by one. Default: nothing to check.
  virtual Status Prepare(const std::vector<ModelSpec>& models) {
    (void)models;
    return Ok{};
  }
  /// Runs one repetition. Never throws; failures are !ok with an error.
  virtual RepetitionOutput Run(const ModelSpec& model, const RepetitionPlan& plan) = 0;
  /// A runner that knows the model's graph (the built-in runtime) writes the
  /// model's ETRecord into `workdir` and returns its path; called once per
  /// model without an `etrecord` of its own, before its repetitions. ""
  /// (the default): no ETRecord. Errors fail the model.
  virtual Result<std::string> WriteEtrecord(const ModelSpec& /*model*/,
                                            const std::string& /*workdir*/) {
    return std::string();
  }
};

struct RunnerDeps {
  ProcessRunner* process_runner = nullptr;    // command, gbench
  const std::atomic<bool>* cancel = nullptr;  // Ctrl-C
};

/// The runner the config names, made by the factory registered for its
/// kind. Errors: builtin without the runtime, a missing command/gbench
/// section.
Result<std::unique_ptr<Runner>> MakeRunner(const SuiteConfig& config, const RunnerDeps& deps);

/// Makes a runner of one kind.
using RunnerFactory =
    std::function<std::unique_ptr<Runner>(const SuiteConfig& config, const RunnerDeps& deps)>;

/// Registers (or replaces) the factory of `kind`. command and gbench are
/// registered from the start; builtin when etbench is built with the
/// reference runtime (the harness reaches the runtime only this way).
void RegisterRunner(RunnerKind kind, RunnerFactory factory);

std::unique_ptr<Runner> MakeCommandRunner(const SuiteConfig& config, const RunnerDeps& deps);
std::unique_ptr<Runner> MakeGbenchRunner(const SuiteConfig& config, const RunnerDeps& deps);
/// The registered builtin runner; nullptr when etbench was built without
/// the reference runtime.
std::unique_ptr<Runner> MakeBuiltinRunner(const SuiteConfig& config);

/// Placeholders a command template may use.
const std::vector<std::string>& CommandPlaceholders();

/// Checks a template: known placeholders only, balanced braces, {args}
/// only as a whole element. The error names the element.
Status CheckCommandTemplate(const std::vector<std::string>& argv);

/// Replaces placeholders with `values` (keys without braces); an element
/// that is exactly "{args}" becomes `args` (zero or more elements).
Result<std::vector<std::string>> ExpandCommandTemplate(
    const std::vector<std::string>& argv, const std::map<std::string, std::string>& values,
    const std::vector<std::string>& args);

/// Google Benchmark JSON → samples: one reader for the gbench runner and
/// Google Benchmark input files (results/gbench_json.h).
using results::ParseGbenchJson;

}  // namespace etbench::harness
