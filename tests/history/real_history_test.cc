#include <gtest/gtest.h>

#include "etbench/history/change_points.h"
#include "etbench/history/detect.h"
#include "history_test_util.h"
#include "support/real_history_truth.h"

namespace etbench::history {
namespace {

// A real history (written by benchmarks/history/real_history_fixture.py):
// 40 runs of the default suite on the shared VM, every conv2d 5% slower from
// run 25 (window index 24); per metric, the per-run lower deciles. The first
// `runs` runs (the new-user fixtures below hold 19).
// real_history_conv_slowdown.json was recorded under load,
// real_history_quiet_conv_slowdown.json on the quiet VM.
HistoryWindow RealHistory(std::size_t runs,
                          const std::string& fixture = "real_history_conv_slowdown.json") {
  return testing::RealHistoryFixture(fixture, runs);
}

using etbench::testing::MovedByTheSlowdown;

std::size_t ConvolutionsFoundAt(const Detection& d, std::size_t index) {
  std::size_t found = 0;
  for (const ChangePoint& c : d.change_points) {
    if (c.key.name == "native_call_convolution.out" && c.index + 1 >= index &&
        c.index <= index + 1 && c.regression) {
      ++found;
    }
  }
  return found;
}

TEST(HistoryRealHistoryTest, TheConvSlowdownIsFoundAtItsRunAndNothingElse) {
  for (std::size_t runs : {28u, 30u, 40u}) {
    const Detection d = DetectChangePoints(RealHistory(runs), {}, {});
    EXPECT_EQ(d.metrics_tested, 112u);
    for (const MachineShift& m : d.machine_shifts) EXPECT_FALSE(m.regression) << runs;
    // Runs 25, 26 and 28 are the three quiet runs after the change (27 was
    // slowed as a whole): all three convolutions are found at run 25.
    EXPECT_EQ(ConvolutionsFoundAt(d, 24), 3u) << runs << " runs";
    for (const ChangePoint& c : d.change_points) {
      EXPECT_TRUE(MovedByTheSlowdown(c)) << runs << " runs: " << c.label << " at run "
                                         << c.index + 1;
    }
  }
}

TEST(HistoryRealHistoryTest, BeforeTheChangeThereIsNoChangePoint) {
  const Detection d = DetectChangePoints(RealHistory(24), {}, {});
  EXPECT_TRUE(d.change_points.empty());
  EXPECT_EQ(d.OpenRegressions(), 0u);
}

// The same history with a machine shift added: every time metric of runs
// 9..18 slower by 5-15% (each metric its own share), as a VM neighbour would.
HistoryWindow WithMachineShift(HistoryWindow w) {
  for (std::size_t m = 0; m < w.metrics.size(); ++m) {
    if (w.metrics[m].metric.unit == "percent") continue;
    const double slower = 1.05 + 0.1 * static_cast<double>(m % 5) / 4;
    for (SeriesPoint& p : w.metrics[m].points) {
      if (p.run >= 9 && p.run <= 18) p.p10 = p.p50 = p.p10 * slower;
    }
  }
  return w;
}

TEST(HistoryRealHistoryTest, AMachineShiftIsReportedApartAndTheConvSlowdownStillFound) {
  const HistoryWindow w = WithMachineShift(RealHistory(40));
  const Detection d = DetectChangePoints(w, {}, {});
  EXPECT_GE(ConvolutionsFoundAt(d, 24), 2u);
  for (const ChangePoint& c : d.change_points) {
    EXPECT_TRUE(MovedByTheSlowdown(c)) << c.label << " at run " << c.index + 1;
  }
  ASSERT_GE(d.machine_shifts.size(), 2u);
  EXPECT_EQ(d.machine_shifts[0].index, 8u);  // run 9
  EXPECT_GT(d.machine_shifts[0].change, 0.05);
  for (const MachineShift& m : d.machine_shifts) EXPECT_FALSE(m.regression);
  // Without the machine level the shift hides the slowdown.
  DetectOptions raw;
  raw.machine_level = false;
  EXPECT_EQ(ConvolutionsFoundAt(DetectChangePoints(w, raw, {}), 24), 0u);
}

// The quiet history with a machine shift at the slowdown's own run: every
// time metric of runs 25-40 slower by 2% × a weight in [0.5, 1.5], as
// `real_history_eval --shift 25:40:0.02` adds it. The convolutions jumped
// about 3.5× the machine's level; capped only at 3, their loadings took the
// whole 5% for the machine and nothing was found. Bounded by the other
// metrics' loadings (Tukey's fences), the step is found at run 25.
TEST(HistoryRealHistoryTest, AChangeAtASmallMachineShiftIsNotTakenForTheMachine) {
  HistoryWindow w = RealHistory(27, "real_history_quiet_conv_slowdown.json");
  for (std::size_t m = 0; m < w.metrics.size(); ++m) {
    const std::string& unit = w.metrics[m].metric.unit;
    if (unit == "percent" || unit == "bytes") continue;
    const double weight = 0.5 + static_cast<double>((m * 2654435761u) % 1000) / 1000.0;
    for (SeriesPoint& p : w.metrics[m].points) {
      if (p.run >= 25) p.p10 = p.p50 = p.p10 * (1 + 0.02 * weight);
    }
  }
  const Detection d = DetectChangePoints(w, {}, {});
  ASSERT_EQ(d.machine_shifts.size(), 1u);
  EXPECT_EQ(d.machine_shifts[0].index, 24u);
  EXPECT_GE(ConvolutionsFoundAt(d, 24), 1u);
  for (const ChangePoint& c : d.change_points) {
    EXPECT_TRUE(MovedByTheSlowdown(c)) << c.label << " at run " << c.index + 1;
  }
}

// On the quiet VM (history q10 of docs/history.md), small memory-bound
// operators switch levels with no code change: toy_cnn's relu #4 −16% from
// run 4 and staying. Worth 0.4% of the model's Method::execute, which does
// not move, such a change is not a change point; with --every-part it is.
TEST(HistoryRealHistoryTest, OnAQuietMachineOnlyTheSlowdownIsFound) {
  const std::string quiet = "real_history_quiet_conv_slowdown.json";
  for (std::size_t runs : {27u, 30u, 40u}) {
    const Detection d = DetectChangePoints(RealHistory(runs, quiet), {}, {});
    EXPECT_EQ(ConvolutionsFoundAt(d, 24), 3u) << runs << " runs";
    EXPECT_TRUE(d.machine_shifts.empty()) << runs << " runs";
    for (const ChangePoint& c : d.change_points) {
      EXPECT_TRUE(MovedByTheSlowdown(c)) << runs << " runs: " << c.label << " at run "
                                         << c.index + 1;
    }
  }
  DetectOptions every;
  every.end_to_end_only = false;
  std::size_t others = 0;
  for (const ChangePoint& c : DetectChangePoints(RealHistory(40, quiet), every, {}).change_points) {
    others += MovedByTheSlowdown(c) ? 0 : 1;
  }
  EXPECT_GE(others, 1u);
}

TEST(HistoryRealHistoryTest, KeepingTheLoadedRunsHidesTheChange) {
  DetectOptions keep_all;
  keep_all.load_cutoff = 0;
  EXPECT_EQ(ConvolutionsFoundAt(DetectChangePoints(RealHistory(40), keep_all, {}), 24), 0u);
}


// Issue #26's new user, recorded for real (benchmarks/history/
// new_user_history.sh, real_history_new_user.json): the default suite as
// shipped, runs 1-8 as is, 9-15 with toy_cnn's conv2d 15% slower (history
// add --date), 16-19 gate --baseline history runs of the slow suite. The
// step is found at run 9 in both convolutions, their operator calls and
// Method::execute, and nothing else is; with --no-machine-level too.
TEST(HistoryRealHistoryTest, TheNewUsersConvSlowdownIsFoundAtItsRun) {
  const HistoryWindow w = RealHistory(19, "real_history_new_user.json");
  auto moved = [](const ChangePoint& c) {
    const std::string& n = c.key.name;
    return c.key.model == "toy_cnn" && c.key.instruction_id &&
           (*c.key.instruction_id == 0 || *c.key.instruction_id == 3 || n == "Method::execute") &&
           (n == "native_call_convolution.out" || n == "OPERATOR_CALL" || n == "Method::execute");
  };
  const Detection d = DetectChangePoints(w, {}, {});
  EXPECT_EQ(d.change_points.size(), 5u);
  for (const ChangePoint& c : d.change_points) {
    EXPECT_TRUE(moved(c)) << c.label << " at run " << c.index + 1;
    EXPECT_EQ(c.index, 8u) << c.label;
    EXPECT_TRUE(c.regression) << c.label;
  }
  DetectOptions raw;
  raw.machine_level = false;
  std::size_t found = 0;
  for (const ChangePoint& c : DetectChangePoints(w, raw, {}).change_points) {
    found += moved(c) && c.index == 8 ? 1 : 0;
  }
  EXPECT_EQ(found, 5u);
}

// The same scenario recorded at load average 26-28 (real_history_new_user_
// loaded.json): toy_cnn's slow runs vary from +10% to +70%. The step is
// located at run 9, but no series carries enough evidence for the default
// false discovery rate across 112 metrics: Benjamini-Hochberg at q = 0.01
// needs a selection-corrected p-value of at most 0.01/112 for the first
// discovery, and the best is 2e-3 (convolution #3; after the loaded runs are
// left out, convolution #0's is 6e-4). At --fdr 0.05 convolution #0 is
// found at run 9. What `detect` printed for the issue's history ("0 change
// points" with --every-part and --no-machine-level as well) is this case.
TEST(HistoryRealHistoryTest, UnderHeavyLoadTheNewUsersStepIsBelowTheDefaultFdr) {
  const HistoryWindow w = RealHistory(19, "real_history_new_user_loaded.json");
  for (const MetricHistory& h : w.metrics) {
    if (h.label != "toy_cnn/Execute/native_call_convolution.out#3") continue;
    std::vector<double> values;
    for (const SeriesPoint& p : h.points) values.push_back(p.p10);
    const SplitTest split = BestSplit(values, 0, values.size(), 3);
    EXPECT_EQ(split.index, 8u);
    EXPECT_GT(split.p_value, 0.01 / 112);
    EXPECT_LT(split.p_value, 0.01);
  }
  EXPECT_TRUE(DetectChangePoints(w, {}, {}).change_points.empty());
  DetectOptions lenient;
  lenient.fdr_q = 0.05;
  std::size_t convolutions = 0;
  for (const ChangePoint& c : DetectChangePoints(w, lenient, {}).change_points) {
    EXPECT_EQ(c.key.model, "toy_cnn") << c.label;
    EXPECT_EQ(c.index, 8u) << c.label;
    convolutions += c.key.name == "native_call_convolution.out" ? 1 : 0;
  }
  EXPECT_EQ(convolutions, 1u);
}

}  // namespace
}  // namespace etbench::history
