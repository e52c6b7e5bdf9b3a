#include "etbench/compare/ab_schedule.h"

#include <gtest/gtest.h>

#include "support/compare_test_util.h"

namespace etbench {
namespace {

TEST(AbScheduleTest, BlocksAreAbbaOrBaabAndSeeded) {
  const auto order = AbbaSchedule(50, 9);
  ASSERT_EQ(order.size(), 200u);
  int abba = 0;
  for (std::size_t i = 0; i < order.size(); i += 4) {
    EXPECT_EQ(order[i], order[i + 3]);
    EXPECT_EQ(order[i + 1], order[i + 2]);
    EXPECT_NE(order[i], order[i + 1]);
    abba += order[i] == AbVariant::kA;
  }
  EXPECT_GT(abba, 10);
  EXPECT_LT(abba, 40);
  EXPECT_EQ(order, AbbaSchedule(50, 9));
  EXPECT_NE(order, AbbaSchedule(50, 10));
}

TEST(AbScheduleTest, MergeConcatenatesSamplesAndKeepsCommonContext) {
  MetricSet a, b;
  a.context = {{"device", "host"}, {"date", "1"}};
  b.context = {{"device", "host"}, {"date", "2"}};
  a.metrics = {testing::EventMetric("native_call_relu.out", 1, {1, 2})};
  b.metrics = {testing::EventMetric("native_call_relu.out", 1, {3}),
               testing::EventMetric("Method::execute", 0, {9}, true)};
  auto merged = MergeMetricSets({a, b});
  ASSERT_TRUE(merged.ok());
  EXPECT_EQ(merged->context, (std::map<std::string, std::string>{{"device", "host"}}));
  ASSERT_EQ(merged->metrics.size(), 2u);
  EXPECT_EQ(merged->metrics[0].samples, (std::vector<double>{1, 2, 3}));
  b.metrics[0].unit = "us";
  EXPECT_FALSE(MergeMetricSets({a, b}).ok());
}

TEST(AbScheduleTest, MergeKeepsEveryPartsGroupsAndSession) {
  MetricSet a, b, c;
  a.metrics = {testing::EventMetric("native_call_relu.out", 1, {1, 2})};
  a.metrics[0].group_sizes = {2};
  b.metrics = {testing::EventMetric("native_call_relu.out", 1, {3, 4, 5})};
  b.metrics[0].group_sizes = {1, 2};
  c.metrics = {testing::EventMetric("native_call_relu.out", 1, {6})};
  auto merged = MergeMetricSets({a, b});
  ASSERT_TRUE(merged.ok());
  EXPECT_EQ(merged->metrics[0].group_sizes, (std::vector<uint64_t>{2, 1, 2}));
  EXPECT_EQ(merged->metrics[0].session_sizes, (std::vector<uint64_t>{1, 2}));  // one per part
  auto twice = MergeMetricSets({*merged, a});
  ASSERT_TRUE(twice.ok());
  EXPECT_EQ(twice->metrics[0].session_sizes, (std::vector<uint64_t>{1, 2, 1}));
  merged = MergeMetricSets({a, c, b});
  ASSERT_TRUE(merged.ok());
  // c has no group sizes: its sample is a group of its own, in a session
  // of its own, and a and b keep theirs (they are not dropped).
  EXPECT_EQ(merged->metrics[0].group_sizes, (std::vector<uint64_t>{2, 1, 1, 2}));
  EXPECT_EQ(merged->metrics[0].session_sizes, (std::vector<uint64_t>{1, 1, 2}));
  EXPECT_EQ(merged->metrics[0].samples.size(), 6u);
  merged = MergeMetricSets({c, c});
  ASSERT_TRUE(merged.ok());
  EXPECT_EQ(merged->metrics[0].group_sizes, (std::vector<uint64_t>{1, 1}));
  EXPECT_EQ(merged->metrics[0].session_sizes, (std::vector<uint64_t>{1, 1}));
}

}  // namespace
}  // namespace etbench
