#include "etbench/history/history_workflow.h"

#include <gtest/gtest.h>

#include "etbench/results/results.h"

#include "history_test_util.h"
#include "support/test_support.h"

namespace etbench::history {
namespace {

using testing::MakeSyntheticResults;
using testing::SyntheticRun;

// 24 runs of the synthetic model; the relu 5% slower from run 13 on: 0.8% of
// Method::execute, which does not move by its 2%.
std::string HistoryWithASmallReluStep(testing::TempDir& dir) {
  const std::string spec = dir.File("history.db");
  auto store = OpenHistory(spec);
  EXPECT_TRUE(store.ok());
  for (int i = 1; i <= 24; ++i) {
    SyntheticRun run;
    run.index = i;
    run.relu_factor = i >= 13 ? 1.05 : 1.0;
    auto added = store.value()->AddRun(
        MakeRunRecord(MakeSyntheticResults(run), "r" + std::to_string(i) + ".json"));
    EXPECT_TRUE(added.ok());
  }
  return spec;
}

TEST(HistoryWorkflowTest, DetectLeavesOutAPartsChangeTooSmallEndToEnd) {
  testing::TempDir dir;
  auto store = OpenHistory(HistoryWithASmallReluStep(dir));
  ASSERT_TRUE(store.ok());
  auto groups = DetectAll(*store.value(), RunFilter{}, "", DetectOptions{});
  ASSERT_TRUE(groups.ok());
  ASSERT_EQ(groups->size(), 1u);
  const Detection& d = groups->front().detection;
  EXPECT_TRUE(d.change_points.empty());
  ASSERT_EQ(d.parts_not_counted.size(), 1u);
  EXPECT_EQ(d.parts_not_counted[0].label, "net/Execute/native_call_relu.out#1");
  EXPECT_EQ(d.parts_not_counted[0].index, 12u);  // run 13
}

TEST(HistoryWorkflowTest, TheGatesStableSegmentStartsAtAPartsChangeToo) {
  // The gate judges the relu on its own: a baseline of both its levels
  // would leave it inconclusive, so the segment starts at run 13.
  testing::TempDir dir;
  auto baseline = BaselineForSuite(HistoryWithASmallReluStep(dir), "default");
  ASSERT_TRUE(baseline.ok()) << baseline.error().message;
  EXPECT_EQ(baseline->runs_available, 24u);
  EXPECT_EQ(baseline->runs_used, 12u);
  EXPECT_EQ(baseline->first_commit, "c13");
  EXPECT_NE(baseline->note.find("since the change point at c13"), std::string::npos)
      << baseline->note;
}

TEST(HistoryWorkflowTest, TheNightlyGatesNightsSpanAPartsChangeTooSmallEndToEnd) {
  // The nightly gate counts parts as detect does: the relu's 0.8% of
  // Method::execute does not restart its nights; --every-part does.
  testing::TempDir dir;
  const std::string spec = HistoryWithASmallReluStep(dir);
  SyntheticRun last;
  last.index = 24;
  const MetricSet candidate = results::ToMetricSet(MakeSyntheticResults(last));
  auto nights = BaselineForCandidate(spec, candidate);
  ASSERT_TRUE(nights.ok()) << nights.error().message;
  EXPECT_EQ(nights->runs_used, 24u);
  ASSERT_EQ(nights->nights.size(), 24u);
  EXPECT_EQ(ContextValue(nights->nights.front(), "git_commit"), "c1");  // oldest first
  EXPECT_EQ(ContextValue(nights->nights.back(), "git_commit"), "c24");
  auto every = BaselineForCandidate(spec, candidate, DefaultThresholds(), /*every_part=*/true);
  ASSERT_TRUE(every.ok());
  EXPECT_EQ(every->runs_used, 12u);
  EXPECT_EQ(every->nights.size(), 12u);
}

}  // namespace
}  // namespace etbench::history
