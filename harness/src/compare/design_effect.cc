// Run-to-run clustering: the design effect of repetitions.

#include "etbench/harness/design_effect.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "etbench/harness/stats.h"

namespace etbench {
namespace {

// Midranks (1-based) of the pooled samples, baseline first.
std::vector<double> PooledRanks(const std::vector<double>& a, const std::vector<double>& b) {
  const std::size_t n = a.size() + b.size();
  std::vector<double> values(a);
  values.insert(values.end(), b.begin(), b.end());
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&values](std::size_t x, std::size_t y) { return values[x] < values[y]; });
  std::vector<double> ranks(n);
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j + 1 < n && values[order[j + 1]] == values[order[i]]) ++j;
    const double midrank = (static_cast<double>(i) + static_cast<double>(j)) / 2 + 1;
    for (std::size_t k = i; k <= j; ++k) ranks[order[k]] = midrank;
    i = j + 1;
  }
  return ranks;
}

bool Usable(const std::vector<double>& samples, const std::vector<uint64_t>& groups) {
  if (groups.size() < 2) return false;
  uint64_t sum = 0;
  for (uint64_t g : groups) sum += g;
  return sum == samples.size();
}

struct Anova {
  double ssb = 0, ssw = 0;
  double df_between = 0, df_within = 0;
  double samples = 0, groups = 0;
};

// Adds one side's between- and within-repetition sums of squares.
void AddSide(const double* ranks, const std::vector<uint64_t>& groups, Anova* a) {
  double total = 0, n = 0;
  for (uint64_t g : groups) n += static_cast<double>(g);
  for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) total += ranks[i];
  const double side_mean = total / n;
  std::size_t at = 0;
  for (uint64_t g : groups) {
    double sum = 0;
    for (std::size_t i = 0; i < g; ++i) sum += ranks[at + i];
    const double mean = sum / static_cast<double>(g);
    for (std::size_t i = 0; i < g; ++i) a->ssw += (ranks[at + i] - mean) * (ranks[at + i] - mean);
    a->ssb += static_cast<double>(g) * (mean - side_mean) * (mean - side_mean);
    at += g;
  }
  a->df_between += static_cast<double>(groups.size()) - 1;
  a->df_within += n - static_cast<double>(groups.size());
  a->samples += n;
  a->groups += static_cast<double>(groups.size());
}

}  // namespace

DesignEffect EstimateDesignEffect(const std::vector<double>& baseline,
                                  const std::vector<uint64_t>& baseline_groups,
                                  const std::vector<double>& candidate,
                                  const std::vector<uint64_t>& candidate_groups) {
  DesignEffect out;
  const bool use_b = Usable(baseline, baseline_groups);
  const bool use_c = Usable(candidate, candidate_groups);
  if (!use_b && !use_c) return out;
  const std::vector<double> ranks = PooledRanks(baseline, candidate);
  Anova a;
  if (use_b) AddSide(ranks.data(), baseline_groups, &a);
  if (use_c) AddSide(ranks.data() + baseline.size(), candidate_groups, &a);
  out.groups = static_cast<std::size_t>(a.groups);
  if (a.df_between <= 0 || a.df_within <= 0) return out;
  const double msb = a.ssb / a.df_between;
  const double msw = a.ssw / a.df_within;
  // The usual n0 for unequal groups is close to the mean group size here.
  const double k = a.samples / a.groups;
  const double denominator = msb + (k - 1) * msw;
  out.icc = denominator > 0 ? std::clamp((msb - msw) / denominator, 0.0, 1.0) : 0.0;
  auto side_effect = [&](bool used, const std::vector<double>& samples,
                         const std::vector<uint64_t>& groups) {
    if (!used) return 1.0;
    const double mean_group = static_cast<double>(samples.size()) / static_cast<double>(groups.size());
    return 1 + (mean_group - 1) * out.icc;
  };
  const double nb = static_cast<double>(baseline.size());
  const double nc = static_cast<double>(candidate.size());
  const double db = side_effect(use_b, baseline, baseline_groups);
  const double dc = side_effect(use_c, candidate, candidate_groups);
  out.factor = (db / nb + dc / nc) / (1 / nb + 1 / nc);
  return out;
}

double InflateTwoSidedP(double p, double factor) {
  if (!(factor > 1) || !(p < 1) || std::isnan(p)) return p;
  // The lower tail keeps its precision for tiny p; an underflowed p is
  // beyond 38 standard deviations.
  const double z = p > 0 ? -NormalQuantile(p / 2) : 38.0;
  return std::min(1.0, 2 * NormalSf(z / std::sqrt(factor)));
}

}  // namespace etbench
