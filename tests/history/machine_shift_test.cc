#include "etbench/history/machine_shift.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "etbench/history/detect.h"
#include "etbench/reports/history_render.h"
#include "history_test_util.h"

namespace etbench::history {
namespace {

// A history of `metrics` operator metrics over `runs` runs (commits c0,
// c1, …), CV 1%; `value(m, r)` is the level of metric m in run r.
template <typename Level>
HistoryWindow Window(std::size_t metrics, std::size_t runs, Level value, uint64_t seed = 3) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0, 0.01);
  HistoryWindow w = testing::EmptyWindow(runs);
  for (std::size_t m = 0; m < metrics; ++m) {
    MetricHistory h;
    h.metric.key.model = m % 2 ? "a" : "b";
    h.metric.key.block = "Execute";
    h.metric.key.name = "op" + std::to_string(m);
    h.metric.key.instruction_id = static_cast<int32_t>(m);
    h.metric.unit = "ms";
    h.metric.is_kernel_or_delegate_call = true;
    h.label = MetricLabel(h.metric.key);
    for (std::size_t r = 0; r < runs; ++r) {
      SeriesPoint p;
      p.run = static_cast<int64_t>(r + 1);
      p.p10 = p.p50 = (1.0 + 0.1 * static_cast<double>(m)) * value(m, r) * std::exp(noise(rng));
      p.n = 60;
      h.points.push_back(p);
    }
    w.metrics.push_back(std::move(h));
  }
  return w;
}

// Every operator 5-15% slower in runs [from, to) (each its own share, as
// memory-bound operators move more than others).
double Shift(std::size_t m, std::size_t r, std::size_t from, std::size_t to) {
  return r >= from && r < to ? 1.05 + 0.1 * static_cast<double>(m % 5) / 4 : 1.0;
}

DetectOptions Raw() {
  DetectOptions o;
  o.machine_level = false;
  return o;
}

TEST(HistoryMachineShiftTest, TheLevelIsTheMedianLogRatioOfARun) {
  RunSeries a{{1, 1, 2, 1}, {0, 1, 2, 3}}, b{{4, 4, 8, 4}, {0, 1, 2, 3}},
      c{{3, 3, 3, 3}, {0, 1, 2, 3}};
  const std::vector<double> level = MachineLevel({&a, &b, &c}, 4, 3);
  ASSERT_EQ(level.size(), 4u);
  EXPECT_DOUBLE_EQ(level[0], 0.0);
  EXPECT_NEAR(level[2], std::log(2.0), 1e-12);  // two of three metrics doubled
  // Too few metrics in a run: no level (a code change of one of them would
  // be half of the median).
  EXPECT_TRUE(std::isnan(MachineLevel({&a, &b}, 4, 3)[2]));
}

TEST(HistoryMachineShiftTest, LoadingIsTheMetricsJumpOverTheLevelsJump) {
  const std::vector<double> shift_level = {0, 0, 0, 0.1, 0.1, 0.1, 0, 0, 0};
  RunSeries twice;
  for (std::size_t r = 0; r < shift_level.size(); ++r) {
    twice.values.push_back(std::exp(2 * shift_level[r]));
    twice.run_index.push_back(r);
  }
  EXPECT_NEAR(MachineLoading(twice, shift_level, {}), 2.0, 1e-9);
  RemoveMachineLevel(shift_level, 2.0, &twice);
  for (double v : twice.values) EXPECT_NEAR(v, 1.0, 1e-12);
  EXPECT_EQ(MachineLoading(twice, std::vector<double>(9, 0.0), {}), 1.0);  // no edge
}

TEST(HistoryMachineShiftTest, AShiftThatComesAndGoesIsReportedApartAndHidesNothing) {
  // A VM neighbour: every operator 5-15% slower in runs 10..19 of 40.
  const HistoryWindow w =
      Window(40, 40, [](std::size_t m, std::size_t r) { return Shift(m, r, 10, 20); });
  EXPECT_TRUE(DetectChangePoints(w, Raw(), {}).machine_shifts.empty());
  const Detection d = DetectChangePoints(w, {}, {});
  EXPECT_TRUE(d.change_points.empty()) << d.change_points.front().label;
  ASSERT_EQ(d.machine_shifts.size(), 2u);
  EXPECT_EQ(d.machine_shifts[0].index, 10u);
  EXPECT_EQ(d.machine_shifts[1].index, 20u);
  EXPECT_NEAR(d.machine_shifts[0].change, 0.10, 0.03);
  EXPECT_LT(d.machine_shifts[0].change_low, d.machine_shifts[0].change);
  EXPECT_GT(d.machine_shifts[0].change_high, d.machine_shifts[0].change);
  EXPECT_LT(d.machine_shifts[1].change, 0);
  EXPECT_FALSE(d.machine_shifts[0].persists);  // it came back
  EXPECT_TRUE(d.machine_shifts[1].persists);
  for (const MachineShift& m : d.machine_shifts) {
    EXPECT_FALSE(m.possible_code_change);
    EXPECT_FALSE(m.regression);
  }
  EXPECT_EQ(d.OpenRegressions(), 0u);
  EXPECT_EQ(StableSegmentStart(d), 20u);  // the gate's baseline starts after it
  // Unless the user asks: then the slower shift is a regression to acknowledge.
  DetectOptions strict;
  strict.machine_shifts_are_regressions = true;
  const Detection s = DetectChangePoints(w, strict, {});
  EXPECT_EQ(s.OpenRegressions(), 1u);
  EXPECT_EQ(DetectChangePoints(w, strict, {s.machine_shifts[0].id}).OpenRegressions(), 0u);
}

