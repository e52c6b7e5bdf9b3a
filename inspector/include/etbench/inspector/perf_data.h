#pragma once
// Summary statistics of one event's durations across runs, computed exactly
// as the reference Inspector (numpy) computes them.

#include <cstddef>
#include <vector>

namespace etbench {

struct PerfData {
  std::vector<double> raw;  // one duration per run, in run order
  double p10 = 0;
  double p50 = 0;
  double p90 = 0;
  double avg = 0;     // numpy.mean (pairwise summation)
  double min = 0;
  double max = 0;
  double stddev = 0;  // sample standard deviation (n - 1); 0 for one sample
  std::size_t count = 0;

  /// Computes every statistic from `raw`. Precondition: raw is not empty.
  static PerfData FromRaw(std::vector<double> raw);
};

/// numpy.percentile(samples, q) with the default 'linear' method.
/// `sorted` must be sorted ascending and non-empty; q in [0, 100].
double Percentile(const std::vector<double>& sorted, double q);

/// numpy.sum for a float64 array: pairwise summation in blocks, bit-exact.
double NumpySum(const double* values, std::size_t n);

/// numpy.mean: NumpySum / n. Precondition: n > 0.
double NumpyMean(const double* values, std::size_t n);

}  // namespace etbench
