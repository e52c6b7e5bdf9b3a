// Exact-distribution bootstrap of order statistics, and the percentile
// interval of a change between two samples.
//
// For a sorted sample x(1..n), a bootstrap resample's order statistics are
// x(j) for random indices j. With C(j) the number of resampled values
// ≤ x(j) (Binomial(n, j/n)), the K-th order statistic is x(j1) with
// j1 = min{j : C(j) ≥ K}, so P(j1 ≤ a) = P(Bin(n, a/n) ≥ K). The (K+1)-th is
// x(j2): j2 = j1 unless bin j1 holds exactly the K-th value, i.e.
// Q(a) = P(C(a−1) ≤ K−1, C(a) = K), in which case the other n − K values
// are uniform over bins a+1..n and j2 − a is the minimum of n − K uniform
// picks: P(j2 = b) ∝ ((n−b+1)/(n−a))^(n−K) − ((n−b)/(n−a))^(n−K).

#include "etbench/stats/bootstrap.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "etbench/stats/rng.h"

namespace etbench {
namespace {

class LogFactorials {
 public:
  explicit LogFactorials(std::size_t n) : table_(n + 1) {
    for (std::size_t i = 0; i <= n; ++i) table_[i] = std::lgamma(static_cast<double>(i) + 1);
  }
  /// log P(Bin(trials, p) = c).
  double LogBinomial(std::size_t trials, double p, std::size_t c) const {
    if (c > trials) return -INFINITY;
    if (p <= 0) return c == 0 ? 0 : -INFINITY;
    if (p >= 1) return c == trials ? 0 : -INFINITY;
    return table_[trials] - table_[c] - table_[trials - c] +
           static_cast<double>(c) * std::log(p) +
           static_cast<double>(trials - c) * std::log1p(-p);
  }

