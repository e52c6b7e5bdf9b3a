// The Wilcoxon signed-rank test, Hodges–Lehmann estimate and interval on
// block differences (see paired_blocks.h and docs/comparison.md).

#include "etbench/stats/paired_blocks.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "etbench/stats/stats.h"

namespace etbench {

SignedRankDistribution::SignedRankDistribution(std::size_t n) : n_(n) {
  if (n > kSignedRankExactMax) return;
  // P(T+ = t) for k pairs: the k-th pair adds its rank k with probability ½.
  const std::size_t max_t = n * (n + 1) / 2;
  std::vector<double> p(max_t + 1, 0.0);
  p[0] = 1;
  std::size_t top = 0;
  for (std::size_t k = 1; k <= n; ++k) {
    top += k;
    for (std::size_t t = top; t >= k; --t) p[t] = 0.5 * (p[t] + p[t - k]);
    for (std::size_t t = std::min(k, top + 1); t-- > 0;) p[t] *= 0.5;
  }
  cdf_.resize(max_t + 1);
  double sum = 0;
  for (std::size_t t = 0; t <= max_t; ++t) cdf_[t] = (sum += p[t]);
}

double SignedRankDistribution::Cdf(double t) const {
  const double n = static_cast<double>(n_);
  const double max_t = n * (n + 1) / 2;
  if (t < 0) return 0;
  if (t >= max_t) return 1;
  const double floor_t = std::floor(t);
  if (!cdf_.empty()) return cdf_[static_cast<std::size_t>(floor_t)];
  const double mean = max_t / 2;
  const double sd = std::sqrt(n * (n + 1) * (2 * n + 1) / 24);
  return NormalSf((mean - floor_t - 0.5) / sd);
}

std::vector<double> SortedWalshAverages(const std::vector<double>& d) {
  std::vector<double> w;
  w.reserve(d.size() * (d.size() + 1) / 2);
  for (std::size_t i = 0; i < d.size(); ++i) {
    for (std::size_t j = i; j < d.size(); ++j) w.push_back(0.5 * (d[i] + d[j]));
  }
  std::sort(w.begin(), w.end());
  return w;
}

SignedRankInference SignedRank(const std::vector<double>& w, const SignedRankDistribution& null) {
  SignedRankInference r;
  r.n = null.n();
  if (w.empty()) return r;
  const std::size_t m = w.size();
  r.estimate = m % 2 == 1 ? w[m / 2] : 0.5 * (w[m / 2 - 1] + w[m / 2]);
  const auto le = static_cast<double>(std::upper_bound(w.begin(), w.end(), 0.0) - w.begin());
  const auto ge = static_cast<double>(w.end() - std::lower_bound(w.begin(), w.end(), 0.0));
  r.p_value = std::min(1.0, 2 * null.Cdf(std::min(le, ge)));
  return r;
}

std::pair<double, double> SignedRankInterval(const std::vector<double>& w,
                                             const SignedRankDistribution& null, double a,
                                             double weight) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const std::size_t m = w.size();
  // x = k − 1: the largest count with 2·F(x) / weight ≤ a (F is monotone;
  // SignedRank's p is min(1, 2·F), and a < 1 makes the min irrelevant).
  const auto rejects = [&](std::size_t x) {
    return 2 * null.Cdf(static_cast<double>(x)) / weight <= a;
  };
  if (m == 0 || a >= 1 || !rejects(0)) return {-kInf, kInf};
  std::size_t lo = 0, hi = m;  // rejects(lo), !rejects(hi): 2·F(m) = 2
  while (hi - lo > 1) {
    const std::size_t mid = lo + (hi - lo) / 2;
    (rejects(mid) ? lo : hi) = mid;
  }
  const std::size_t k = lo + 1;  // 1-based order statistic
  if (k > m + 1 - k) return {-kInf, kInf};
  return {w[k - 1], w[m - k]};
}

}  // namespace etbench
