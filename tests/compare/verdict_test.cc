#include "etbench/compare/verdict.h"

#include <gtest/gtest.h>

namespace etbench {
namespace {

VerdictInputs Base() {
  VerdictInputs in;
  in.n_baseline = in.n_candidate = 50;
  in.threshold = 0.05;
  in.level = 0.01;
  in.mde = 0.03;
  return in;
}

TEST(VerdictTest, SignificantChangeReachingTheThresholdIsARegression) {
  VerdictInputs in = Base();
  in.change = 0.08;
  in.ci_low = 0.06;
  in.ci_high = 0.10;
  in.p = 1e-6;
  EXPECT_EQ(DecideVerdict(in).verdict, Verdict::kRegression);
  // A true threshold-sized change whose estimate lands just below: the
  // interval still reaches the threshold.
  in.change = 0.045;
  in.ci_low = 0.03;
  in.ci_high = 0.06;
  EXPECT_EQ(DecideVerdict(in).verdict, Verdict::kRegression);
}

TEST(VerdictTest, PointEstimateMustReachTheMinimumDelta) {
  // A 0.78 µs operator with min_delta 1 µs: threshold and floor 128%. The
  // interval reaches it, but the estimate (+33%) does not.
  VerdictInputs in = Base();
  in.threshold = in.floor = 1.28;
  in.change = 0.33;
  in.ci_low = 0.05;
  in.ci_high = 1.81;
  in.p = 1e-4;
  in.mde = 2.0;
  EXPECT_EQ(DecideVerdict(in).verdict, Verdict::kInconclusive);
  in.mde = 1.0;
  EXPECT_EQ(DecideVerdict(in).verdict, Verdict::kUnchanged);
  in.change = 1.3;
  EXPECT_EQ(DecideVerdict(in).verdict, Verdict::kRegression);
}

TEST(VerdictTest, SignificantDecreaseIsAnImprovement) {
  VerdictInputs in = Base();
  in.change = -0.08;
  in.ci_low = -0.10;
  in.ci_high = -0.06;
  in.p = 1e-6;
  EXPECT_EQ(DecideVerdict(in).verdict, Verdict::kImprovement);
  in.direction = Direction::kDecrease;
  EXPECT_EQ(DecideVerdict(in).verdict, Verdict::kRegression);
  in.direction = Direction::kBoth;
  EXPECT_EQ(DecideVerdict(in).verdict, Verdict::kRegression);
}

TEST(VerdictTest, EstimateMustBeNearerTheThresholdThanZero) {
  VerdictInputs in = Base();
  in.change = 0.02;  // interval reaches 5%, but the estimate is 2%
  in.ci_low = 0.005;
  in.ci_high = 0.055;
  in.p = 1e-4;
  EXPECT_EQ(DecideVerdict(in).verdict, Verdict::kUnchanged);
  in.change = 0.026;
  EXPECT_EQ(DecideVerdict(in).verdict, Verdict::kRegression);
}

TEST(VerdictTest, SignificantButSmallChangeIsUnchanged) {
  VerdictInputs in = Base();
  in.change = 0.01;
  in.ci_low = 0.008;
  in.ci_high = 0.012;
  in.p = 1e-9;
  const auto d = DecideVerdict(in);
  EXPECT_EQ(d.verdict, Verdict::kUnchanged);
  EXPECT_EQ(d.reason, "significant but below the threshold");
}

TEST(VerdictTest, LargeButUnprovenChangeIsInconclusive) {
  VerdictInputs in = Base();
  in.change = 0.07;
  in.ci_low = -0.01;
  in.ci_high = 0.15;
  in.p = 0.2;
  EXPECT_EQ(DecideVerdict(in).verdict, Verdict::kInconclusive);
  // The same estimate in the good direction is not a concern.
  in.change = -0.07;
  in.ci_low = -0.15;
  in.ci_high = 0.01;
  EXPECT_EQ(DecideVerdict(in).verdict, Verdict::kUnchanged);
}

TEST(VerdictTest, NoiseAboveTheDetectableEffectIsInconclusiveUnlessRuledOut) {
  VerdictInputs in = Base();
  in.change = 0.01;
  in.ci_low = -0.04;
  in.ci_high = 0.06;
  in.p = 0.6;
  in.mde = 0.09;
  EXPECT_EQ(DecideVerdict(in).verdict, Verdict::kInconclusive);
  in.ci_high = 0.045;  // a threshold-sized regression is ruled out
  EXPECT_EQ(DecideVerdict(in).verdict, Verdict::kUnchanged);
  in.ci_high = 0.06;
  in.mde = 0.04;  // the test could have seen it
  EXPECT_EQ(DecideVerdict(in).verdict, Verdict::kUnchanged);
}

TEST(VerdictTest, TooFewSamplesIsInconclusive) {
  VerdictInputs in = Base();
  in.n_candidate = 4;
  in.change = 0.5;
  in.ci_low = 0.4;
  in.ci_high = 0.6;
  in.p = 1e-9;
  const auto d = DecideVerdict(in);
  EXPECT_EQ(d.verdict, Verdict::kInconclusive);
  EXPECT_EQ(d.reason, "too few samples (50 vs 4; need 5 per side)");
}

}  // namespace
}  // namespace etbench
