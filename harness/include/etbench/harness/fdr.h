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

/// Weighted Benjamini–Hochberg (Genovese, Roeder & Wasserman 2006): BH on
/// p(i)/w(i), with the weights rescaled to mean 1. Controls the FDR at q
/// when the weights are independent of the null p-values. Weights must be
/// positive; the result is in the input order.
std::vector<double> WeightedBenjaminiHochberg(const std::vector<double>& p_values,
                                              std::vector<double> weights);

/// Weights that spend the error budget where a threshold-sized change can be
/// seen: w ∝ max(floor, Φ(d − z)), with d the threshold in standard errors
/// of the change (from the pooled samples, so independent of the rank test
/// under the null) and z = Φ⁻¹(1 − q/(2m)); rescaled to mean 1. An
/// infinite d (no noise) gets the largest weight.
std::vector<double> PowerWeights(const std::vector<double>& threshold_in_se, double q,
                                 double floor = 0.05);

}  // namespace etbench
