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

/// The median of `values` (non-empty; taken by value, reordered).
double MedianOf(std::vector<double> values);

}  // namespace etbench
