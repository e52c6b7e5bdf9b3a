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
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "etbench/compare/machine_level.h"
#include "etbench/history/history_store.h"
#include "etbench/results/history_view.h"

namespace etbench::history {

// RunSeries, kMinLevelMetrics and MachineLevel live in compare (the nightly
// gate removes the same level); named here as history's too.
using etbench::kMinLevelMetrics;
using etbench::MachineLevel;
using etbench::RunSeries;

/// How a metric's jump across a machine shift is measured.
struct JumpOptions {
  /// At most this many runs each side of the edge.
  std::size_t window = 60;
  /// A split of one side (BestSplit, at most `min_segment` runs a side)
  /// with p ≤ alpha is the metric's own change: the side is cut there.
  double alpha = 0.01;
  std::size_t min_segment = 3;
};

struct MachineShiftOptions {
  double alpha = 0.01;           // significance of one level change point
  std::size_t min_segment = 3;   // runs each side at least
  double min_change = 0.01;      // smaller level changes are ignored
  /// A slower shift is a possible code change (MachineShift::
  /// possible_code_change) only from this size on: what the gate would call
  /// a change of the group's metrics (detect.cc: the median of their
  /// smallest relative change that counts; 10% for the load path).
  double min_code_change = 0.01;
  /// How a metric's jump across a shift is measured (LocalJump).
  JumpOptions jump;
  /// A level change point is a machine shift only when at least this share
  /// of the metrics that moved across it moved its way: a level that moved
  /// because many metrics changed at different times, or by chance, is not.
  double min_agreement = 2.0 / 3;
  std::size_t ack_within = 2;    // as DetectOptions::ack_within
  uint64_t seed = 1;
  /// MachineShift::group of the shifts found ("" = the machine).
  std::string group;
};

/// The label a shift's id is made of: "machine", or "machine/GROUP".
std::string MachineShiftLabel(const std::string& group);

/// The level as the machine shifts explain it: per window position, the
/// median of `level` over the position's segment between consecutive shifts
/// (positions without a level take their segment's); all 0 without shifts.
/// This, not the per-run level, is what is removed from the metrics: the
/// per-run level of a machine that did not shift is noise (the median of the
/// metrics' own noise), and removing it would add that noise to every metric.
std::vector<double> ShiftLevel(const std::vector<double>& level,
                               const std::vector<MachineShift>& shifts);

/// The metric's jump across window position `edge`: the median of its log
/// values in runs [edge, hi) minus the median in runs [lo, edge), each side
/// at most `window` runs next to the edge and cut at the metric's own
/// changes inside it (within a segment the machine's level is constant, so
/// a change there is the metric's). nullopt when a side has no value.
/// run_index must be ascending.
std::optional<double> LocalJump(const RunSeries& series, std::size_t lo, std::size_t edge,
                                std::size_t hi, const JumpOptions& options);

/// Loadings are clamped to [0, kMaxLoading].
inline constexpr double kMaxLoading = 3;

/// How strongly the metric follows the machine's shifts: operators do not
/// all move by the median (on the shared VM, memory-bound ones moved about
/// twice as much as convolutions). Per edge of `shift_level`, the metric's
/// LocalJump within the adjacent segments, regressed on the level's jumps
/// (least squares through 0 over the edges, so large shifts weigh most),
/// clamped to [0, kMaxLoading]; 1 without an edge. Jumps are medians, so a
/// loaded run hardly moves it, and cut at the metric's own changes; a
/// change of the metric's own within min_segment runs of a machine shift
/// still moves it (see docs/history.md).
double MachineLoading(const RunSeries& series, const std::vector<double>& shift_level,
                      const JumpOptions& options);

/// Divides each value by exp(loading × shift_level of its run).
void RemoveMachineLevel(const std::vector<double>& shift_level, double loading,
                        RunSeries* series);

/// Change points of `level` (NaN positions skipped) that most of `series`
/// (the metrics the level was made of) moved with, classified against the
/// window's runs; `acknowledged` marks shifts by id.
std::vector<MachineShift> FindMachineShifts(const std::vector<double>& level,
                                            const std::vector<const RunSeries*>& series,
                                            const std::vector<RunSummary>& runs,
                                            const MachineShiftOptions& options,
                                            const std::set<std::string>& acknowledged);

}  // namespace etbench::history
