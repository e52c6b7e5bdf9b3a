#pragma once
// Runs sized by time, not count (like Google Benchmark's min_time), and
// capped by what the decision needs: one calibration run of each variant
// measures each model's time per execution, its spread and its ETDump bytes
// per execution; every later run executes each model long enough to
// measure `min_time_s` after `warmup_time_s` of warm-up, but never more
// executions than make the run's median stable (a relative standard error
// of `median_precision`) and never an ETDump above `max_etdump_bytes`. A
// 0.4 ms model then runs ~500 times per run instead of 10; a 1 µs model
// runs 200–500 times instead of 200,000 (whose 80 MB ETDump cost ten seconds
// to write and read per run): the rest of the budget goes into more blocks,
// which is what the block test draws its power from (docs/comparison.md,
// "Time-sized runs").

#include <map>
#include <string>
#include <vector>

#include "etbench/harness/config.h"
#include "etbench/results/results.h"

namespace etbench::harness {

/// What one run of a model should measure.
struct TimeSizing {
  double min_time_s = 0;     // measured seconds per run (the upper bound)
  double warmup_time_s = 0;  // warm-up seconds per run (scaled with a cap)
  /// The run median's relative standard error to aim for: n executions give
  /// about 1.2533·σ/√n for samples of robust log spread σ.
  double median_precision = 0.005;
  /// Bounds of that sample count: a run's median never rests on fewer than
  /// `min_samples` (unless min_time asks for fewer) nor needs more than
  /// `max_samples` (past it the run-to-run spread, not the samples,
  /// limits what a comparison sees).
  int min_samples = 200;
  int max_samples = 500;
  /// Bytes of one run's ETDump (warm-up included: the runner records every
  /// execution) at most; 0: no cap.
  double max_etdump_bytes = 2.0 * 1024 * 1024;
};

struct TimeSize {
  int warmup = 0;
  int iterations = 0;
  double execution_s = 0;  // measured seconds per execution
  /// What min_time alone asked for, and what capped it ("" when nothing
  /// did; "samples": the median was stable; "etdump": the ETDump bytes).
  int time_iterations = 0;
  std::string capped_by;
  double etdump_bytes_per_execution = 0;  // 0 when unknown
};

/// Per model of the calibration runs (their mean time per execution: the
/// median Method::execute when it is in a time unit, else the model's wall
/// time over its executions): iterations = min(⌈min_time_s / t⌉, the
/// stable-median count, the ETDump cap) and warmup = ⌈warmup_time_s / t⌉
/// scaled down by the same factor, never below the suite's counts, at most
/// 10⁶. `etdump_bytes_per_execution` (EtdumpBytesPerExecution) by model;
/// models without a usable time keep the suite's counts.
std::map<std::string, TimeSize> SizeByTime(
    const std::vector<results::RunResults>& calibration, const SuiteConfig& config,
    const TimeSizing& sizing, const std::map<std::string, double>& etdump_bytes_per_execution = {});

/// Per model of a finished run whose results file is in `results_dir`: the
/// bytes of its ETDump files over the executions they recorded (models
/// without an ETDump file on disk are absent).
std::map<std::string, double> EtdumpBytesPerExecution(const results::RunResults& run,
                                                      const std::string& results_dir);

/// Whether etbench controls the executions per run, so that a calibration
/// run can size them: the builtin runner, and a command whose argv uses
/// {iterations}. (Google Benchmark sizes itself: ApplyTimeSizes passes it
/// min_time instead.)
bool CanSizeByTime(const SuiteConfig& config);

/// Sets each sized model's warmup and iterations in `config`; a gbench
/// suite without its own min_time gets `min_time_s` (Google Benchmark
/// sizes itself).
void ApplyTimeSizes(const std::map<std::string, TimeSize>& sizes, double min_time_s,
                    SuiteConfig* config);

}  // namespace etbench::harness
