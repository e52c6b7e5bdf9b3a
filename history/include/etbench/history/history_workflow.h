#pragma once
// What the commands do with a history, as functions: detect change points
// per suite and device, and take a baseline from the current stable
// segment. (Adding results files and runs is the CLI's:
// etbench/cli/history_recording.h.)

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

/// Change points of every (suite, device) among the runs of `filter`.
/// `since` may be an ISO date or a commit (prefix): change points whose new
/// segment starts before it are dropped (the segments before it still
/// inform the test).
Result<std::vector<DetectionGroup>> DetectAll(HistoryStore& store, const RunFilter& filter,
                                              const std::string& since,
                                              const DetectOptions& options);

/// A baseline from history: the runs of `suite` on `device` and `host` since
/// the last change point of any metric, merged as one MetricSet (each run a
/// session). `runs_used` tells how many; `note` says what was chosen.
struct HistoryBaseline {
  MetricSet metrics;
  std::size_t runs_used = 0;
  std::size_t runs_available = 0;
  std::string first_commit;
  std::string note;
};
Result<HistoryBaseline> BaselineFromHistory(HistoryStore& store, const RunFilter& filter,
                                            const DetectOptions& options);

/// `gate --baseline history`: the stable segment of the history at `spec`
/// for the candidate's suite, device and host (runs_available = 0 when this
/// machine has no history of the suite yet), found with the gate's
/// thresholds and every change point, parts of Method::execute included.
Result<HistoryBaseline> BaselineForCandidate(const std::string& spec, const MetricSet& candidate,
                                             const Thresholds& thresholds = DefaultThresholds());

/// `baseline update --from-history`: the stable segment of `suite` on the
/// device and host of its newest run in the history at `spec`.
Result<HistoryBaseline> BaselineForSuite(const std::string& spec, const std::string& suite);

}  // namespace etbench::history
