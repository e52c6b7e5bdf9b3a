#include "etbench/history/change_points.h"

#include <gtest/gtest.h>

#include "support/test_support.h"

namespace etbench::history {
namespace {

std::vector<double> Stepped(std::size_t n, std::size_t at, double factor, double cv,
                            uint64_t seed) {
  std::vector<double> v = testing::LogNormalSamples(n, 1.0, cv, seed);
  for (std::size_t i = at; i < n; ++i) v[i] *= factor;
  return v;
}

TEST(HistoryChangePointsTest, FlatNoisySeriesHasNoChangePoint) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    EXPECT_TRUE(FindChangePoints(testing::LogNormalSamples(100, 1.0, 0.03, seed), 0.001, 3).empty())
        << "seed " << seed;
  }
}

TEST(HistoryChangePointsTest, FivePercentStepIsFoundWhereItHappened) {
  const std::vector<double> v = Stepped(40, 25, 1.05, 0.01, 3);
  const auto found = FindChangePoints(v, 0.001, 3);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NEAR(static_cast<double>(found[0].index), 25, 1);
  EXPECT_LT(found[0].p_value, 1e-6);
}

TEST(HistoryChangePointsTest, StepThreeRunsBeforeTheEndIsAlreadyFound) {
  const auto found = FindChangePoints(Stepped(28, 25, 1.05, 0.01, 5), 0.001, 3);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].index, 25u);
}

TEST(HistoryChangePointsTest, TwoStepsAreBothFound) {
  std::vector<double> v = Stepped(90, 30, 1.10, 0.01, 9);
  for (std::size_t i = 60; i < v.size(); ++i) v[i] *= 0.85;
  const auto found = FindChangePoints(v, 0.001, 3);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_NEAR(static_cast<double>(found[0].index), 30, 1);
  EXPECT_NEAR(static_cast<double>(found[1].index), 60, 1);
}

TEST(HistoryChangePointsTest, SeriesTooShortForTwoSegmentsIsNotTested) {
  const SplitTest t = BestSplit({1, 1, 2, 2, 2}, 0, 5, 3);
  EXPECT_DOUBLE_EQ(t.p_value, 1.0);
}

TEST(HistoryChangePointsTest, ConstantSeriesWithAStepInBytesIsAChange) {
  std::vector<double> v(20, 4096.0);
  for (std::size_t i = 12; i < v.size(); ++i) v[i] = 8192.0;
  const auto found = FindChangePoints(v, 0.001, 3);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].index, 12u);
}

TEST(HistoryChangePointsTest, ALevelIsNewOnlyBeyondEveryEarlierSegmentInItsDirection) {
  // 15.8 → 19 (new) → 15.8 (shown before) → 19 (shown before) → 23 (new).
  const std::vector<double> levels{15.8, 19.0, 15.8, 19.0, 23.0};
  EXPECT_TRUE(IsNewLevel(levels, 1, 0.01));
  EXPECT_FALSE(IsNewLevel(levels, 2, 0.01));
  EXPECT_FALSE(IsNewLevel(levels, 3, 0.01));
  EXPECT_TRUE(IsNewLevel(levels, 4, 0.01));
  // Within min_change of an earlier level is that level; faster than every
  // earlier level is new.
  EXPECT_FALSE(IsNewLevel({10.0, 9.0, 10.05}, 2, 0.01));
  EXPECT_TRUE(IsNewLevel({10.0, 9.0, 10.2}, 2, 0.01));
  EXPECT_TRUE(IsNewLevel({10.0, 11.0, 9.5}, 2, 0.01));
  EXPECT_FALSE(IsNewLevel({10.0, 11.0, 9.95}, 2, 0.01));
  EXPECT_FALSE(IsNewLevel(levels, 0, 0.01));  // the first segment has no change
}

}  // namespace
}  // namespace etbench::history
