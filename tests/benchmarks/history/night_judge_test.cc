#include "night_judge.h"

#include <gtest/gtest.h>

#include <cmath>

namespace etbench::bench {
namespace {

TEST(NightJudgeTest, UpperBoundOfNoFailureIsTheClosedForm) {
  // Clopper–Pearson with k = 0: 1 − 0.025^(1/n).
  EXPECT_NEAR(UpperBound(0, 288), 1 - std::pow(0.025, 1.0 / 288), 1e-9);
}

TEST(NightJudgeTest, UpperBoundMatchesClopperPearsonForSmallRates) {
  // The A/A rates the docs quote (values from the binomial tail summed exactly).
  EXPECT_NEAR(UpperBound(2, 576), 0.0124861, 1e-6);
  EXPECT_NEAR(UpperBound(6, 576), 0.0225340, 1e-6);
  EXPECT_NEAR(UpperBound(5, 144), 0.0791681, 1e-6);
}

TEST(NightJudgeTest, UpperBoundStaysAboveTheRateOverAThousandNights) {
  // (1 − p)^n underflows here; the bound once collapsed onto the rate (58.3%).
  EXPECT_NEAR(UpperBound(504, 864), 0.6164530, 1e-6);
  EXPECT_NEAR(UpperBound(568, 1008), 0.5943810, 1e-6);
}

TEST(NightJudgeTest, UpperBoundOfEveryNightFailingIsOne) {
  EXPECT_EQ(UpperBound(7, 7), 1.0);
  EXPECT_EQ(UpperBound(0, 0), 1.0);
}

TEST(NightJudgeTest, RateSpellsCountAndPercent) { EXPECT_EQ(Rate(2, 576), "2/576 (0.3%)"); }

}  // namespace
}  // namespace etbench::bench
