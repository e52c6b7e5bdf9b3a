#pragma once
// The two-sided Mann–Whitney U (Wilcoxon rank-sum) test on raw samples.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace etbench {

struct MannWhitneyResult {
  /// U of the second sample (candidate): the number of (a, b) pairs with
  /// b > a, ties counting one half.
  double u = 0;
  /// U / (n_a · n_b): the probability that a candidate sample exceeds a
  /// baseline sample (0.5 = no shift).
  double prob_superiority = 0.5;
  /// Two-sided p-value.
  double p_value = 1;
  /// True when the exact null distribution was used (no ties, both samples
  /// at most kExactMaxSize); else the normal approximation with tie and
  /// continuity correction.
  bool exact = false;
};

/// Samples up to this size (each) get the exact p-value when there are no ties.
inline constexpr std::size_t kMannWhitneyExactMaxSize = 20;

/// The test of `sorted_a` (baseline) against `sorted_b` (candidate), both
/// sorted ascending. An empty sample gives p = 1. Exact: p = min(1,
/// 2·min(P(U ≤ u), P(U ≥ u))). Asymptotic: z = (|U − n_a·n_b/2| − ½)/σ with
/// σ² = n_a·n_b/12 · (N + 1 − Σ(t³ − t)/(N(N − 1))), p = 2·P(Z > z) capped
/// at 1 (scipy.stats.mannwhitneyu's 'exact' and 'asymptotic' methods).
MannWhitneyResult MannWhitneyU(const std::vector<double>& sorted_a,
                               const std::vector<double>& sorted_b);

/// The number of arrangements of n_a + n_b untied values giving each U in
/// 0..n_a·n_b (the null distribution of U times C(n_a + n_b, n_a)); exact
/// for sizes up to kMannWhitneyExactMaxSize each.
std::vector<int64_t> MannWhitneyExactCounts(std::size_t n_a, std::size_t n_b);

/// Same for unsorted samples (sorts copies).
MannWhitneyResult MannWhitneyUUnsorted(std::vector<double> a, std::vector<double> b);

}  // namespace etbench
