#pragma once
// Seeded bootstrap confidence intervals for the change of a statistic
// between two independent samples.
//
// Order statistics (p10, p50, p90, min, max) are resampled exactly and in
// O(1) per replicate: the bootstrap distribution of the k-th and (k+1)-th
// order statistics of a resample of size n is a fixed distribution over
// index pairs of the sorted sample (it depends on n and k only), so it is
// computed once per (n, statistic) and sampled with an alias table. This is
// the same distribution ordinary resampling produces, without drawing n
// indices per replicate. avg is resampled the ordinary way.

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "etbench/stats/stats.h"

namespace etbench {

/// How a change is expressed.
enum class ChangeScale {
  kRelative,  // (candidate − baseline) / |baseline|, a fraction
  kAbsolute,  // candidate − baseline, in the metric's unit (pp for percent)
};

/// The exact bootstrap distribution of one order-statistic-based statistic
/// for samples of size n, ready to sample.
class OrderStatisticSampler {
 public:
  /// `quantile` in [0, 1] (numpy 'linear': h = (n − 1)·quantile). n ≥ 1.
  OrderStatisticSampler(std::size_t n, double quantile);

  /// One replicate of the statistic for `sorted` (size n), from 64 random bits.
  double Sample(const std::vector<double>& sorted, uint64_t random_bits) const;

  /// The distribution's support: 0-based (lower, upper) index pairs and
  /// their probabilities (for tests).
  const std::vector<std::pair<uint32_t, uint32_t>>& pairs() const { return pairs_; }
  const std::vector<double>& probabilities() const { return probabilities_; }

 private:
  double weight_upper_ = 0;  // g of numpy's linear interpolation
  std::vector<std::pair<uint32_t, uint32_t>> pairs_;
  std::vector<double> probabilities_;
  // Vose alias table over pairs_.
  std::vector<double> accept_;
  std::vector<uint32_t> alias_;
};

/// Samplers by (n, statistic), built on first use. Not thread-safe: one per
/// comparison (or per thread).
class BootstrapCache {
 public:
  const OrderStatisticSampler& Sampler(std::size_t n, Statistic statistic);

 private:
  std::map<std::pair<std::size_t, int>, std::unique_ptr<OrderStatisticSampler>> samplers_;
};

struct BootstrapSettings {
  int resamples = 2000;
  double confidence = 0.95;
};

struct ChangeInterval {
  double low = 0;
  double high = 0;
  /// Standard error of the change, (high − low) / (2·z_((1+confidence)/2)).
  double standard_error = 0;
};

/// Percentile-bootstrap interval of the change of `statistic` from
/// `sorted_baseline` to `sorted_candidate` (both ascending, non-empty),
/// resampling each side independently. Deterministic in `seed`.
ChangeInterval BootstrapChangeInterval(const std::vector<double>& sorted_baseline,
                                       const std::vector<double>& sorted_candidate,
                                       Statistic statistic, ChangeScale scale,
                                       const BootstrapSettings& settings, uint64_t seed,
                                       BootstrapCache& cache);

}  // namespace etbench
