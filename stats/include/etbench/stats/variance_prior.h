#pragma once
// Moderated variances (Smyth 2004, limma's squeezeVar) and the Student t
// tail the nightly gate reads them with. With 5 nights a metric's own
// variance has 4 degrees of freedom and is often off by a factor of 2;
// metrics of one kind (every Method::execute, every operator) share a
// prior fitted to all their variances, and each metric's variance is
// pulled towards it by the prior's weight d0: the posterior variance
// (d0·s0² + d·s²)/(d0 + d) with d0 + d degrees of freedom.

#include <vector>

namespace etbench {

/// One-sided P(T ≥ t) of Student's t with `df` degrees of freedom
/// (df = +inf: the standard normal).
double StudentUpperP(double t, double df);

/// The t with StudentUpperP(t, df) = a, for a in (0, 1).
double StudentUpperQuantile(double a, double df);

/// The scaled inverse-χ² prior (d0, s0²) of sample variances.
struct VariancePrior {
  double d0 = 0;          // 0: no prior (each metric alone); +inf: all share s0²
  double s0_squared = 0;
};

/// Fits the prior by moments of log s² (limma's fitFDist): `s2[i]` has
/// `df[i]` > 0 degrees of freedom; non-positive variances are left out.
/// d0 = +inf when the variances vary no more than chance, d0 = 0 with
/// fewer than 3 usable variances.
VariancePrior FitVariancePrior(const std::vector<double>& s2, const std::vector<double>& df);

/// The posterior variance of one metric: (d0·s0² + df·s2)/(d0 + df); s0²
/// when d0 is infinite; s2 when d0 is 0.
double ModeratedVariance(const VariancePrior& prior, double s2, double df);

/// Digamma ψ(x) and trigamma ψ'(x) for x > 0.
double Digamma(double x);
double Trigamma(double x);

}  // namespace etbench
