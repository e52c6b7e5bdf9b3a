#pragma once
// The machine's level per run: the common mode of every time metric.
//
// A machine state (a VM neighbour, a frequency or cache state, another
// job's compile) moves every operator of a run together; a code change
// moves a few. Per run, the median over the time metrics of the log ratio
// of the run's value to the metric's median is the machine's level in that
// run: a change of a few operators barely moves the median, the machine
// moves all of it. `history detect` (history/machine_shift.h) and the
// nightly gate (night_gate.h) both remove it; it lives here because history
// depends on compare, not the reverse.

#include <cstddef>
#include <optional>
#include <vector>

namespace etbench {

/// One metric's per-run statistics and the positions of their runs.
struct RunSeries {
  std::vector<double> values;
  std::vector<std::size_t> run_index;
};

/// Fewer metrics in a run than this and the run has no level: with a
/// handful of metrics a code change of one is already a large share of
/// them, and the median would follow it.
inline constexpr std::size_t kMinLevelMetrics = 8;

/// Per run position in [0, run_count): the median over `series` (time
/// metrics, positive values; a series needs 3 values to take part) of
/// log(value / the metric's median), or NaN where fewer than `min_metrics`
/// metrics have a value.
std::vector<double> MachineLevel(const std::vector<const RunSeries*>& series,
                                 std::size_t run_count,
                                 std::size_t min_metrics = kMinLevelMetrics);

/// Whether run `at`'s level lies within `k` robust standard deviations
/// (1.4826·MAD) of the median of the first `reference` runs' levels: no
/// machine shift, only the level's own noise. On a quiet machine a run's
/// level is the median of a few models' own process-to-process variation
/// (a fresh process lands in a faster or slower memory layout), so removing
/// it can add that noise to every other model — on the idle VM's recorded
/// nights it raised toy_cnn's night-to-night spread from 0.6% to 0.9%
/// (NightGateOptions::level_noise_sigmas).
/// False with fewer than 3 finite reference levels or a NaN at `at`.
inline constexpr double kLevelNoiseSigmas = 3;
bool WithinLevelNoise(const std::vector<double>& level, std::size_t reference, std::size_t at,
                      double k = kLevelNoiseSigmas);

/// How far run `at`'s level lies beyond that noise: |level[at] − the
/// median| − k robust SDs of the first `reference` runs' levels, at least 0;
/// none where WithinLevelNoise cannot say (fewer than 3 finite reference
/// levels, or a NaN at `at`).
std::optional<double> LevelBeyondNoise(const std::vector<double>& level, std::size_t reference,
                                       std::size_t at, double k = kLevelNoiseSigmas);

/// The median of `values` (non-empty; taken by value, reordered).
double MedianOf(std::vector<double> values);

}  // namespace etbench
