#pragma once
// Recorded nights of the default suite in a compact, committed form
// (benchmarks/history/nights/*.tsv): per run (one `etbench run` in a fresh
// process) and metric (OPERATOR_CALL wrappers left out: never gated), the
// median of each repetition and the lower decile of all its samples, to 4
// significant digits — what the nightly gate (repetition medians), the
// gate as it was (repetitions as units), `history detect` (per-run lower
// deciles) and the per-run rules (Bencher, a flat 5%) read.
//
// Format (tab-separated, one record a line, '#' comments):
//   M  id  model  block  kind  name  instruction|-  delegate_id|-  occurrence  unit
//      end_to_end  kernel_call                      a metric's identity
//   R  run  history  condition  night  variant[.sK]  a run (session K ≥ 2)
//   C  run  key  value                               its context
//   V  run  metric  p10  median,median,...           its values

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "etbench/base/result.h"
#include "etbench/compare/metrics.h"

namespace etbench::bench {

struct NightRun {
  std::string history;
  std::string condition;  // quiet | stress60 | shiftvm
  int night = 0;          // 1-based
  std::string variant;    // base | conv5 | conv10
  /// Session of the night (1-based): one fresh `etbench run` process of
  /// several recorded in one night slot (record_sessions.sh).
  int session = 1;
  /// Samples = the repetitions' medians (group sizes 1 each), so every
  /// engine sees the repetitions the recorded run had.
  MetricSet metrics;
  std::vector<double> p10;  // per metric of `metrics`: lower decile of the run's samples
};

/// Converts recorded nights (ROOT/<history>/nightNN/<variant>/results.json
/// with ROOT/<history>/conditions.txt) into the compact form at `out`.
Status ConvertNights(const std::string& root, const std::string& out);

/// Reads the compact form (one or more files).
Result<std::vector<NightRun>> LoadNights(const std::vector<std::string>& paths);

/// A night of `sessions` sessions (`parts`: one night slot's runs, by
/// session), as `gate --sessions N` measures it: the repetitions of the
/// first `sessions` (MergeMetricSets keeps each session's groups) and, per
/// metric, the lower decile over them of each session's lower decile (the
/// gate's night value of a time metric). Null when
/// the slot holds fewer sessions.
std::unique_ptr<NightRun> CombineSessions(const std::vector<const NightRun*>& parts,
                                          std::size_t sessions);

/// `night_replay --pool K`: K consecutive recorded night slots make one
/// night, their sessions in order.
void PoolSlots(std::vector<NightRun>* runs, int pool);

/// `night_replay --spread K`: K slots spaced slots / K apart make one
/// night (base runs only).
void SpreadSlots(std::vector<NightRun>* runs, int spread);

}  // namespace etbench::bench
