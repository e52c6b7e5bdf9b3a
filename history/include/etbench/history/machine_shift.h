#pragma once
// The machine's level per run (the common mode of every time metric), its
// shifts, and their removal from each metric before per-metric detection.
//
// A machine shift (a VM neighbour, a frequency or cache state, another
// job's compile ending) moves every operator of a run together for a
// while; a code change moves a few. Per run, the median over the time
// metrics of the log ratio of the run's value to the metric's median over
// the window is the machine's level in that run: a change of a few
// operators barely moves the median, a machine shift moves all of it.
// Dividing each metric by exp(level) leaves what the machine does not
// explain; the level series gets its own change points, reported apart as
// machine shifts. A code change that slows every operator at once is, in
// these numbers, the same thing as a machine shift: ClassifyMachineShifts
// flags the shifts that could be one (docs/history.md, "Machine shifts").

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "etbench/history/history_store.h"

namespace etbench::history {

/// One metric's per-run statistics and the window positions of their runs.
struct RunSeries {
  std::vector<double> values;
  std::vector<std::size_t> run_index;
};

/// Fewer metrics in a run than this and the run has no level: with a
/// handful of metrics a code change of one is already a large share of
/// them, and the median would follow it.
inline constexpr std::size_t kMinLevelMetrics = 8;

/// Per window position in [0, run_count): the median over `series` (time
/// metrics, positive values) of log(value / the metric's median), or NaN
/// where fewer than `min_metrics` metrics have a value.
std::vector<double> MachineLevel(const std::vector<const RunSeries*>& series,
                                 std::size_t run_count,
                                 std::size_t min_metrics = kMinLevelMetrics);

/// Divides each value by exp(level of its run) (runs without a level stay).
void RemoveMachineLevel(const std::vector<double>& level, RunSeries* series);

/// A change point of the machine's level.
struct MachineShift {
  /// ChangePointId("machine", run id of the first run of the new level).
  std::string id;
  std::size_t index = 0;  // first run of the new level, in the window's runs
  std::string commit_before;
  std::string commit_after;
  std::string time_after;
  std::size_t runs_before = 0;
  std::size_t runs_after = 0;
  /// exp(median level after − median level before) − 1, with a 95%
  /// bootstrap interval: how much slower (+) every operator got.
  double change = 0;
  double change_low = 0;
  double change_high = 0;
  double p_value = 1;
  /// The new level lasts to the newest run of the window.
  bool persists = false;
  /// Slower, persisting to the newest run, the commit changed across it,
  /// and a level this window has not seen before: a machine shift or a
  /// code change that slowed every operator — the numbers cannot tell, so
  /// it counts as a regression until acknowledged.
  bool possible_code_change = false;
  /// Counts as a regression: possible_code_change, or any slower shift when
  /// DetectOptions::machine_shifts_are_regressions (set by detection).
  bool regression = false;
  bool acknowledged = false;
};

struct MachineShiftOptions {
  double alpha = 0.01;           // significance of one level change point
  std::size_t min_segment = 3;   // runs each side at least
  double min_change = 0.01;      // smaller level changes are ignored
  std::size_t ack_within = 2;    // as DetectOptions::ack_within
  uint64_t seed = 1;
};

/// Change points of `level` (NaN positions skipped), classified against
/// the window's runs; `acknowledged` marks shifts by id.
std::vector<MachineShift> FindMachineShifts(const std::vector<double>& level,
                                            const std::vector<RunSummary>& runs,
                                            const MachineShiftOptions& options,
                                            const std::set<std::string>& acknowledged);

}  // namespace etbench::history