TEST(HistoryMachineShiftTest, OneOperatorsSlowdownIsFoundThroughAMachineShift) {
  // Operator 7 is 5% slower from run 25; the machine shifted in 10..19.
  const HistoryWindow w = Window(40, 40, [](std::size_t m, std::size_t r) {
    return Shift(m, r, 10, 20) * (m == 7 && r >= 25 ? 1.05 : 1.0);
  });
  const Detection d = DetectChangePoints(w, {}, {});
  ASSERT_EQ(d.change_points.size(), 1u);
  EXPECT_EQ(d.change_points[0].key.name, "op7");
  EXPECT_EQ(d.change_points[0].index, 25u);
  EXPECT_NEAR(d.change_points[0].change, 0.05, 0.01);
  EXPECT_TRUE(d.change_points[0].regression);
  EXPECT_EQ(d.machine_shifts.size(), 2u);
  EXPECT_EQ(d.OpenRegressions(), 1u);
  // Before: the neighbour's runs on one side of every split hid the change.
  for (const ChangePoint& c : DetectChangePoints(w, Raw(), {}).change_points) {
    EXPECT_NE(c.index, 25u) << c.label;
  }
  // It barely moves the level: no machine shift without the neighbour.
  const Detection alone = DetectChangePoints(
      Window(40, 40, [](std::size_t m, std::size_t r) { return m == 7 && r >= 25 ? 1.05 : 1.0; }),
      {}, {});
  EXPECT_TRUE(alone.machine_shifts.empty());
  ASSERT_EQ(alone.change_points.size(), 1u);
  EXPECT_EQ(alone.change_points[0].index, 25u);
}

TEST(HistoryMachineShiftTest, AnEverywhereSlowdownThatStaysIsARegressionUntilAcknowledged) {
  // A code change that slows every operator by 3% from run 25 (commit c25)
  // looks like a machine shift that stays: it is not silently removed.
  const HistoryWindow w =
      Window(40, 40, [](std::size_t, std::size_t r) { return r >= 25 ? 1.03 : 1.0; });
  const Detection d = DetectChangePoints(w, {}, {});
  EXPECT_TRUE(d.change_points.empty());
  ASSERT_EQ(d.machine_shifts.size(), 1u);
  const MachineShift& m = d.machine_shifts[0];
  EXPECT_EQ(m.index, 25u);
  EXPECT_EQ(m.commit_before, "c24");
  EXPECT_EQ(m.commit_after, "c25");
  EXPECT_NEAR(m.change, 0.03, 0.01);
  EXPECT_TRUE(m.persists);
  EXPECT_TRUE(m.possible_code_change);
  EXPECT_TRUE(m.regression);
  EXPECT_EQ(d.OpenRegressions(), 1u);
  EXPECT_EQ(m.id, ChangePointId("machine", w.runs[25].run_id));
  SuiteDetection g;
  g.suite = "s";
  g.device = "d";
  g.detection = d;
  const std::string text = reports::RenderDetection({g}, "terminal");
  EXPECT_NE(text.find("1 machine shift"), std::string::npos) << text;
  EXPECT_NE(text.find("machine shift or a code change that slowed every operator: REGRESSION"),
            std::string::npos) << text;
  EXPECT_NE(reports::RenderDetection({g}, "json").find("\"possible_code_change\": true"), std::string::npos);
  EXPECT_NE(reports::RenderDetection({g}, "markdown").find("| machine shift |"), std::string::npos);
  // Acknowledged (also when more runs move the estimate by a run).
  EXPECT_EQ(DetectChangePoints(w, {}, {m.id}).OpenRegressions(), 0u);
  EXPECT_EQ(
      DetectChangePoints(w, {}, {ChangePointId("machine", w.runs[26].run_id)}).OpenRegressions(),
      0u);
}

TEST(HistoryMachineShiftTest, ALevelSeenBeforeOrTheSameCommitIsTheMachine) {
  // Faster in 10..24, back to the first level from 25 on: slower and it
  // stays, but the machine has been there before.
  const HistoryWindow back = Window(
      40, 40, [](std::size_t, std::size_t r) { return r >= 10 && r < 25 ? 0.9 : 1.0; });
  const Detection d = DetectChangePoints(back, {}, {});
  ASSERT_EQ(d.machine_shifts.size(), 2u);
  EXPECT_TRUE(d.machine_shifts[1].persists);
  EXPECT_GT(d.machine_shifts[1].change, 0);
  EXPECT_FALSE(d.machine_shifts[1].possible_code_change);
  EXPECT_EQ(d.OpenRegressions(), 0u);
  // Slower from run 25 to a new level, but runs 24 and 25 have the same
  // commit: the code did not change there.
  HistoryWindow same = Window(40, 40, [](std::size_t, std::size_t r) { return r >= 25 ? 1.1 : 1.0; });
  same.runs[25].git_commit = same.runs[24].git_commit;
  const Detection s = DetectChangePoints(same, {}, {});
  ASSERT_EQ(s.machine_shifts.size(), 1u);
  EXPECT_FALSE(s.machine_shifts[0].possible_code_change);
  EXPECT_EQ(s.OpenRegressions(), 0u);
}

TEST(HistoryMachineShiftTest, AFewMetricsHaveNoLevel) {
  // Fewer time metrics than kMinLevelMetrics: a change of one of them would
  // move the median, so nothing is removed and nothing is called a shift.
  const HistoryWindow w =
      Window(kMinLevelMetrics - 1, 40, [](std::size_t, std::size_t r) { return r >= 25 ? 1.1 : 1.0; });
  const Detection d = DetectChangePoints(w, {}, {});
  EXPECT_TRUE(d.machine_shifts.empty());
  EXPECT_EQ(d.change_points.size(), kMinLevelMetrics - 1);
}

}  // namespace
}  // namespace etbench::history
