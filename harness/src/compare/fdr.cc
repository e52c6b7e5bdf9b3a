// Benjamini–Hochberg step-up adjustment.

#include "etbench/harness/fdr.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "etbench/harness/stats.h"

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

std::vector<double> PowerWeights(const std::vector<double>& threshold_in_se, double q,
                                 double floor) {
  const std::size_t m = threshold_in_se.size();
  std::vector<double> weights(m, 1.0);
  if (m == 0) return weights;
  const double z = NormalQuantile(1 - q / (2.0 * static_cast<double>(m)));
  double total = 0;
  for (std::size_t i = 0; i < m; ++i) {
    const double d = threshold_in_se[i];
    const double power = std::isnan(d) ? floor : (std::isinf(d) ? 1.0 : NormalSf(z - d));
    weights[i] = std::max(floor, power);
    total += weights[i];
  }
  for (double& w : weights) w *= static_cast<double>(m) / total;
  return weights;
}

}  // namespace etbench
