#pragma once
// False-discovery-rate control across the per-operator metrics of one
// comparison.

#include <vector>

namespace etbench {

/// Benjamini–Hochberg adjusted p-values, in the input order:
/// p̃(i) = min over j ≥ i of min(1, m·p(j)/j) for the ascending order p(1..m).
/// Rejecting p̃ ≤ q controls the false discovery rate at q for independent
/// or positively dependent tests. NaN inputs are treated as 1.
std::vector<double> BenjaminiHochberg(const std::vector<double>& p_values);

/// The level BH rejects at, given the adjusted p-values of the family:
/// q·max(1, R)/m with R the rejections (adjusted ≤ q) and m = max(1, the
/// family's size). A member is rejected exactly when its raw p is within it,
/// so its interval shown at this level agrees with its verdict.
double BenjaminiHochbergLevel(const std::vector<double>& adjusted, double q);

/// Weighted Benjamini–Hochberg (Genovese, Roeder & Wasserman 2006): BH on
/// p(i)/w(i), with the weights rescaled to mean 1. Controls the FDR at q
/// when the weights are independent of the null p-values. Weights must be
/// positive; the result is in the input order.
std::vector<double> WeightedBenjaminiHochberg(const std::vector<double>& p_values,
                                              std::vector<double> weights);

/// Weights that spend the error budget where it buys detections (Roeder &
/// Wasserman 2009, "Genome-wide significance levels and weighted hypothesis
/// testing"): the weights maximising the expected number of detections of
/// threshold-sized changes are
///     w_i = (m/α) · Φ̄(ξ_i/2 + c/ξ_i),   Σ w_i = m,
/// with ξ_i the expected z of the test at that change and α = q/2 (one side
/// of the two-sided level). They peak at intermediate ξ: metrics that see a
/// threshold-sized change anyway (large ξ) or could not see it (small ξ)
/// give their share to those where the level decides. ξ = 1.2247·d: d is
/// the threshold in standard errors of the median's change (from the pooled
/// samples, so independent of the rank test under the null) and the
/// Mann–Whitney test is 1.2247× as efficient as the median for normal data
/// (√(3/π)·√(π/2)). Weights are floored at `floor` (a huge change on any
/// metric stays detectable) and rescaled to mean 1. A NaN or infinite d
/// gets the floor.
std::vector<double> OptimalWeights(const std::vector<double>& threshold_in_se, double q,
                                   double floor = 0.05);

}  // namespace etbench
