// The machine's level per run (see machine_level.h).

#include "etbench/compare/machine_level.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "etbench/stats/stats.h"

namespace etbench {

double MedianOf(std::vector<double> values) {
  const std::size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
  const double upper = values[mid];
  if (values.size() % 2 == 1) return upper;
  return (upper + *std::max_element(values.begin(),
                                    values.begin() + static_cast<std::ptrdiff_t>(mid))) / 2;
}

std::vector<double> MachineLevel(const std::vector<const RunSeries*>& series,
                                 std::size_t run_count, std::size_t min_metrics) {
  std::vector<std::vector<double>> per_run(run_count);
  for (const RunSeries* s : series) {
    if (s->values.size() < 3) continue;
    const double median = MedianOf(s->values);
    if (!(median > 0)) continue;
    for (std::size_t i = 0; i < s->values.size(); ++i) {
      if (s->values[i] > 0) per_run[s->run_index[i]].push_back(std::log(s->values[i] / median));
    }
  }
  std::vector<double> level(run_count, std::numeric_limits<double>::quiet_NaN());
  for (std::size_t r = 0; r < run_count; ++r) {
    if (per_run[r].size() >= std::max<std::size_t>(min_metrics, 1)) level[r] = MedianOf(per_run[r]);
  }
  return level;
}

std::optional<double> LevelBeyondNoise(const std::vector<double>& level, std::size_t reference,
                                       std::size_t at, double k) {
  if (at >= level.size() || !std::isfinite(level[at])) return std::nullopt;
  std::vector<double> before;
  for (std::size_t i = 0; i < std::min(reference, level.size()); ++i) {
    if (std::isfinite(level[i])) before.push_back(level[i]);
  }
  if (before.size() < 3) return std::nullopt;  // too few runs to know the noise
  std::sort(before.begin(), before.end());
  const double center = ComputeStatistic(before, Statistic::kP50);
  return std::max(0.0, std::fabs(level[at] - center) - k * RobustSigma(before));
}

bool WithinLevelNoise(const std::vector<double>& level, std::size_t reference, std::size_t at,
                      double k) {
  const std::optional<double> beyond = LevelBeyondNoise(level, reference, at, k);
  return beyond && *beyond == 0;
}

}  // namespace etbench
