// The studentized, order-balanced first look (see sequential_fast_look.h
// and docs/comparison.md, "The fast look").

#include "etbench/compare/sequential_fast_look.h"

#include <cmath>
#include <limits>

#include "etbench/stats/stats.h"
#include "etbench/stats/variance_prior.h"

namespace etbench {

bool FastLookOrdersBalanced(const std::vector<bool>& a_first) {
  std::size_t abba = 0;
  for (bool first : a_first) abba += first ? 1 : 0;
  return abba >= kFastLookBlocksPerOrder && a_first.size() - abba >= kFastLookBlocksPerOrder;
}

StudentizedLook OrderBalancedT(const std::vector<BlockContrast>& blocks) {
  StudentizedLook out;
  const std::size_t k = blocks.size();
  double sum[2] = {0, 0};
  std::size_t n[2] = {0, 0};
  double within = 0;
  for (const BlockContrast& b : blocks) {
    sum[b.a_first ? 0 : 1] += b.difference;
    ++n[b.a_first ? 0 : 1];
    within += b.within_a * b.within_a + b.within_b * b.within_b;
  }
  if (n[0] < kFastLookBlocksPerOrder || n[1] < kFastLookBlocksPerOrder) return out;
  const double mean[2] = {sum[0] / static_cast<double>(n[0]), sum[1] / static_cast<double>(n[1])};
  out.estimate = 0.5 * (mean[0] + mean[1]);
  const double order_effect = 0.5 * (mean[0] - mean[1]);
  // A pair of runs of one side differs by twice a run's variance; a block
  // difference (two runs against two) has exactly a run's variance.
  const double var_within = within / (2.0 * 2.0 * static_cast<double>(k));
  double residual = 0;
  bool same_sign = out.estimate != 0;
  for (const BlockContrast& b : blocks) {
    const double r = b.difference - mean[b.a_first ? 0 : 1];
    residual += r * r;
    const double corrected = b.difference - (b.a_first ? order_effect : -order_effect);
    same_sign = same_sign && corrected * out.estimate > 0;
  }
  const double var_residual = k > 2 ? residual / static_cast<double>(k - 2) : 0;
  const double var = std::max(var_within, var_residual);
  out.se = std::sqrt(var) * 0.5 *
           std::sqrt(1.0 / static_cast<double>(n[0]) + 1.0 / static_cast<double>(n[1]));
  out.df = 2.0 * static_cast<double>(k);
  if (!(out.se > 0) || !std::isfinite(out.se) || !same_sign) return out;
  out.usable = true;
  out.p_value = StudentTwoSidedP(out.estimate / out.se, out.df);
  return out;
}

std::pair<double, double> StudentizedInterval(const StudentizedLook& look, double a, double weight) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const double level = a * weight;
  if (!look.usable || !(level > 0) || level >= 1) return {-kInf, kInf};
  const double q = StudentUpperQuantile(level / 2, look.df);
  double low = look.estimate - q * look.se, high = look.estimate + q * look.se;
  // The interval and the p-value come from one t, but through a quantile
  // and a tail probability computed apart: make "excludes 0" follow the
  // p-value's own comparison, as the signed-rank looks do.
  const bool rejects = look.p_value / weight <= a;
  const bool excludes = low > 0 || high < 0;
  if (rejects && !excludes) {
    if (look.estimate > 0) {
      low = std::numeric_limits<double>::denorm_min();
    } else {
      high = -std::numeric_limits<double>::denorm_min();
    }
  } else if (!rejects && excludes) {
    if (low > 0) low = 0;
    if (high < 0) high = 0;
  }
  return {low, high};
}

}  // namespace etbench
