#pragma once
// `etbench history detect`: change points of every metric of a history
// window, with false-discovery control across metrics, magnitudes with
// intervals, the operators that moved together, and the attribution of the
// end-to-end change.

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "etbench/compare/attribution.h"
#include "etbench/compare/thresholds.h"
#include "etbench/history/history_store.h"
#include "etbench/history/machine_shift.h"
#include "etbench/results/history_view.h"

namespace etbench::history {

struct DetectOptions {
  /// False discovery rate across the metrics of one (suite, device) history.
  double fdr_q = 0.01;
  /// Runs each side of a change point at least.
  std::size_t min_segment = 3;
  /// Changes of the per-run statistic (lower decile) smaller than this
  /// fraction are ignored.
  double min_change = 0.01;
  /// Report a change of a part of Method::execute (an operator, kernel or
  /// delegate event, the framework tax) only when it matters end to end: it
  /// would move its model's Method::execute by at least min_change with
  /// the whole of its change's interval (the end nearest no change; the
  /// framework tax: by min_change × 100 percentage points), or
  /// Method::execute has a change point within together_within runs of it
  /// (the part is where that change went). gate --baseline history keeps
  /// it unless --every-part. Runs of a history are not
  /// interleaved: on quiet 40-run histories
  /// of this VM, small memory-bound operators moved 10–26% between runs with
  /// no code change (a relu of 15 us in a 540 us model), as the machine's
  /// memory state changed; an interleaved A/B (compare) cancels that, a
  /// history cannot. false reports every part's change (--every-part).
  bool end_to_end_only = true;
  /// The gate's thresholds (thresholds.yaml; `history detect --thresholds`):
  /// an end-to-end metric's change must also reach its rule's `relative`
  /// (built in: 2% for Method::execute, 10% for Program::load_method and
  /// Method::init), so the history and the gate agree on what matters.
  Thresholds thresholds = DefaultThresholds();
  /// Runs a model ran slower than this fraction as a whole (the median over
  /// its metrics of the run's value against the metric's median) were hit
  /// by background load: their points are left out of that model's
  /// series. 0 keeps every run.
  double load_cutoff = 0.15;
  /// Remove the machine's level (per run, the median over the time metrics
  /// of their log ratio to their median) from every time metric before
  /// testing it, and report the level's change points apart as machine
  /// shifts (machine_shift.h). false tests the raw statistics.
  bool machine_level = true;
  /// After the machine's level, each block's own level across models (the
  /// load path shifts on its own), removed from the block's time metrics and
  /// reported as shifts of that group (MachineShift::group).
  bool group_levels = true;
  /// A change of a time metric must exceed what the measurement resolves:
  /// compare's `min_delta: auto` (MinDeltaFor: two ticks, and for operator
  /// events the cost of recording one event, EventOverhead), measured on
  /// the window's per-run values.
  bool resolution_floor = true;
  /// Every slower machine shift not acknowledged is an open regression, not
  /// only those that could be a code change (MachineShift::possible_code_change).
  bool machine_shifts_are_regressions = false;
  /// Percent metrics (framework tax) also need this many percentage points.
  double min_percent_points = 0.1;
  /// Runs adjacent change points of one model may be apart to count as one
  /// event ("moved together").
  std::size_t together_within = 1;
  /// An acknowledgement covers the metric's change point while its start
  /// stays within this many runs of the acknowledged start (more runs can
  /// move the estimate).
  std::size_t ack_within = 2;
  uint64_t seed = 1;
};

/// A change point's id: the first 12 hex digits of SHA-256("LABEL@RUN_ID"),
/// the metric's label and the run id (results hash) of the first run of the
/// new segment. It depends on nothing else, so more runs, other metrics or
/// another database with the same runs give the same id.
std::string ChangePointId(const std::string& metric_label, const std::string& run_id);

/// Whether `id` has the form ChangePointId gives (12 lowercase hex digits),
/// so `history ack` refuses a typo or a commit instead of storing it.
bool IsChangePointId(const std::string& id);

/// Whether `id` is an id a detection over `window` (or over the runs of one
/// suite and device in it) can give, whatever its options: the
/// ChangePointId of a metric's label and a run that measured it, or of a
/// machine shift's label (MachineShiftLabel of "" or of a metric's block)
/// and any run. Every change point and machine shift that `history detect`
/// or the gate reports for these runs has such an id; any other id (a
/// typo, another history's) names nothing here, so `history ack` refuses it.
bool IsChangePointIdIn(const HistoryWindow& window, const std::string& id);

/// Change points of every metric in `window` (one suite on one device: the
/// caller selects). `acknowledged` marks change points by id.
Detection DetectChangePoints(const HistoryWindow& window, const DetectOptions& options,
                             const std::set<std::string>& acknowledged);

/// The index of the first run after the last change point of any metric or
/// of the machine's level (0 when there is none): the start of the current
/// stable segment.
std::size_t StableSegmentStart(const Detection& detection);

}  // namespace etbench::history
