#include "etbench/inspector/time_scale.h"

#include <gtest/gtest.h>

namespace etbench {
namespace {

TEST(TimeScaleTest, FactorsMatchTheReference) {
  EXPECT_EQ(TimeScaleFactor(TimeScale::kNs, TimeScale::kMs).value(), 1e6);
  EXPECT_EQ(TimeScaleFactor(TimeScale::kMs, TimeScale::kNs).value(), 1e-6);
  EXPECT_EQ(TimeScaleFactor(TimeScale::kUs, TimeScale::kS).value(), 1e6);
  EXPECT_EQ(TimeScaleFactor(TimeScale::kCycles, TimeScale::kCycles).value(), 1.0);
  EXPECT_EQ(TimeScaleFactor(TimeScale::kNs, TimeScale::kNs).value(), 1.0);
}

TEST(TimeScaleTest, CyclesOnlyConvertToCycles) {
  auto a = TimeScaleFactor(TimeScale::kCycles, TimeScale::kMs);
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.error().message.find("cycles"), std::string::npos);
  EXPECT_FALSE(TimeScaleFactor(TimeScale::kNs, TimeScale::kCycles).ok());
}

TEST(TimeScaleTest, ParsesNamesAndRejectsUnknown) {
  EXPECT_EQ(ParseTimeScale("us").value(), TimeScale::kUs);
  EXPECT_EQ(ParseTimeScale("cycles").value(), TimeScale::kCycles);
  auto bad = ParseTimeScale("minutes");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("minutes"), std::string::npos);
}

TEST(TimeScaleTest, DefaultTargetKeepsCycles) {
  EXPECT_EQ(DefaultTargetTimeScale(TimeScale::kNs), TimeScale::kMs);
  EXPECT_EQ(DefaultTargetTimeScale(TimeScale::kCycles), TimeScale::kCycles);
}

}  // namespace
}  // namespace etbench
