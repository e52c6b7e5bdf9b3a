#include "etbench/harness/time_sizing.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "etbench/harness/orchestrator.h"
#include "harness_test_util.h"

namespace etbench::harness {
namespace {

using etbench::testing::FakeRunner;
using etbench::testing::MakeSuite;
using etbench::testing::TempDir;
using etbench::testing::TestDeps;

// The fake runner's executions take 1 ms + i µs (i: the execution's index),
// and its ETDump grows with the executions: a calibration run of 50.
class HarnessTimeSizingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    t_.deps.runner = &runner_;
    suite_ = MakeSuite(dir_, {"m"}, /*warmup=*/1, /*iterations=*/50, /*reps=*/1);
    auto run = RunSuite(suite_, t_.deps);
    ASSERT_TRUE(run.ok()) << run.error().message;
    calibration_ = run->results;
    bytes_ = EtdumpBytesPerExecution(calibration_,
                                     std::filesystem::path(run->results_path).parent_path().string());
  }

  TempDir dir_;
  TestDeps t_;
  FakeRunner runner_;
  SuiteConfig suite_;
  results::RunResults calibration_;
  std::map<std::string, double> bytes_;
};

TEST_F(HarnessTimeSizingTest, MeasuresTheEtdumpBytesPerExecution) {
  ASSERT_EQ(bytes_.count("m"), 1u);
  // 51 executions in one file of a few kB: tens of bytes each.
  EXPECT_GT(bytes_.at("m"), 10);
  EXPECT_LT(bytes_.at("m"), 1000);
}

TEST_F(HarnessTimeSizingTest, AFastModelRunsUntilItsMedianIsStableNotForMinTime) {
  TimeSizing sizing;
  sizing.min_time_s = 10;  // 10 s of a 1 ms model: ~10,000 executions
  sizing.warmup_time_s = 1;
  const auto sizes = SizeByTime({calibration_}, suite_, sizing, bytes_);
  const TimeSize& m = sizes.at("m");
  EXPECT_NEAR(m.execution_s, 0.001025, 0.00001);
  EXPECT_GT(m.time_iterations, 9000);
  // Spread ≈ 2%: a 0.5% standard error of the median needs ~22 samples,
  // so the floor of 200 applies; warm-up shrinks by the same factor.
  EXPECT_EQ(m.capped_by, "samples");
  EXPECT_EQ(m.iterations, sizing.min_samples);
  EXPECT_NEAR(m.warmup, 1000.0 * m.iterations / m.time_iterations, 2);
}

TEST_F(HarnessTimeSizingTest, TheEtdumpCapBoundsWarmupAndMeasuredTogether) {
  TimeSizing sizing;
  sizing.min_time_s = 10;
  sizing.warmup_time_s = 1;
  sizing.max_etdump_bytes = 100 * bytes_.at("m");
  const TimeSize m = SizeByTime({calibration_}, suite_, sizing, bytes_).at("m");
  EXPECT_EQ(m.capped_by, "etdump");
  EXPECT_LE(m.iterations + m.warmup, 100);
  EXPECT_GE(m.iterations + m.warmup, 95);
  EXPECT_GT(m.iterations, 5 * m.warmup);
}

TEST_F(HarnessTimeSizingTest, ASlowModelKeepsMinTimeAndTheSuitesCounts) {
  TimeSizing sizing;
  sizing.min_time_s = 0.03;  // 30 executions, fewer than the suite's 50
  sizing.warmup_time_s = 0.005;
  const TimeSize m = SizeByTime({calibration_}, suite_, sizing, bytes_).at("m");
  EXPECT_EQ(m.capped_by, "");
  EXPECT_EQ(m.iterations, 50);
  EXPECT_EQ(m.warmup, 5);
  sizing.min_time_s = 0.15;  // 147 executions: below the stable-median floor, so not capped
  const TimeSize n = SizeByTime({calibration_}, suite_, sizing, bytes_).at("m");
  EXPECT_EQ(n.capped_by, "");
  EXPECT_EQ(n.iterations, n.time_iterations);
  EXPECT_NEAR(n.iterations, 147, 1);
}

}  // namespace
}  // namespace etbench::harness
