#pragma once
// Paired, robust inference for interleaved runs (`etbench ab`). The unit is
// the ABBA block: per run and metric a robust location (the median of the
// run's samples, or the rule's statistic), per block the log ratio B/A of
// the mean log locations of its two B runs and its two A runs (a linear
// drift within the block cancels), and across blocks the Wilcoxon
// signed-rank test with its Hodges–Lehmann estimate and interval. ONE model
// gives the estimate, the interval and the p-value, so they cannot
// contradict: the 1−a interval excludes 0 exactly when p ≤ a
// (docs/comparison.md, "Interleaved runs").

#include <cstddef>
#include <utility>
#include <vector>

namespace etbench {

/// The exact null distribution of the signed-rank statistic T+ of n
/// non-zero differences (each sign ±1 with probability ½ independently of
/// the ranks), P(T+ ≤ t); beyond kSignedRankExactMax pairs the normal
/// approximation with continuity correction. Monotone in t either way.
class SignedRankDistribution {
 public:
  explicit SignedRankDistribution(std::size_t n);
  std::size_t n() const { return n_; }
  /// P(T+ ≤ t); 0 for t < 0, 1 for t ≥ n(n+1)/2.
  double Cdf(double t) const;

 private:
  std::size_t n_ = 0;
  std::vector<double> cdf_;  // exact, index t (empty when approximate)
};

/// Pairs up to which the exact distribution is used.
inline constexpr std::size_t kSignedRankExactMax = 400;

/// The n(n+1)/2 Walsh averages (d_i + d_j)/2, i ≤ j, ascending.
std::vector<double> SortedWalshAverages(const std::vector<double>& differences);

/// Wilcoxon signed-rank inference on one sample of paired differences.
struct SignedRankInference {
  std::size_t n = 0;
  /// Hodges–Lehmann estimate: the median of the Walsh averages.
  double estimate = 0;
  /// Two-sided p = min(1, 2·F(min(#W ≤ 0, #W ≥ 0))) with F the null CDF
  /// and W the Walsh averages (the usual exact p when no W is 0; zeros
  /// count against the evidence).
  double p_value = 1;
};

/// Estimate and p-value of `differences` (n ≥ 1).
SignedRankInference SignedRank(const std::vector<double>& sorted_walsh,
                               const SignedRankDistribution& null);

/// The 1 − a·weight interval [W(k), W(M+1−k)] with k − 1 the largest x
/// such that 2·F(x) / weight ≤ a (−∞, +∞ when none): it excludes 0 exactly
/// when SignedRank's p-value / weight ≤ a (the same floating-point
/// expression, so the equivalence holds to the last bit).
std::pair<double, double> SignedRankInterval(const std::vector<double>& sorted_walsh,
                                             const SignedRankDistribution& null, double a,
                                             double weight = 1);

}  // namespace etbench
