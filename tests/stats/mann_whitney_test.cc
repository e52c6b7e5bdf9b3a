#include "etbench/stats/mann_whitney.h"

#include <gtest/gtest.h>

namespace etbench {
namespace {

// Expected values computed by enumerating every rank assignment (exact) or
// from the textbook formula (asymptotic), independently of this code.
TEST(MannWhitneyTest, ExactCompleteSeparation) {
  const auto r = MannWhitneyUUnsorted({1, 2, 3, 4, 5}, {6, 7, 8, 9, 10});
  EXPECT_TRUE(r.exact);
  EXPECT_DOUBLE_EQ(r.u, 25);
  EXPECT_DOUBLE_EQ(r.prob_superiority, 1.0);
  EXPECT_NEAR(r.p_value, 2.0 / 252.0, 1e-15);
}

TEST(MannWhitneyTest, ExactInterleavedAndUnequalSizes) {
  auto r = MannWhitneyUUnsorted({1, 3, 5, 7, 9}, {2, 4, 6, 8, 10});
  EXPECT_DOUBLE_EQ(r.u, 15);
  EXPECT_NEAR(r.p_value, 0.6904761904761905, 1e-14);
  r = MannWhitneyUUnsorted({4.4, 1.1, 3.3, 2.2}, {9.9, 2.5, 5.5, 6.6, 7.7, 8.8});
  EXPECT_TRUE(r.exact);
  EXPECT_DOUBLE_EQ(r.u, 22);
  EXPECT_NEAR(r.p_value, 0.0380952380952381, 1e-14);
}

TEST(MannWhitneyTest, TiesUseTheCorrectedNormalApproximation) {
  const auto r = MannWhitneyUUnsorted({1, 2, 2, 3, 3, 3, 4}, {2, 3, 3, 4, 4, 5, 5, 6});
  EXPECT_FALSE(r.exact);
  EXPECT_DOUBLE_EQ(r.u, 45);
  EXPECT_NEAR(r.p_value, 0.049884436979925915, 1e-12);
  // Two constant groups: every value tied within its group.
  const auto c = MannWhitneyUUnsorted({1, 1, 1, 1, 1}, {2, 2, 2, 2, 2});
  EXPECT_DOUBLE_EQ(c.u, 25);
  EXPECT_NEAR(c.p_value, 0.003976751709788652, 1e-12);
}

TEST(MannWhitneyTest, LargeSamplesUseTheNormalApproximation) {
  std::vector<double> a, b;
  for (int i = 1; i <= 30; ++i) {
    a.push_back(i);
    b.push_back(i + 5.5);
  }
  const auto r = MannWhitneyUUnsorted(a, b);
  EXPECT_FALSE(r.exact);
  EXPECT_DOUBLE_EQ(r.u, 600);
  EXPECT_NEAR(r.p_value, 0.02708631838829596, 1e-12);
}

TEST(MannWhitneyTest, IdenticalOrEmptySamplesGiveNoEvidence) {
  EXPECT_DOUBLE_EQ(MannWhitneyUUnsorted({5, 5, 5, 5, 5, 5}, {5, 5, 5, 5, 5, 5}).p_value, 1.0);
  EXPECT_DOUBLE_EQ(MannWhitneyUUnsorted({}, {1, 2}).p_value, 1.0);
  EXPECT_DOUBLE_EQ(MannWhitneyUUnsorted({1, 2, 3}, {1, 2, 3}).p_value, 1.0);
}

TEST(MannWhitneyTest, SymmetricInTheSamples) {
  const auto ab = MannWhitneyUUnsorted({1, 2, 2.5, 7}, {3, 4, 5, 6, 8});
  const auto ba = MannWhitneyUUnsorted({3, 4, 5, 6, 8}, {1, 2, 2.5, 7});
  EXPECT_DOUBLE_EQ(ab.p_value, ba.p_value);
  EXPECT_DOUBLE_EQ(ab.u + ba.u, 20);
}

}  // namespace
}  // namespace etbench
