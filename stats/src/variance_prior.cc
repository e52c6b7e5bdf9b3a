// Moderated variances and Student's t tail (see variance_prior.h).

#include "etbench/stats/variance_prior.h"

#include <cmath>
#include <limits>

#include "etbench/stats/stats.h"

namespace etbench {
namespace {

// ψ''(x), for the Newton step of the trigamma inverse.
double Tetragamma(double x) {
  double acc = 0;
  while (x < 10) {
    acc -= 2 / (x * x * x);
    x += 1;
  }
  const double x2 = x * x;
  return acc - 1 / x2 - 1 / (x2 * x) - 1 / (2 * x2 * x2) + 1 / (6 * x2 * x2 * x2) -
         1 / (6 * x2 * x2 * x2 * x2);
}

// The x with ψ'(x) = y (limma's trigammaInverse, Newton from 0.5 + 1/y).
double TrigammaInverse(double y) {
  if (y > 1e7) return 1 / std::sqrt(y);
  if (y < 1e-6) return 1 / y;
  double x = 0.5 + 1 / y;
  for (int i = 0; i < 50; ++i) {
    const double tri = Trigamma(x);
    const double step = tri * (1 - tri / y) / Tetragamma(x);
    x += step;
    if (-step / x < 1e-8) break;
  }
  return x;
}

}  // namespace

double Digamma(double x) {
  double acc = 0;
  while (x < 10) {
    acc -= 1 / x;
    x += 1;
  }
  const double x2 = x * x;
  return acc + std::log(x) - 1 / (2 * x) - 1 / (12 * x2) + 1 / (120 * x2 * x2) -
         1 / (252 * x2 * x2 * x2);
}

double Trigamma(double x) {
  double acc = 0;
  while (x < 10) {
    acc += 1 / (x * x);
    x += 1;
  }
  const double x2 = x * x;
  return acc + 1 / x + 1 / (2 * x2) + 1 / (6 * x2 * x) - 1 / (30 * x2 * x2 * x) +
         1 / (42 * x2 * x2 * x2 * x);
}

double StudentUpperP(double t, double df) {
  if (std::isnan(t)) return 1;
  if (std::isinf(df)) return NormalSf(t);
  const double two_sided = StudentTwoSidedP(t, df);
  return t >= 0 ? two_sided / 2 : 1 - two_sided / 2;
}

double StudentUpperQuantile(double a, double df) {
  if (std::isinf(df)) return NormalQuantile(1 - a);
  if (a > 0.5) return -StudentUpperQuantile(1 - a, df);
  // Bisection on the monotone tail: 100 halvings of [0, 1e6] resolve far
  // below any threshold this is compared with.
  double lo = 0, hi = 1e6;
  for (int i = 0; i < 100; ++i) {
    const double mid = (lo + hi) / 2;
    (StudentUpperP(mid, df) > a ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

VariancePrior FitVariancePrior(const std::vector<double>& s2, const std::vector<double>& df) {
  // e = log s² − ψ(d/2) + log(d/2) has mean log s0² − ψ(d0/2) + log(d0/2)
  // and variance ψ'(d/2) + ψ'(d0/2).
  std::vector<double> e, d;
  for (std::size_t i = 0; i < s2.size() && i < df.size(); ++i) {
    if (!(s2[i] > 0) || !(df[i] > 0) || !std::isfinite(s2[i])) continue;
    e.push_back(std::log(s2[i]) - Digamma(df[i] / 2) + std::log(df[i] / 2));
    d.push_back(df[i]);
  }
  VariancePrior prior;
  if (e.size() < 3) return prior;
  const double n = static_cast<double>(e.size());
  double mean = 0;
  for (double v : e) mean += v / n;
  double var = 0, expected = 0;
  for (std::size_t i = 0; i < e.size(); ++i) {
    var += (e[i] - mean) * (e[i] - mean) / (n - 1);
    expected += Trigamma(d[i] / 2) / n;
  }
  const double excess = var - expected;
  if (excess > 0) {
    prior.d0 = 2 * TrigammaInverse(excess);
    prior.s0_squared = std::exp(mean + Digamma(prior.d0 / 2) - std::log(prior.d0 / 2));
  } else {
    prior.d0 = std::numeric_limits<double>::infinity();
    prior.s0_squared = std::exp(mean);
  }
  return prior;
}

double ModeratedVariance(const VariancePrior& prior, double s2, double df) {
  if (std::isinf(prior.d0)) return prior.s0_squared;
  if (!(prior.d0 > 0)) return s2;
  return (prior.d0 * prior.s0_squared + df * s2) / (prior.d0 + df);
}

}  // namespace etbench
