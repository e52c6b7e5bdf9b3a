#include "etbench/harness/fdr.h"

#include <gtest/gtest.h>

#include <cmath>

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

}  // namespace
}  // namespace etbench
