#pragma once
// Run-to-run clustering. The samples of one repetition (one process, one
// loaded method) share memory layout, cache state and clock frequency, so
// they move together: on the reference runtime the medians of repetitions
// of one operator differ by 5–30% while the samples within a repetition are
// much closer. Treating 2 × 30 such samples as 60 independent ones makes
// every test overconfident — the classic source of benchmark gates that cry
// wolf. The design effect measures the clustering and says by how much the
// variance of the comparison is larger than independence would claim.

#include <cstdint>
#include <vector>

namespace etbench {

struct DesignEffect {
  /// Intra-repetition correlation of the ranks, in [0, 1].
  double icc = 0;
  /// Variance of the comparison ÷ the variance under independence (≥ 1):
  /// (D_b/n_b + D_c/n_c) / (1/n_b + 1/n_c) with D = 1 + (k̄ − 1)·ICC per side
  /// (k̄ = samples per repetition on that side).
  double factor = 1;
  /// Repetitions that entered the estimate (sides with at least two).
  std::size_t groups = 0;
};

/// Estimates the ICC by one-way ANOVA on the pooled (mid)ranks within each
/// side — deviations of a repetition's mean rank from its own side's mean,
/// so that a change between the sides is not mistaken for clustering — and
/// the factor from it. `*_groups` are consecutive group sizes (Metric::
/// group_sizes). A side without group sizes, or with one group, contributes
/// nothing to the estimate and D = 1 (unknown). With no side of two or more
/// groups the result is {0, 1, 0}.
DesignEffect EstimateDesignEffect(const std::vector<double>& baseline,
                                  const std::vector<uint64_t>& baseline_groups,
                                  const std::vector<double>& candidate,
                                  const std::vector<uint64_t>& candidate_groups);

/// A two-sided p-value of a z test with its variance multiplied by `factor`:
/// 2·Φ̄(Φ̄⁻¹(p/2) / √factor).
double InflateTwoSidedP(double p, double factor);

}  // namespace etbench
