#pragma once
// What the commands do with a history, as functions: detect change points
// per suite and device, and take a baseline from the current stable
// segment. (Adding results files and runs is the CLI's:
// etbench/cli/history_recording.h.)

#include <set>
#include <string>
#include <vector>

#include "etbench/compare/metrics.h"
#include "etbench/history/detect.h"
#include "etbench/history/history_store.h"

namespace etbench::history {

/// One (suite, device) history and its change points.
struct DetectionGroup {
  std::string suite;
  std::string device;
  HistoryWindow window;
  Detection detection;
};

/// Whether `since` selects a start among `runs`: empty (all), an ISO time
/// (IsIsoTime), or a commit, or a prefix of one, of a run in `runs`.
/// Otherwise an input error naming `--since`, the value and what was
/// expected: a typo that selected no run would report no change point and
/// turn a failing check green. The one rule for every `--since`.
Status CheckSince(const std::vector<RunSummary>& runs, const std::string& since);

/// Change points of every (suite, device) among the runs of `filter`.
/// `since` may be an ISO date or a commit (prefix): change points whose new
/// segment starts before it are dropped (the segments before it still
/// inform the test). A `since` that CheckSince refuses over the runs of
/// `filter` is its input error.
Result<std::vector<DetectionGroup>> DetectAll(HistoryStore& store, const RunFilter& filter,
                                              const std::string& since,
                                              const DetectOptions& options);

/// A baseline from history: the runs of `suite` on `device` and `host` since
/// the last change point of any metric, merged as one MetricSet (each run a
/// session). `runs_used` tells how many; `note` says what was chosen.
struct HistoryBaseline {
  MetricSet metrics;
  /// The same runs one MetricSet each, oldest first (the gate's nights).
  std::vector<MetricSet> nights;
  std::size_t runs_used = 0;
  std::size_t runs_available = 0;
  std::string first_commit;
  std::string note;
};
/// `restart_at_machine_shifts` false: the segment starts after the last
/// change point only (the nightly gate removes the machine's level itself).
Result<HistoryBaseline> BaselineFromHistory(HistoryStore& store, const RunFilter& filter,
                                            const DetectOptions& options,
                                            bool restart_at_machine_shifts = true);

/// `gate --baseline history`: the stable segment of the history at `spec`
/// for the candidate's suite, device and host (runs_available = 0 when this
/// machine has no history of the suite yet): the runs since the last change
/// point that counts as the gate counts it — with the gate's thresholds,
/// parts of Method::execute only when they matter end to end unless
/// `every_part` (machine shifts do not restart it). Called before tonight's
/// run joins the history: `note` says "N earlier runs (no change point
/// before tonight)" or "N earlier runs since the change point at …".
Result<HistoryBaseline> BaselineForCandidate(const std::string& spec, const MetricSet& candidate,
                                             const Thresholds& thresholds = DefaultThresholds(),
                                             bool every_part = false);
/// Same, on an open history.
Result<HistoryBaseline> BaselineForCandidate(HistoryStore& store, const MetricSet& candidate,
                                             const Thresholds& thresholds = DefaultThresholds(),
                                             bool every_part = false);

/// What `gate --baseline history` reports after tonight's run joined the
/// history: the regressions `history detect` confirmed with it ("change
/// point confirmed" — a small change no single night shows is found once
/// min_segment nights sit at the new level) and how many older ones are
/// still open (not acknowledged).
struct ConfirmedTonight {
  /// Unacknowledged regression change points of the detection over the
  /// whole history (the gate's options: what counts end to end unless
  /// `every_part`) whose min_segment-th run at the new level is tonight's
  /// and that the detection without the newest run did not have (no
  /// regression of the same metric within 2 runs of it there).
  std::vector<ChangePoint> confirmed;
  /// The other unacknowledged regression change points (found before, or
  /// found only now far behind tonight).
  std::size_t older_open = 0;
};
/// On `window`, whose last run is tonight's (pure: the nightly replay
/// benchmark calls it too). Empty with fewer than 2 runs.
ConfirmedTonight ConfirmedByNewestRun(const HistoryWindow& window, const DetectOptions& options,
                                      const std::set<std::string>& acknowledged = {});
/// `window` with its newest run's value of each metric `confirmation`
/// measured (the lower decile of its samples, as the store keeps a run's)
/// replaced by the faster of the two: tonight as the gate judges it once
/// it measured models again (a spike of interference rarely hits both
/// runs, a code change always does).
HistoryWindow WithNewestFaster(HistoryWindow window, const MetricSet& confirmation);
/// For the candidate's suite, device and host in the history at `spec`,
/// whose newest run is tonight's, with the gate's detect options; with
/// `confirmation` (models measured again tonight), on WithNewestFaster.
Result<ConfirmedTonight> RegressionsConfirmedTonight(const std::string& spec,
                                                     const MetricSet& candidate,
                                                     const Thresholds& thresholds = DefaultThresholds(),
                                                     bool every_part = false,
                                                     const MetricSet* confirmation = nullptr);
/// Same, on an open history.
Result<ConfirmedTonight> RegressionsConfirmedTonight(HistoryStore& store,
                                                     const MetricSet& candidate,
                                                     const Thresholds& thresholds = DefaultThresholds(),
                                                     bool every_part = false,
                                                     const MetricSet* confirmation = nullptr);

/// `baseline update --from-history`: the stable segment of `suite` on the
/// device and host of its newest run in the history at `spec`.
Result<HistoryBaseline> BaselineForSuite(const std::string& spec, const std::string& suite);
/// Same, on an open history.
Result<HistoryBaseline> BaselineForSuite(HistoryStore& store, const std::string& suite);

}  // namespace etbench::history
