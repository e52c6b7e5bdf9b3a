#include "etbench/runtime/clock.h"

#include <gtest/gtest.h>

namespace etbench::runtime {
namespace {

TEST(RuntimeClockTest, ParsesTimeSourceNames) {
  EXPECT_EQ(*ParseTimeSource("ns"), TimeSource::kNs);
  EXPECT_EQ(*ParseTimeSource("cycles"), TimeSource::kCycles);
  auto bad = ParseTimeSource("ms");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("ns or cycles"), std::string::npos);
  EXPECT_EQ(TimeSourceName(TimeSource::kCycles), "cycles");
}

TEST(RuntimeClockTest, NanosecondRateIsExact) {
  const TickRate rate = MeasureTickRate(TimeSource::kNs);
  EXPECT_EQ(rate.hz, 1e9);
  EXPECT_FALSE(rate.measured);
}

TEST(RuntimeClockTest, CycleRateIsPlausible) {
  if (!CycleCounterAvailable()) GTEST_SKIP() << "no cycle counter";
  const TickRate rate = MeasureTickRate(TimeSource::kCycles, 5.0);
  // Any real counter ticks between 1 MHz (AArch64 timers) and 10 GHz.
  EXPECT_GT(rate.hz, 1e6);
  EXPECT_LT(rate.hz, 1e10);
}

TEST(RuntimeClockTest, MonotonicClockAdvances) {
  const uint64_t a = ReadMonotonicNs();
  uint64_t b = ReadMonotonicNs();
  while (b == a) b = ReadMonotonicNs();
  EXPECT_GT(b, a);
}

}  // namespace
}  // namespace etbench::runtime
