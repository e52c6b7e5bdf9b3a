#include "etbench/compare/stats.h"

#include <gtest/gtest.h>

#include "etbench/compare/metrics.h"

namespace etbench {
namespace {

TEST(StatsTest, NormalQuantileMatchesKnownValues) {
  EXPECT_NEAR(NormalQuantile(0.975), 1.959963984540054, 1e-12);
  EXPECT_NEAR(NormalQuantile(0.5), 0.0, 1e-15);
  EXPECT_NEAR(NormalQuantile(0.8), 0.8416212335729143, 1e-12);
  EXPECT_NEAR(NormalQuantile(1 - 2.5e-5), 4.055626981121907, 1e-9);
  EXPECT_NEAR(NormalSf(1.959963984540054), 0.025, 1e-14);
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

TEST(MetricKeyTest, OrdersByEveryFieldAndLabelsForPeople) {
  MetricKey a{"toy", "Execute", MetricKind::kEvent, "native_call_convolution.out", 3, "", 0};
  MetricKey b = a;
  b.occurrence = 1;
  EXPECT_TRUE(a < b);
  EXPECT_FALSE(b < a);
  MetricKey c = a;
  c.instruction_id.reset();
  EXPECT_TRUE(c < a);
  EXPECT_EQ(MetricLabel(a), "toy/Execute/native_call_convolution.out#3");
  EXPECT_EQ(MetricLabel(b), "toy/Execute/native_call_convolution.out#3 (occurrence 1)");
  MetricKey alloc{"toy", "Execute", MetricKind::kAllocation, "temp_allocator", {}, "", 0};
  EXPECT_EQ(MetricLabel(alloc), "toy/Execute/allocator:temp_allocator");
  MetricKey bench{"bin", "", MetricKind::kBenchmark, "BM_Foo/8", {}, "", 0};
  EXPECT_EQ(MetricLabel(bench), "bin/BM_Foo/8");
}

}  // namespace
}  // namespace etbench
