#pragma once
// Two-sample rank inference on a shift: the Mann–Whitney test with its
// Hodges–Lehmann estimate and interval, from ONE null distribution, so
// that the 1−a interval excludes 0 exactly when p ≤ a. Used by the
// fixed-baseline comparison on cluster-level values (compare/cluster_units.h;
// docs/comparison.md, "Fixed baselines").

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace etbench {

/// The null distribution of U = #{(i, j): y_j > x_i} for independent
/// samples of sizes m and n without ties, P(U ≤ u): exact when both sizes
/// are at most kMannWhitneyExactMaxSize, else the normal approximation with
/// continuity correction. Monotone in u either way.
class RankShiftDistribution {
 public:
  RankShiftDistribution(std::size_t m, std::size_t n);
  std::size_t m() const { return m_; }
  std::size_t n() const { return n_; }
  /// P(U ≤ u); 0 for u < 0, 1 for u ≥ m·n.
  double Cdf(double u) const;

 private:
  std::size_t m_ = 0, n_ = 0;
  std::vector<double> cdf_;  // exact, index u (empty when approximate)
};

/// The m·n differences y_j − x_i of two sorted samples, counted and
/// selected without being materialized (O(m + n) per count, expected
/// O((m + n)·log(m·n)) per selection).
class PairwiseDifferences {
 public:
  /// `x` and `y` sorted ascending.
  PairwiseDifferences(std::vector<double> x, std::vector<double> y);
  std::size_t size() const { return x_.size() * y_.size(); }
  /// #{y_j − x_i ≤ t} and #{y_j − x_i ≥ t}.
  std::size_t CountAtMost(double t) const;
  std::size_t CountAtLeast(double t) const;
  /// The k-th smallest difference, 1 ≤ k ≤ size().
  double Select(std::size_t k) const;
  /// The smallest difference above `v` (+∞ when none).
  double Next(double v) const;
  /// The median of the differences (the Hodges–Lehmann shift).
  double Median() const;

 private:
  std::vector<double> x_, y_;
};

/// Estimate and p-value of a shift between two samples.
struct RankShiftInference {
  /// Hodges–Lehmann: the median of the pairwise differences y − x.
  double estimate = 0;
  /// Two-sided p = min(1, 2·F(min(#D ≤ 0, #D ≥ 0))) with F the null CDF of
  /// U (the usual exact p when no difference is 0; ties count against the
  /// evidence).
  double p_value = 1;
  /// #{D ≤ 0} and #{D ≥ 0}, behind p.
  std::size_t at_most_zero = 0, at_least_zero = 0;
};

/// Inference of `d` (non-empty sides) under `null` (of the same sizes).
RankShiftInference RankShift(const PairwiseDifferences& d, const RankShiftDistribution& null);

/// The 1 − a interval [D(k), D(M+1−k)] with k − 1 the largest count x such
/// that 2·F(x) ≤ a (−∞, +∞ when none): it excludes 0 exactly when
/// RankShift's p ≤ a (the same floating-point expression).
std::pair<double, double> RankShiftInterval(const PairwiseDifferences& d,
                                            const RankShiftDistribution& null, double a);

/// The smallest two-sided p two untied samples of sizes m and n can reach:
/// 2 / C(m + n, m) (at most 1).
double SmallestTwoSidedP(std::size_t m, std::size_t n);

/// The fewest clusters per side (both sides alike) whose smallest
/// two-sided p reaches a (at most `cap`).
std::size_t ClustersPerSideNeeded(double a, std::size_t cap = 1000);

}  // namespace etbench
