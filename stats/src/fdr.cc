// Benjamini–Hochberg step-up adjustment.

#include "etbench/stats/fdr.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "etbench/stats/stats.h"

namespace etbench {

std::vector<double> BenjaminiHochberg(const std::vector<double>& p_values) {
  const std::size_t m = p_values.size();
  std::vector<double> adjusted(m);
  if (m == 0) return adjusted;
  auto value = [&](std::size_t i) {
    const double p = p_values[i];
    return std::isnan(p) ? 1.0 : std::clamp(p, 0.0, 1.0);
  };
  std::vector<std::size_t> order(m);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return value(a) < value(b); });
  double running = 1.0;
  for (std::size_t rank = m; rank >= 1; --rank) {
    const std::size_t i = order[rank - 1];
    running = std::min(running, value(i) * static_cast<double>(m) / static_cast<double>(rank));
    adjusted[i] = running;
  }
  return adjusted;
}

std::vector<double> WeightedBenjaminiHochberg(const std::vector<double>& p_values,
                                              std::vector<double> weights) {
  const std::size_t m = p_values.size();
  double total = 0;
  for (double w : weights) total += w;
  std::vector<double> scaled(m);
  for (std::size_t i = 0; i < m; ++i) {
    const double w = total > 0 ? weights[i] * static_cast<double>(m) / total : 1.0;
    const double p = std::isnan(p_values[i]) ? 1.0 : p_values[i];
    scaled[i] = w > 0 ? std::min(1.0, p / w) : 1.0;
  }
  return BenjaminiHochberg(scaled);
}

std::vector<double> OptimalWeights(const std::vector<double>& threshold_in_se, double q,
                                   double floor) {
  const std::size_t m = threshold_in_se.size();
  std::vector<double> weights(m, floor);
  if (m == 0) return weights;
  // Mann–Whitney's z per standard error of the median (normal data).
  constexpr double kEfficiency = 1.2247448713915890;  // sqrt(3/pi) * sqrt(pi/2)
  std::vector<double> xi;
  std::vector<std::size_t> index;
  for (std::size_t i = 0; i < m; ++i) {
    const double d = threshold_in_se[i];
    if (std::isfinite(d) && d > 0) {
      xi.push_back(kEfficiency * d);
      index.push_back(i);
    }
  }
  const double alpha = q / 2;
  // Σ Φ̄(ξ/2 + c/ξ) falls from |ξ| to 0 as c grows: bisect for α.
  auto mass = [&](double c) {
    double sum = 0;
    for (double x : xi) sum += NormalSf(x / 2 + c / x);
    return sum;
  };
  if (!xi.empty() && mass(-1e6) > alpha) {
    double lo = -1e6, hi = 1e6;
    for (int iteration = 0; iteration < 200 && hi - lo > 1e-12 * (1 + std::abs(lo)); ++iteration) {
      const double mid = (lo + hi) / 2;
      (mass(mid) > alpha ? lo : hi) = mid;
    }
    const double c = (lo + hi) / 2;
    for (std::size_t k = 0; k < xi.size(); ++k) {
      const double w = static_cast<double>(m) / alpha * NormalSf(xi[k] / 2 + c / xi[k]);
      weights[index[k]] = std::max(floor, w);
    }
  }
  double total = 0;
  for (double w : weights) total += w;
  for (double& w : weights) w *= static_cast<double>(m) / total;
  return weights;
}

double BenjaminiHochbergLevel(const std::vector<double>& adjusted, double q) {
  std::size_t rejected = 0;
  for (double a : adjusted) rejected += a <= q;
  const double m = static_cast<double>(std::max<std::size_t>(1, adjusted.size()));
  return q * static_cast<double>(std::max<std::size_t>(1, rejected)) / m;
}

}  // namespace etbench
