#include "etbench/stats/rank_shift.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

namespace etbench {
namespace {

TEST(RankShiftTest, SeparatedSamplesOfThreeHaveTheExactAnswers) {
  // D = y − x: 1, 2, 2, 3, 3, 3, 4, 4, 5; U = 9 of C(6, 3) = 20 orders.
  const PairwiseDifferences d({1, 2, 3}, {4, 5, 6});
  const RankShiftDistribution null(3, 3);
  const RankShiftInference r = RankShift(d, null);
  EXPECT_DOUBLE_EQ(r.estimate, 3);
  EXPECT_DOUBLE_EQ(r.p_value, 0.1);  // scipy.stats.mannwhitneyu, method='exact'
  // U counts 1, 1, 2, 3, 3, 3, 3, 2, 1, 1: 2·F(1) = 0.2 ≤ 0.2 < 2·F(2) = 0.4,
  // so k = 2 and the 80% interval is [D(2), D(8)].
  const auto ci = RankShiftInterval(d, null, 0.2);
  EXPECT_DOUBLE_EQ(ci.first, 2);
  EXPECT_DOUBLE_EQ(ci.second, 4);
  // p = 0.1: the 90% interval [D(1), D(9)] excludes 0, the 95% one is unbounded.
  const auto ci90 = RankShiftInterval(d, null, 0.1);
  EXPECT_DOUBLE_EQ(ci90.first, 1);
  EXPECT_DOUBLE_EQ(ci90.second, 5);
  EXPECT_TRUE(std::isinf(RankShiftInterval(d, null, 0.05).first));
}

TEST(RankShiftTest, ExactDistributionAndSmallestP) {
  const RankShiftDistribution null(3, 3);
  EXPECT_DOUBLE_EQ(null.Cdf(-1), 0);
  EXPECT_DOUBLE_EQ(null.Cdf(0), 0.05);
  EXPECT_DOUBLE_EQ(null.Cdf(2), 0.2);
  EXPECT_DOUBLE_EQ(null.Cdf(9), 1);
  EXPECT_DOUBLE_EQ(SmallestTwoSidedP(3, 3), 0.1);
  EXPECT_DOUBLE_EQ(SmallestTwoSidedP(1, 1), 1);
  EXPECT_DOUBLE_EQ(SmallestTwoSidedP(1, 19), 0.1);
  // 2 / C(2n, n) ≤ 0.01: C(8, 4) = 70 is too few, C(10, 5) = 252 enough.
  EXPECT_EQ(ClustersPerSideNeeded(0.01), 5u);
  EXPECT_EQ(ClustersPerSideNeeded(0.1), 3u);
  EXPECT_EQ(ClustersPerSideNeeded(0.005), 6u);
  // The normal approximation beyond the exact sizes stays a monotone CDF.
  const RankShiftDistribution big(30, 40);
  double last = 0;
  for (int u = 0; u <= 1200; u += 7) {
    EXPECT_GE(big.Cdf(u), last);
    last = big.Cdf(u);
  }
  EXPECT_NEAR(big.Cdf(600), 0.5, 0.01);
}

// Select and the counts against the materialized, sorted differences,
// with ties (coarse values) and without.
TEST(RankShiftTest, SelectionAndCountsMatchBruteForce) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 60; ++trial) {
    const std::size_t m = 1 + rng() % 40, n = 1 + rng() % 40;
    const bool coarse = trial % 2 == 0;
    std::uniform_real_distribution<double> u(0, 10);
    auto draw = [&](std::size_t k) {
      std::vector<double> v(k);
      for (double& x : v) x = coarse ? std::floor(u(rng)) : u(rng);
      std::sort(v.begin(), v.end());
      return v;
    };
    const std::vector<double> x = draw(m), y = draw(n);
    std::vector<double> all;
    for (double b : y) {
      for (double a : x) all.push_back(b - a);
    }
    std::sort(all.begin(), all.end());
    const PairwiseDifferences d(x, y);
    ASSERT_EQ(d.size(), all.size());
    for (std::size_t k = 1; k <= all.size(); k += 1 + all.size() / 37) {
      EXPECT_EQ(d.Select(k), all[k - 1]) << "k=" << k << " m=" << m << " n=" << n;
    }
    EXPECT_EQ(d.Select(all.size()), all.back());
    const std::size_t total = all.size();
    EXPECT_EQ(d.Median(), total % 2 ? all[total / 2] : 0.5 * (all[total / 2 - 1] + all[total / 2]));
    const double v = all[total / 3];
    const auto above = std::upper_bound(all.begin(), all.end(), v);
    if (above != all.end()) {
      EXPECT_EQ(d.Next(v), *above);
    } else {
      EXPECT_TRUE(std::isinf(d.Next(v)));
    }
    for (double t : {-3.0, 0.0, 0.5, 2.0}) {
      EXPECT_EQ(d.CountAtMost(t),
                static_cast<std::size_t>(std::upper_bound(all.begin(), all.end(), t) - all.begin()));
      EXPECT_EQ(d.CountAtLeast(t),
                static_cast<std::size_t>(all.end() - std::lower_bound(all.begin(), all.end(), t)));
    }
  }
}

// The contract: the 1 − a interval excludes 0 exactly when p ≤ a, for any
// data and level, exact or approximate distribution, with ties.
TEST(RankShiftTest, IntervalExcludesZeroExactlyWhenPIsAtMostItsLevel) {
  std::mt19937_64 rng(11);
  int excluded = 0, contained = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const std::size_t m = 1 + rng() % 30, n = 1 + rng() % 30;
    std::normal_distribution<double> noise(0, 1);
    const double shift = (static_cast<double>(rng() % 9) - 4) * 0.4;
    const double grain = trial % 3 == 0 ? 0.5 : 0;
    auto draw = [&](std::size_t k, double mean) {
      std::vector<double> v(k);
      for (double& x : v) {
        x = mean + noise(rng);
        if (grain > 0) x = grain * std::round(x / grain);
      }
      std::sort(v.begin(), v.end());
      return v;
    };
    const PairwiseDifferences d(draw(m, 0), draw(n, shift));
    const RankShiftDistribution null(m, n);
    const double p = RankShift(d, null).p_value;
    const double a = std::vector<double>{0.001, 0.01, 0.05, 0.1, 0.2, p}[rng() % 6];
    if (a >= 1) continue;  // a 0% interval: nothing to check
    const auto ci = RankShiftInterval(d, null, a);
    const bool excludes = ci.first > 0 || ci.second < 0;
    ASSERT_EQ(excludes, p <= a) << "m=" << m << " n=" << n << " a=" << a << " p=" << p
                                << " ci=[" << ci.first << ", " << ci.second << "]";
    (excludes ? excluded : contained) += 1;
    if (std::isfinite(ci.first)) {
      const double estimate = RankShift(d, null).estimate;
      EXPECT_LE(ci.first, estimate);
      EXPECT_GE(ci.second, estimate);
    }
  }
  // Both sides of the equivalence were exercised.
  EXPECT_GT(excluded, 300);
  EXPECT_GT(contained, 300);
}

}  // namespace
}  // namespace etbench
