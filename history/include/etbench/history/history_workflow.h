#pragma once
// What the commands do with a history, as functions: add results files,
// detect change points per suite and device, take a baseline from the
// current stable segment, and record a run right after it finished.

#include <string>
#include <vector>

#include "etbench/base/environment.h"
#include "etbench/compare/metrics.h"
#include "etbench/harness/process.h"
#include "etbench/results/results.h"
#include "etbench/history/detect.h"
#include "etbench/history/history_store.h"

namespace etbench::history {

/// Commit and branch of the run when its results have none: from git in the
/// current directory through `processes` (null = leave them empty).
void FillSourceFromGit(harness::ProcessRunner* processes, const Environment& env,
                       RunRecord* run);

/// Reads `path` and adds it. Returns true when added, false when the run was
/// already stored. Errors name the file.
Result<bool> AddResultsFile(HistoryStore& store, const std::string& path,
                            const RunOverrides& overrides, harness::ProcessRunner* processes,
                            const Environment& env);

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
/// machine has no history of the suite yet).
Result<HistoryBaseline> BaselineForCandidate(const std::string& spec, const MetricSet& candidate);

/// `baseline update --from-history`: the stable segment of `suite` on the
/// device and host of its newest run in the history at `spec`.
Result<HistoryBaseline> BaselineForSuite(const std::string& spec, const std::string& suite);

/// Adds a just-finished run to the history at `spec` (the --history flag of
/// run, gate and ab). Returns a one-line note for stderr.
Result<std::string> RecordRun(const std::string& spec, const results::RunResults& results,
                              const std::string& results_path);

}  // namespace etbench::history
