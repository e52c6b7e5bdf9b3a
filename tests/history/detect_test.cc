#include "etbench/history/detect.h"

#include <gtest/gtest.h>

#include "history_test_util.h"
#include "support/test_support.h"

namespace etbench::history {
namespace {

// 40 runs of the synthetic model in a real SQLite history; the convolution
// is `factor` slower from run `from` on.
HistoryWindow History(testing::TempDir& dir, double factor, int from, int runs = 40) {
  auto store = OpenHistory(dir.File("h.db"));
  EXPECT_TRUE(store.ok());
  for (int i = 0; i < runs; ++i) {
    testing::SyntheticRun run;
    run.index = i;
    run.conv_factor = i >= from ? factor : 1.0;
    EXPECT_TRUE(*store.value()->AddRun(MakeRunRecord(testing::MakeSyntheticResults(run), "")));
  }
  return store.value()->Load({}, "*", false).value();
}

const ChangePoint* Find(const Detection& d, const std::string& label) {
  for (const ChangePoint& c : d.change_points) {
    if (c.label == label) return &c;
  }
  return nullptr;
}

TEST(HistoryDetectTest, ConvSlowdownIsOneChangeWithItsCommitRangeAndAttribution) {
  testing::TempDir dir;
  const Detection d = DetectChangePoints(History(dir, 1.05, 25), {}, {});
  EXPECT_EQ(d.metrics_tested, 4u);  // conv, relu, Method::execute, framework tax
  const ChangePoint* conv = Find(d, "net/Execute/native_call_convolution.out#0");
  const ChangePoint* execute = Find(d, "net/Execute/Method::execute");
  ASSERT_NE(conv, nullptr);
  ASSERT_NE(execute, nullptr);
  EXPECT_EQ(Find(d, "net/Execute/native_call_relu.out#1"), nullptr);
  EXPECT_EQ(conv->index, 25u);
  EXPECT_EQ(conv->commit_before, "c24");
  EXPECT_EQ(conv->commit_after, "c25");
  EXPECT_TRUE(conv->regression);
  EXPECT_NEAR(conv->change, 0.05, 0.01);
  EXPECT_LT(conv->change_low, conv->change);
  EXPECT_GT(conv->change_high, conv->change);
  EXPECT_GT(conv->change_low, 0.02);
  EXPECT_EQ(conv->runs_before, 25u);
  EXPECT_EQ(conv->runs_after, 15u);
  EXPECT_NE(std::find(conv->moved_together.begin(), conv->moved_together.end(), execute->label),
            conv->moved_together.end());
  ASSERT_TRUE(execute->attribution.has_value());
  ASSERT_FALSE(execute->attribution->items.empty());
  EXPECT_EQ(execute->attribution->items.front().label.rfind("native_call_convolution.out", 0), 0u);
  EXPECT_GT(execute->attribution->items.front().share, 0.7);
  // The overhead did not change, so its share of a longer execute fell: the
  // framework tax improved, and is the only other change point.
  const ChangePoint* tax = Find(d, "net/Execute/framework_tax");
  ASSERT_NE(tax, nullptr);
  EXPECT_FALSE(tax->regression);
  EXPECT_EQ(d.change_points.size(), 3u);
  EXPECT_EQ(d.OpenRegressions(), 2u);
  EXPECT_EQ(StableSegmentStart(d), 25u);
}

TEST(HistoryDetectTest, AcknowledgedChangePointsAreNotOpen) {
  testing::TempDir dir;
  const HistoryWindow window = History(dir, 1.05, 25);
  const Detection first = DetectChangePoints(window, {}, {});
  std::set<std::string> acked;
  for (const ChangePoint& c : first.change_points) acked.insert(c.id);
  const Detection second = DetectChangePoints(window, {}, acked);
  ASSERT_EQ(second.change_points.size(), first.change_points.size());
  EXPECT_EQ(second.OpenRegressions(), 0u);
  EXPECT_EQ(second.change_points.front().id, first.change_points.front().id);  // stable ids
}

TEST(HistoryDetectTest, StableHistoryHasNoChangePoint) {
  testing::TempDir dir;
  const Detection d = DetectChangePoints(History(dir, 1.0, 0), {}, {});
  EXPECT_TRUE(d.change_points.empty());
  EXPECT_EQ(StableSegmentStart(d), 0u);
}

TEST(HistoryDetectTest, SpeedupIsAChangePointButNotARegression) {
  testing::TempDir dir;
  const Detection d = DetectChangePoints(History(dir, 0.9, 20), {}, {});
  const ChangePoint* conv = Find(d, "net/Execute/native_call_convolution.out#0");
  ASSERT_NE(conv, nullptr);
  EXPECT_FALSE(conv->regression);
  const ChangePoint* execute = Find(d, "net/Execute/Method::execute");
  ASSERT_NE(execute, nullptr);
  EXPECT_FALSE(execute->regression);
}

}  // namespace
}  // namespace etbench::history
