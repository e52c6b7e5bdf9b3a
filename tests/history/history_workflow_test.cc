#include "etbench/history/history_workflow.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "etbench/results/results.h"

#include "history_test_util.h"
#include "support/memory_history_store.h"
#include "support/test_support.h"

namespace etbench::history {
namespace {

using testing::MakeSyntheticResults;
using testing::SyntheticRun;

// 24 runs of the synthetic model; the relu 5% slower from run 13 on: 0.8% of
// Method::execute, which does not move by its 2%.
void AddRunsWithASmallReluStep(HistoryStore& store) {
  for (int i = 1; i <= 24; ++i) {
    SyntheticRun run;
    run.index = i;
    run.relu_factor = i >= 13 ? 1.05 : 1.0;
    auto added =
        store.AddRun(MakeRunRecord(MakeSyntheticResults(run), "r" + std::to_string(i) + ".json"));
    EXPECT_TRUE(added.ok());
  }
}

TEST(HistoryWorkflowTest, DetectLeavesOutAPartsChangeTooSmallEndToEnd) {
  testing::MemoryHistoryStore store;
  AddRunsWithASmallReluStep(store);
  auto groups = DetectAll(store, RunFilter{}, "", DetectOptions{});
  ASSERT_TRUE(groups.ok());
  ASSERT_EQ(groups->size(), 1u);
  const Detection& d = groups->front().detection;
  EXPECT_TRUE(d.change_points.empty());
  ASSERT_EQ(d.parts_not_counted.size(), 1u);
  EXPECT_EQ(d.parts_not_counted[0].label, "net/Execute/native_call_relu.out#1");
  EXPECT_EQ(d.parts_not_counted[0].index, 12u);  // run 13
}

TEST(HistoryWorkflowTest, SinceMustBeADateOrACommitOfARun) {
  // "--since garbage" (or a commit not in the history, or 2026-13-45)
  // selected no run: 0 change points, and a failing night passed.
  testing::MemoryHistoryStore store;
  AddRunsWithASmallReluStep(store);  // commits c1..c24, 2026-01-01
  for (const std::string since :
       {"", "c13", "c1", "2026-01-01", "2027-06-30", "2026-01-01T00:13:00Z", "2024-02-29"}) {
    EXPECT_TRUE(DetectAll(store, RunFilter{}, since, DetectOptions{}).ok()) << since;
  }
  for (const std::string since :
       {"garbage", "deadbeefcafe", "2026-13-45", "2026-02-30", "2025-02-29",
        "2026-01-01T24:00:00Z", "2026-01-01 00:00", "C13"}) {
    auto groups = DetectAll(store, RunFilter{}, since, DetectOptions{});
    ASSERT_FALSE(groups.ok()) << since;
    EXPECT_EQ(groups.error().code, ErrorCode::kInvalidInput);
    EXPECT_EQ(groups.error().message,
              "--since '" + since +
                  "' is neither a date (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ, UTC) nor a commit "
                  "(or commit prefix) of a run in the history");
  }
  // Only the runs the filter selects count: no run of device "dev2".
  RunFilter dev2;
  dev2.device = "dev2";
  EXPECT_FALSE(DetectAll(store, dev2, "c13", DetectOptions{}).ok());
  EXPECT_TRUE(DetectAll(store, dev2, "2026-01-01", DetectOptions{}).ok());
}

TEST(HistoryWorkflowTest, TheGatesStableSegmentStartsAtAPartsChangeToo) {
  // The gate judges the relu on its own: a baseline of both its levels
  // would leave it inconclusive, so the segment starts at run 13.
  testing::MemoryHistoryStore store;
  AddRunsWithASmallReluStep(store);
  auto baseline = BaselineForSuite(store, "default");
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
  testing::MemoryHistoryStore store;
  AddRunsWithASmallReluStep(store);
  SyntheticRun last;
  last.index = 24;
  const MetricSet candidate = results::ToMetricSet(MakeSyntheticResults(last));
  auto nights = BaselineForCandidate(store, candidate);
  ASSERT_TRUE(nights.ok()) << nights.error().message;
  EXPECT_EQ(nights->runs_used, 24u);
  ASSERT_EQ(nights->nights.size(), 24u);
  EXPECT_EQ(ContextValue(nights->nights.front(), "git_commit"), "c1");  // oldest first
  EXPECT_EQ(ContextValue(nights->nights.back(), "git_commit"), "c24");
  auto every = BaselineForCandidate(store, candidate, DefaultThresholds(), /*every_part=*/true);
  ASSERT_TRUE(every.ok());
  EXPECT_EQ(every->runs_used, 12u);
  EXPECT_EQ(every->nights.size(), 12u);
}


// Adds night `i` of a history whose convolution is 20% slower from night
// 13 on; returns that night's metrics (tonight's, when it is the newest).
MetricSet AddNightOfAConvStep(HistoryStore& store, int i) {
  SyntheticRun run;
  run.index = i;
  run.conv_factor = i >= 13 ? 1.2 : 1.0;
  const results::RunResults results = MakeSyntheticResults(run);
  EXPECT_TRUE(store.AddRun(MakeRunRecord(results, "r" + std::to_string(i) + ".json")).ok());
  return results::ToMetricSet(results);
}

// The night a conv step of +20% has sat at its new level for 3 runs
// (min_segment), detect confirms it, and tonight's run is what did: the
// gate reports it then; the next night it is an older open one, and once
// acknowledged it is neither.
TEST(HistoryWorkflowTest, ARegressionIsConfirmedOnTheNightItsThirdRunArrives) {
  testing::MemoryHistoryStore store;
  MetricSet tonight;
  std::vector<std::size_t> confirmed_at;
  for (int i = 1; i <= 16; ++i) {
    tonight = AddNightOfAConvStep(store, i);
    auto c = RegressionsConfirmedTonight(store, tonight);
    ASSERT_TRUE(c.ok()) << c.error().message;
    if (!c->confirmed.empty()) confirmed_at.push_back(static_cast<std::size_t>(i));
    if (i == 15) {  // the step is 13: confirmed at 15, tonight's run made it
      ASSERT_FALSE(c->confirmed.empty());
      EXPECT_EQ(c->older_open, 0u);
      bool execute = false;
      for (const ChangePoint& cp : c->confirmed) {
        EXPECT_TRUE(cp.regression);
        EXPECT_EQ(cp.index, 12u);  // run 13
        execute |= cp.end_to_end;
      }
      EXPECT_TRUE(execute);  // Method::execute moved by far more than its 2%
    }
    if (i == 16) {
      EXPECT_TRUE(c->confirmed.empty());
      EXPECT_GE(c->older_open, 1u);
      auto all = DetectAll(store, RunFilter{}, "", DetectOptions{});
      ASSERT_TRUE(all.ok());
      for (const ChangePoint& cp : all->front().detection.change_points) {
        ASSERT_TRUE(store.Acknowledge(cp.id, "intended").ok());
      }
      auto acked = RegressionsConfirmedTonight(store, tonight);
      ASSERT_TRUE(acked.ok());
      EXPECT_TRUE(acked->confirmed.empty());
      EXPECT_EQ(acked->older_open, 0u);
    }
  }
  EXPECT_EQ(confirmed_at, std::vector<std::size_t>{15});
}

// A change point tonight would confirm is judged with tonight the faster
// of its run and a confirmation run, as a first-night alert is: a
// confirmation at the old speed (tonight's run was slow by chance) leaves
// the step two runs long, one at the new speed confirms it.
TEST(HistoryWorkflowTest, AChangePointIsConfirmedWithTheFasterOfTonightsTwoRuns) {
  testing::MemoryHistoryStore store;
  MetricSet tonight;
  for (int i = 1; i <= 15; ++i) tonight = AddNightOfAConvStep(store, i);
  const auto again = [](double conv) {
    SyntheticRun run;
    run.index = 15;
    run.conv_factor = conv;
    return results::ToMetricSet(MakeSyntheticResults(run));
  };
  const MetricSet fast = again(1.0), slow = again(1.2);
  auto alone = RegressionsConfirmedTonight(store, tonight);
  auto with_fast = RegressionsConfirmedTonight(store, tonight, DefaultThresholds(), false, &fast);
  auto with_slow = RegressionsConfirmedTonight(store, tonight, DefaultThresholds(), false, &slow);
  ASSERT_TRUE(alone.ok() && with_fast.ok() && with_slow.ok());
  EXPECT_FALSE(alone->confirmed.empty());
  EXPECT_TRUE(with_fast->confirmed.empty());
  EXPECT_EQ(with_slow->confirmed.size(), alone->confirmed.size());

  // Only the newest run's values move, only down, only for the metrics the
  // confirmation measured.
  auto window = store.Load(RunFilter{}, "*", false);
  ASSERT_TRUE(window.ok());
  MetricSet one = fast;  // its convolution alone, faster than tonight's
  one.metrics.erase(std::remove_if(one.metrics.begin(), one.metrics.end(),
                                   [](const Metric& m) {
                                     return m.key.name.find("convolution") == std::string::npos;
                                   }),
                    one.metrics.end());
  ASSERT_EQ(one.metrics.size(), 1u);
  const HistoryWindow faster = WithNewestFaster(window.value(), one);
  const int64_t newest = window->runs.back().id;
  std::size_t moved = 0;
  for (std::size_t m = 0; m < window->metrics.size(); ++m) {
    for (std::size_t p = 0; p < window->metrics[m].points.size(); ++p) {
      const SeriesPoint& before = window->metrics[m].points[p];
      const SeriesPoint& after = faster.metrics[m].points[p];
      EXPECT_LE(after.p10, before.p10);
      if (after.p10 == before.p10) continue;
      ++moved;
      EXPECT_EQ(before.run, newest);
      EXPECT_EQ(window->metrics[m].metric.key, one.metrics[0].key);
    }
  }
  EXPECT_EQ(moved, 1u);
}

}  // namespace
}  // namespace etbench::history
