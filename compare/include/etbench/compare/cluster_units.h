#pragma once
// The units of a fixed-baseline comparison (`etbench compare`, `etbench
// gate` against a saved baseline or history). Samples of one repetition
// (one process) move together, and the repetitions of one session (one
// `etbench run`, one machine state) move together again, so samples are
// not independent. The unit is the cluster: per repetition the row's
// statistic of its samples (the median for p50), compared on the log scale
// by rank inference (rank_shift.h). When the baseline's sessions differ
// among themselves by a threshold-sized amount that their repetitions do
// not explain, the machine drifts: the candidate is then compared with the
// repetitions of the baseline session nearest to it.

#include <cstddef>
#include <vector>

#include "etbench/compare/metrics.h"
#include "etbench/stats/stats.h"

namespace etbench {

enum class ClusterLevel {
  kSample,      // no repetitions recorded: each sample is its own unit
  kRepetition,  // per repetition the statistic of its samples
};

/// "sample", "repetition".
const char* ClusterLevelName(ClusterLevel level);

struct ClusterUnits {
  ClusterLevel level = ClusterLevel::kSample;
  /// True when every unit value is > 0 and the comparison is relative:
  /// the values are logs.
  bool log_scale = false;
  /// Unit values of each side, sorted ascending (logs when log_scale).
  std::vector<double> baseline, candidate;
  /// Drift, measured when the baseline has ≥ 2 sessions with repeated
  /// runs and the candidate is one session: the range of its session values (max − min, on the scale) and
  /// the robust spread of repetitions around their session's value.
  bool drift_measured = false;
  double session_range = 0;
  double within_sigma = 0;
  std::size_t baseline_sessions = 0;
  /// The rule below fired: `baseline` holds only the repetitions of the
  /// baseline session (index `nearest_session`) whose value is nearest the
  /// candidate's median repetition.
  bool drifting = false;
  std::size_t nearest_session = 0;
  /// Drifting, and the candidate's median repetition lies outside the
  /// baseline's range of sessions.
  bool candidate_outside = false;
};

/// The units of one metric and statistic. `relative` false (framework tax)
/// keeps amounts. Sides use repetitions only when both record usable
/// group sizes (else samples). Drift rule, fixed in advance: the baseline
/// has ≥ 2 sessions, some with ≥ 2 repetitions, and its session range is
/// at least `drift_floor` (half the threshold, on the scale) and more than
/// 4 robust σ of the repetitions within sessions → drifting (the candidate
/// meets the nearest baseline session only).
ClusterUnits BuildClusterUnits(const Metric& baseline, const Metric& candidate,
                               Statistic statistic, bool relative, double drift_floor);

}  // namespace etbench
