// The units of a fixed-baseline comparison (see cluster_units.h and
// docs/comparison.md, "Fixed baselines").

#include "etbench/compare/cluster_units.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "etbench/inspector/perf_data.h"

namespace etbench {
namespace {

bool UsableGroups(const Metric& m) {
  return !m.group_sizes.empty() &&
         std::accumulate(m.group_sizes.begin(), m.group_sizes.end(), uint64_t{0}) ==
             m.samples.size() &&
         std::none_of(m.group_sizes.begin(), m.group_sizes.end(),
                      [](uint64_t g) { return g == 0; });
}

// Repetitions per session; one session when none are recorded.
std::vector<uint64_t> SessionsOf(const Metric& m) {
  if (!m.session_sizes.empty() &&
      std::accumulate(m.session_sizes.begin(), m.session_sizes.end(), uint64_t{0}) ==
          m.group_sizes.size() &&
      std::none_of(m.session_sizes.begin(), m.session_sizes.end(),
                   [](uint64_t s) { return s == 0; })) {
    return m.session_sizes;
  }
  return {m.group_sizes.size()};
}

// Per repetition, the statistic of its samples (in run order).
std::vector<double> RepetitionValues(const Metric& m, Statistic statistic) {
  std::vector<double> out;
  out.reserve(m.group_sizes.size());
  std::size_t at = 0;
  std::vector<double> group;
  for (uint64_t size : m.group_sizes) {
    group.assign(m.samples.begin() + static_cast<std::ptrdiff_t>(at),
                 m.samples.begin() + static_cast<std::ptrdiff_t>(at + size));
    std::sort(group.begin(), group.end());
    out.push_back(ComputeStatistic(group, statistic));
    at += size;
  }
  return out;
}

double MedianOf(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return Percentile(values, 50);
}

// Per session, the median of its repetitions' values; the deviations of
// the repetitions from it are appended to `deviations`.
std::vector<double> SessionValues(const std::vector<double>& reps,
                                  const std::vector<uint64_t>& sessions,
                                  std::vector<double>* deviations, bool* repeated) {
  std::vector<double> out;
  std::size_t at = 0;
  for (uint64_t count : sessions) {
    const std::vector<double> one(reps.begin() + static_cast<std::ptrdiff_t>(at),
                                  reps.begin() + static_cast<std::ptrdiff_t>(at + count));
    const double value = MedianOf(one);
    out.push_back(value);
    if (count >= 2) {
      *repeated = true;
      for (double v : one) deviations->push_back(v - value);
    }
    at += count;
  }
  return out;
}

}  // namespace

const char* ClusterLevelName(ClusterLevel level) {
  switch (level) {
    case ClusterLevel::kSample: return "sample";
    case ClusterLevel::kRepetition: return "repetition";
  }
  return "?";
}

ClusterUnits BuildClusterUnits(const Metric& baseline, const Metric& candidate,
                               Statistic statistic, bool relative, double drift_floor) {
  ClusterUnits out;
  const bool grouped = UsableGroups(baseline) && UsableGroups(candidate);
  if (grouped) {
    out.level = ClusterLevel::kRepetition;
    out.baseline = RepetitionValues(baseline, statistic);
    out.candidate = RepetitionValues(candidate, statistic);
  } else {
    out.baseline = baseline.samples;
    out.candidate = candidate.samples;
  }
  const auto positive = [](const std::vector<double>& v) {
    return std::all_of(v.begin(), v.end(), [](double x) { return x > 0; });
  };
  out.log_scale = relative && positive(out.baseline) && positive(out.candidate);
  if (out.log_scale) {
    for (double& v : out.baseline) v = std::log(v);
    for (double& v : out.candidate) v = std::log(v);
  }

  if (grouped) {
    const std::vector<uint64_t> sessions_b = SessionsOf(baseline);
    out.baseline_sessions = sessions_b.size();
    std::vector<double> deviations;
    bool repeated = false;
    const std::vector<double> values_b =
        SessionValues(out.baseline, sessions_b, &deviations, &repeated);
    // A candidate that spans several sessions samples machine states
    // itself: both sides are then compared whole, never narrowed.
    const bool one_candidate_session = SessionsOf(candidate).size() <= 1;
    if (values_b.size() >= 2 && repeated && one_candidate_session) {
      std::sort(deviations.begin(), deviations.end());
      out.drift_measured = true;
      const auto [low, high] = std::minmax_element(values_b.begin(), values_b.end());
      out.session_range = *high - *low;
      out.within_sigma = RobustSigma(deviations);
      out.drifting = out.session_range >= drift_floor && out.session_range > 4 * out.within_sigma;
      if (out.drifting) {
        // The candidate's machine state is one more draw: compare it with
        // the baseline state nearest to it, so that a change is reported
        // only when it stands out of every state the baseline has seen.
        const double candidate_value = MedianOf(out.candidate);
        std::size_t nearest = 0;
        for (std::size_t s = 1; s < values_b.size(); ++s) {
          if (std::fabs(values_b[s] - candidate_value) <
              std::fabs(values_b[nearest] - candidate_value)) {
            nearest = s;
          }
        }
        out.candidate_outside = candidate_value < *low || candidate_value > *high;
        out.nearest_session = nearest;
        std::size_t first = 0;
        for (std::size_t s = 0; s < nearest; ++s) first += sessions_b[s];
        out.baseline = std::vector<double>(
            out.baseline.begin() + static_cast<std::ptrdiff_t>(first),
            out.baseline.begin() + static_cast<std::ptrdiff_t>(first + sessions_b[nearest]));
      }
    }
  }
  std::sort(out.baseline.begin(), out.baseline.end());
  std::sort(out.candidate.begin(), out.candidate.end());
  return out;
}

}  // namespace etbench
