#pragma once
// Runs sized by time, not count (like Google Benchmark's min_time): one
// calibration run measures each model's time per execution, and every
// later run executes each model long enough to measure at least
// `min_time_s` after at least `warmup_time_s` of warm-up. A 0.4 ms model
// then runs ~600 times per 0.25 s run instead of 10, so each run's median
// is stable and the block-to-block noise, not the sample count, limits
// what a comparison can see.

#include <map>
#include <string>
#include <vector>

#include "etbench/harness/config.h"
#include "etbench/results/results.h"

namespace etbench::harness {

struct TimeSize {
  int warmup = 0;
  int iterations = 0;
  double execution_s = 0;  // measured seconds per execution
};

/// Per model of the calibration runs (their mean time per execution: the
/// median Method::execute when it is in a time unit, else the model's wall
/// time over its executions): iterations = ⌈min_time_s / t⌉ and warmup =
/// ⌈warmup_time_s / t⌉, never below the suite's counts, iterations at most
/// 10⁶. Models without a usable time keep the suite's counts.
std::map<std::string, TimeSize> SizeByTime(const std::vector<results::RunResults>& calibration,
                                           const SuiteConfig& config, double min_time_s,
                                           double warmup_time_s);

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
