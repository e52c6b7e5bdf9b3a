#include "etbench/compare/interval_verdict.h"

#include <gtest/gtest.h>

#include <limits>

namespace etbench {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

IntervalVerdictInputs Inputs(bool significant, std::pair<double, double> sig,
                             std::pair<double, double> eq, double change) {
  IntervalVerdictInputs in;
  in.significant = significant;
  in.significance_interval = sig;
  in.equivalence_interval = eq;
  in.change = change;
  in.threshold = 0.05;
  return in;
}

TEST(IntervalVerdictTest, SignificantChangesBeyondTheThresholdAreDecided) {
  IntervalVerdict v = DecideOnIntervals(Inputs(true, {0.08, 0.12}, {0.09, 0.11}, 0.10));
  EXPECT_EQ(v.verdict, Verdict::kRegression);
  EXPECT_EQ(v.outcome, IntervalOutcome::kBeyondThreshold);
  EXPECT_TRUE(v.decided);
  EXPECT_TRUE(v.uses_significance);
  v = DecideOnIntervals(Inputs(true, {-0.12, -0.08}, {-0.11, -0.09}, -0.10));
  EXPECT_EQ(v.verdict, Verdict::kImprovement);
  // Significant but the whole interval below the threshold: unchanged.
  v = DecideOnIntervals(Inputs(true, {0.01, 0.03}, {0.015, 0.025}, 0.02));
  EXPECT_EQ(v.verdict, Verdict::kUnchanged);
  EXPECT_EQ(v.outcome, IntervalOutcome::kBelowThreshold);
  EXPECT_TRUE(v.decided);
  // Significant, reaching the threshold, but the estimate is nearer 0.
  v = DecideOnIntervals(Inputs(true, {0.001, 0.06}, {0.005, 0.05}, 0.02));
  EXPECT_EQ(v.verdict, Verdict::kInconclusive);
  EXPECT_EQ(v.outcome, IntervalOutcome::kReachesThreshold);
  EXPECT_FALSE(v.decided);
}

TEST(IntervalVerdictTest, EquivalenceNeedsTheIntervalInsideTheThreshold) {
  IntervalVerdict v = DecideOnIntervals(Inputs(false, {-kInf, kInf}, {-0.03, 0.04}, 0.0));
  EXPECT_EQ(v.verdict, Verdict::kUnchanged);
  EXPECT_EQ(v.outcome, IntervalOutcome::kRuledOut);
  EXPECT_FALSE(v.uses_significance);
  v = DecideOnIntervals(Inputs(false, {-kInf, kInf}, {-0.03, 0.07}, 0.0));
  EXPECT_EQ(v.verdict, Verdict::kInconclusive);
  EXPECT_EQ(v.outcome, IntervalOutcome::kNotRuledOut);
  // An increase-only rule ignores how large an improvement could be.
  IntervalVerdictInputs in = Inputs(false, {-kInf, kInf}, {-0.3, 0.04}, -0.1);
  EXPECT_EQ(DecideOnIntervals(in).verdict, Verdict::kUnchanged);
  in.direction = Direction::kBoth;
  EXPECT_EQ(DecideOnIntervals(in).verdict, Verdict::kInconclusive);
  // Increase-only, the interval below the absolute floor: unchanged.
  in = Inputs(false, {-kInf, kInf}, {-0.3, 0.2}, 0.0);
  in.floor = 0.25;
  EXPECT_EQ(DecideOnIntervals(in).verdict, Verdict::kUnchanged);
}

}  // namespace
}  // namespace etbench
