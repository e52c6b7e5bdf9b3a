#include "etbench/stats/stats.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace etbench {
namespace {

TEST(StatsTest, NormalQuantileMatchesKnownValues) {
  EXPECT_NEAR(NormalQuantile(0.975), 1.959963984540054, 1e-12);
  EXPECT_NEAR(NormalQuantile(0.5), 0.0, 1e-15);
  EXPECT_NEAR(NormalQuantile(0.8), 0.8416212335729143, 1e-12);
  EXPECT_NEAR(NormalQuantile(1 - 2.5e-5), 4.055626981121907, 1e-9);
  EXPECT_NEAR(NormalSf(1.959963984540054), 0.025, 1e-14);
}

TEST(StatsTest, StudentTMatchesKnownValues) {
  // scipy.stats.t.sf(2.0, 10) * 2 = 0.07338803477074171; for 4 degrees of
  // freedom the closed form is 1 − t(6 + t²)/(4 + t²)^1.5.
  EXPECT_NEAR(StudentTwoSidedP(2.0, 10), 0.07338803477074171, 1e-12);
  const double t = 3.0;
  EXPECT_NEAR(StudentTwoSidedP(-t, 4), 1 - t * (6 + t * t) / std::pow(4 + t * t, 1.5), 1e-13);
  EXPECT_DOUBLE_EQ(StudentTwoSidedP(0.0, 7), 1.0);
  EXPECT_NEAR(StudentTwoSidedP(1.959963984540054, 1e7), 0.05, 1e-6);  // → normal
  EXPECT_DOUBLE_EQ(StudentTwoSidedP(1.0, 0), 1.0);
}

TEST(StatsTest, StatisticsFollowNumpy) {
  const std::vector<double> sorted{1, 2, 3, 4, 10};
  EXPECT_DOUBLE_EQ(ComputeStatistic(sorted, Statistic::kP50), 3);
  EXPECT_DOUBLE_EQ(ComputeStatistic(sorted, Statistic::kP10), 1.4);
  EXPECT_DOUBLE_EQ(ComputeStatistic(sorted, Statistic::kP90), 7.6);
  EXPECT_DOUBLE_EQ(ComputeStatistic(sorted, Statistic::kAvg), 4);
  EXPECT_DOUBLE_EQ(ComputeStatistic(sorted, Statistic::kMin), 1);
  EXPECT_DOUBLE_EQ(ComputeStatistic(sorted, Statistic::kMax), 10);
  EXPECT_DOUBLE_EQ(RobustSigma(sorted), 1.4826);
}

TEST(StatsTest, StatisticNamesRoundTrip) {
  for (Statistic s : {Statistic::kP10, Statistic::kP50, Statistic::kP90, Statistic::kAvg,
                      Statistic::kMin, Statistic::kMax}) {
    EXPECT_EQ(ParseStatistic(StatisticName(s)), s);
  }
  EXPECT_FALSE(ParseStatistic("p99"));
}

}  // namespace
}  // namespace etbench
