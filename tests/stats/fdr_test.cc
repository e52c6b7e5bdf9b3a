#include "etbench/stats/fdr.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "etbench/stats/stats.h"

namespace etbench {
namespace {

TEST(BenjaminiHochbergTest, MatchesHandComputedValues) {
  // Sorted: 0.005 (rank 1) → 0.025, 0.01 → 0.025, 0.03 → 0.05, 0.04 → 0.05,
  // 0.20 → 0.20; step-up keeps the running minimum from the top.
  const auto adj = BenjaminiHochberg({0.01, 0.04, 0.03, 0.005, 0.20});
  ASSERT_EQ(adj.size(), 5u);
  EXPECT_NEAR(adj[0], 0.025, 1e-15);
  EXPECT_NEAR(adj[1], 0.05, 1e-15);
  EXPECT_NEAR(adj[2], 0.05, 1e-15);
  EXPECT_NEAR(adj[3], 0.025, 1e-15);
  EXPECT_NEAR(adj[4], 0.20, 1e-15);
}

TEST(BenjaminiHochbergTest, CapsAtOneAndTreatsNanAsOne) {
  // Ranks: 0.01 → 0.03, 0.02 → min(0.03, 1) = 0.03, NaN (as 1) → 1.
  const auto adj = BenjaminiHochberg({0.01, NAN, 0.02});
  EXPECT_NEAR(adj[0], 0.03, 1e-15);
  EXPECT_DOUBLE_EQ(adj[1], 1.0);
  EXPECT_NEAR(adj[2], 0.03, 1e-15);
  EXPECT_DOUBLE_EQ(BenjaminiHochberg({0.9, 0.5})[0], 0.9);
  EXPECT_TRUE(BenjaminiHochberg({}).empty());
}

TEST(BenjaminiHochbergTest, SingleTestIsUnadjusted) {
  EXPECT_DOUBLE_EQ(BenjaminiHochberg({0.03})[0], 0.03);
}

TEST(OptimalWeightsTest, EqualPowerGivesEqualWeights) {
  for (double w : OptimalWeights({4, 4, 4}, 0.02)) EXPECT_NEAR(w, 1.0, 1e-9);
  EXPECT_TRUE(OptimalWeights({}, 0.02).empty());
}

TEST(OptimalWeightsTest, SatisfyRoederWassermanStationarity) {
  // Without a binding floor, every weight solves α·w/m = Φ̄(ξ/2 + c/ξ) for
  // one c: (t − ξ/2)·ξ is the same for all metrics, t = Φ̄⁻¹(α·w/m).
  const std::vector<double> d = {2.5, 3.5, 4.0, 5.0, 6.0};
  const auto w = OptimalWeights(d, 0.02, /*floor=*/0);
  double mean = 0;
  for (double x : w) mean += x / static_cast<double>(w.size());
  EXPECT_NEAR(mean, 1.0, 1e-12);
  const double alpha = 0.01, m = static_cast<double>(d.size());
  std::vector<double> c;
  for (std::size_t i = 0; i < d.size(); ++i) {
    const double xi = 1.2247448713915890 * d[i];
    const double t = NormalQuantile(1 - alpha * w[i] / m);
    c.push_back((t - xi / 2) * xi);
  }
  for (double value : c) EXPECT_NEAR(value, c.front(), 1e-6);
}

TEST(OptimalWeightsTest, FavourMetricsWhereTheLevelDecides) {
  // 200 metrics (a level near 5e-5 each): d = 1 cannot see a threshold-sized
  // change; d = 4 sees it only with weight; d = 12 sees it at any level.
  // The middle group gets the most.
  std::vector<double> d(200, 1.0);
  for (int i = 80; i < 120; ++i) d[i] = 4;
  for (int i = 120; i < 200; ++i) d[i] = 12;
  const auto w = OptimalWeights(d, 0.02);
  EXPECT_GT(w[100], 2.0);
  EXPECT_LT(w[0], 0.2);
  EXPECT_LT(w[199], 0.2);
  double total = 0;
  for (double x : w) total += x;
  EXPECT_NEAR(total, 200.0, 1e-9);
  for (double x : w) EXPECT_GT(x, 0.04);  // the floor, after rescaling
}

TEST(OptimalWeightsTest, NanAndInfiniteGetTheFloor) {
  const auto w = OptimalWeights({NAN, 4, INFINITY, 4}, 0.02, 0.05);
  EXPECT_DOUBLE_EQ(w[0], w[2]);
  EXPECT_DOUBLE_EQ(w[1], w[3]);
  EXPECT_NEAR(w[0] / w[1], 0.025, 1e-12);  // floor vs m/2 before rescaling
  EXPECT_NEAR(w[0] + w[1] + w[2] + w[3], 4.0, 1e-12);
}

}  // namespace
}  // namespace etbench