 private:
  std::vector<double> table_;
};

constexpr double kNegligible = 1e-17;

// Builds Vose's alias table for `probabilities` (summing to 1).
void BuildAlias(const std::vector<double>& probabilities, std::vector<double>& accept,
                std::vector<uint32_t>& alias) {
  const std::size_t m = probabilities.size();
  accept.assign(m, 1.0);
  alias.resize(m);
  std::vector<double> scaled(m);
  std::vector<uint32_t> small, large;
  for (std::size_t i = 0; i < m; ++i) {
    scaled[i] = probabilities[i] * static_cast<double>(m);
    alias[i] = static_cast<uint32_t>(i);
    (scaled[i] < 1 ? small : large).push_back(static_cast<uint32_t>(i));
  }
  while (!small.empty() && !large.empty()) {
    const uint32_t s = small.back();
    small.pop_back();
    const uint32_t l = large.back();
    accept[s] = scaled[s];
    alias[s] = l;
    scaled[l] -= 1 - scaled[s];
    if (scaled[l] < 1) {
      large.pop_back();
      small.push_back(l);
    }
  }
  // Leftovers are 1 up to rounding.
  for (uint32_t i : small) accept[i] = 1;
  for (uint32_t i : large) accept[i] = 1;
}

// numpy-style linear-interpolated quantiles at `q_low` (near 0) and
// `q_high` (near 1) of `values`, in one pass: a bounded max-heap keeps the
// smallest values needed for the low tail and a min-heap the largest for the
// high tail (most values are rejected by one comparison with the heap top).
std::pair<double, double> TailQuantiles(const std::vector<double>& values, double q_low,
                                        double q_high) {
  const std::size_t n = values.size();
  const double h_low = (static_cast<double>(n) - 1) * q_low;
  const double h_high = (static_cast<double>(n) - 1) * q_high;
  const std::size_t k_low = static_cast<std::size_t>(std::floor(h_low));
  const std::size_t k_high = static_cast<std::size_t>(std::floor(h_high));
  // Order statistics k and k+1 (0-based) are needed at each end.
  const std::size_t keep_low = std::min(n, k_low + 2);
  const std::size_t keep_high = std::min(n, n - k_high + 1);
  std::vector<double> low, high;  // heaps
  low.reserve(keep_low + 1);
  high.reserve(keep_high + 1);
  const auto greater = std::greater<double>();
  for (double v : values) {
    if (low.size() < keep_low) {
      low.push_back(v);
      std::push_heap(low.begin(), low.end());
    } else if (v < low.front()) {
      std::pop_heap(low.begin(), low.end());
      low.back() = v;
      std::push_heap(low.begin(), low.end());
    }
    if (high.size() < keep_high) {
      high.push_back(v);
      std::push_heap(high.begin(), high.end(), greater);
    } else if (v > high.front()) {
      std::pop_heap(high.begin(), high.end(), greater);
      high.back() = v;
      std::push_heap(high.begin(), high.end(), greater);
    }
  }
  std::sort_heap(low.begin(), low.end());            // ascending: the smallest values
  std::sort_heap(high.begin(), high.end(), greater);  // descending: the largest values
  auto at_low = [&](std::size_t k) { return low[std::min(k, low.size() - 1)]; };
  // 0-based order statistic k from the top list (high[0] is index n−1).
  auto at_high = [&](std::size_t k) { return high[std::min(n - 1 - k, high.size() - 1)]; };
  const double f_low = h_low - static_cast<double>(k_low);
  const double f_high = h_high - static_cast<double>(k_high);
  const double lo = at_low(k_low) + (f_low > 0 ? f_low * (at_low(k_low + 1) - at_low(k_low)) : 0);
  const double hi =
      at_high(k_high) +
      (f_high > 0 && k_high + 1 < n ? f_high * (at_high(k_high + 1) - at_high(k_high)) : 0);
  return {lo, hi};
}

}  // namespace

OrderStatisticSampler::OrderStatisticSampler(std::size_t n, double quantile) {
  const double h = (static_cast<double>(n) - 1) * std::clamp(quantile, 0.0, 1.0);
  std::size_t k0 = static_cast<std::size_t>(std::floor(h));
  double g = h - static_cast<double>(k0);
  if (k0 + 1 >= n) g = 0;  // the maximum: no upper neighbour
  weight_upper_ = g;
  const std::size_t K = k0 + 1;  // 1-based order statistic
  const LogFactorials lf(n);
  const double nd = static_cast<double>(n);
  const std::size_t window =
      static_cast<std::size_t>(std::ceil(8 * std::sqrt(nd))) + 8;  // ≥ 16 binomial σ

  // F(a) = P(Bin(n, a/n) ≥ K), a = 0..n.
  auto upper_tail = [&](std::size_t a) -> double {
    if (a == 0) return 0;
    if (a >= n) return 1;
    const double p = static_cast<double>(a) / nd;
    const std::size_t lo = a > window ? a - window : 0;
    const std::size_t hi = std::min(n, a + window);
    if (K <= a) {
      double below = 0;
      for (std::size_t c = lo; c < K; ++c) below += std::exp(lf.LogBinomial(n, p, c));
      return std::max(0.0, 1 - below);
    }
    double tail = 0;
    for (std::size_t c = K; c <= hi; ++c) tail += std::exp(lf.LogBinomial(n, p, c));
    return std::min(1.0, tail);
  };
  // Q(a) = P(C(a−1) ≤ K−1, C(a) = K).
  auto q_exact_k = [&](std::size_t a) -> double {
    const double p_prev = static_cast<double>(a - 1) / nd;
    const double p_bin = 1.0 / static_cast<double>(n - a + 1);
    const std::size_t lo = (a - 1) > window ? a - 1 - window : 0;
    const std::size_t hi = std::min(K - 1, a - 1 + window);
    double sum = 0;
    for (std::size_t c = lo; c <= hi; ++c) {
      sum += std::exp(lf.LogBinomial(n, p_prev, c) + lf.LogBinomial(n - c, p_bin, K - c));
    }
    return sum;
  };

  double previous = 0;
  for (std::size_t a = 1; a <= n; ++a) {
    const double cdf = upper_tail(a);
    const double p_a = std::max(0.0, cdf - previous);
    previous = cdf;
    if (p_a < kNegligible) continue;
    if (g == 0) {
      pairs_.emplace_back(static_cast<uint32_t>(a - 1), static_cast<uint32_t>(a - 1));
      probabilities_.push_back(p_a);
      continue;
    }
    const double q = a < n ? std::min(p_a, q_exact_k(a)) : 0.0;
    if (p_a - q >= kNegligible) {
      pairs_.emplace_back(static_cast<uint32_t>(a - 1), static_cast<uint32_t>(a - 1));
      probabilities_.push_back(p_a - q);
    }
    if (q < kNegligible) continue;
    const double rest = static_cast<double>(n - K);
    const double span = static_cast<double>(n - a);
    double covered = 0;
    for (std::size_t b = a + 1; b <= n; ++b) {
      const double upper = std::pow(static_cast<double>(n - b + 1) / span, rest);
      const double lower = std::pow(static_cast<double>(n - b) / span, rest);
      const double pb = upper - lower;
      covered += pb;
      if (q * pb >= kNegligible) {
        pairs_.emplace_back(static_cast<uint32_t>(a - 1), static_cast<uint32_t>(b - 1));
        probabilities_.push_back(q * pb);
      }
      if (1 - covered < 1e-15) break;
    }
  }
  double total = 0;
  for (double p : probabilities_) total += p;
  for (double& p : probabilities_) p /= total;
  BuildAlias(probabilities_, accept_, alias_);
}

double OrderStatisticSampler::Sample(const std::vector<double>& sorted,
                                     uint64_t random_bits) const {
  const uint64_t m = pairs_.size();
  const std::size_t slot = static_cast<std::size_t>(((random_bits >> 32) * m) >> 32);
  const double u = static_cast<double>(random_bits & 0xFFFFFFFFull) * 0x1.0p-32;
  const auto& pair = pairs_[u < accept_[slot] ? slot : alias_[slot]];
  const double lo = sorted[pair.first];
  if (weight_upper_ == 0) return lo;
  return lo + weight_upper_ * (sorted[pair.second] - lo);
}

const OrderStatisticSampler& BootstrapCache::Sampler(std::size_t n, Statistic statistic) {
  auto& slot = samplers_[{n, static_cast<int>(statistic)}];
  if (!slot) {
    slot = std::make_unique<OrderStatisticSampler>(n, StatisticQuantile(statistic).value_or(0.5));
  }
  return *slot;
}

ChangeInterval BootstrapChangeInterval(const std::vector<double>& sorted_baseline,
                                       const std::vector<double>& sorted_candidate,
                                       Statistic statistic, ChangeScale scale,
                                       const BootstrapSettings& settings, uint64_t seed,
                                       BootstrapCache& cache) {
  const std::size_t resamples = static_cast<std::size_t>(std::max(settings.resamples, 10));
  internal::Xoshiro256 rng(seed);
  std::vector<double> replicates(resamples);
  auto change = [scale](double b, double c) {
    if (scale == ChangeScale::kAbsolute) return c - b;
    if (b == 0) return c == 0 ? 0.0 : std::copysign(INFINITY, c);
    return (c - b) / std::fabs(b);
  };
  if (statistic == Statistic::kAvg) {
    auto resampled_mean = [&rng](const std::vector<double>& x) {
      const uint32_t n = static_cast<uint32_t>(x.size());
      double sum = 0;
      for (uint32_t i = 0; i < n; ++i) sum += x[rng.Below(n)];
      return sum / static_cast<double>(n);
    };
    for (double& r : replicates) {
      const double b = resampled_mean(sorted_baseline);
      r = change(b, resampled_mean(sorted_candidate));
    }
  } else {
    const OrderStatisticSampler& sb = cache.Sampler(sorted_baseline.size(), statistic);
    const OrderStatisticSampler& sc = cache.Sampler(sorted_candidate.size(), statistic);
    for (double& r : replicates) {
      const double b = sb.Sample(sorted_baseline, rng.Next());
      r = change(b, sc.Sample(sorted_candidate, rng.Next()));
    }
  }
  const double tail = (1 - settings.confidence) / 2;
  ChangeInterval interval;
  const auto [low, high] = TailQuantiles(replicates, tail, 1 - tail);
  interval.low = low;
  interval.high = high;
  const double z = NormalQuantile(1 - tail);
  interval.standard_error = std::isfinite(interval.high - interval.low)
                                ? (interval.high - interval.low) / (2 * z)
                                : INFINITY;
  return interval;
}

}  // namespace etbench
