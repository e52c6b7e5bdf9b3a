#include "etbench/inspector/format_units.h"

#include <gtest/gtest.h>

#include <cmath>

namespace etbench {
namespace {

TEST(FormatTimeTest, PicksTheUnitLikeTorchProfiler) {
  EXPECT_EQ(FormatTime(0.001234, TimeScale::kMs), "1.234us");
  EXPECT_EQ(FormatTime(0.999, TimeScale::kMs), "999.000us");
  EXPECT_EQ(FormatTime(1.0, TimeScale::kMs), "1.000ms");
  EXPECT_EQ(FormatTime(1234.6, TimeScale::kMs), "1.235s");
  EXPECT_EQ(FormatTime(12345, TimeScale::kNs), "12.345us");
  EXPECT_EQ(FormatTime(0, TimeScale::kNs), "0.000us");
  EXPECT_EQ(FormatTime(-2.5, TimeScale::kMs), "-2.500ms");
}

TEST(FormatTimeTest, UsesTheRequestedUnit) {
  EXPECT_EQ(FormatTime(1.5, TimeScale::kMs, TimeScale::kUs), "1500.000us");
  EXPECT_EQ(FormatTime(1.5, TimeScale::kMs, TimeScale::kNs), "1500000.000ns");
  EXPECT_EQ(FormatTime(1.5, TimeScale::kMs, TimeScale::kS), "0.002s");
  EXPECT_EQ(FormatTime(1234, TimeScale::kNs, TimeScale::kMs), "0.001ms");
}

TEST(FormatTimeTest, CyclesStayCycles) {
  EXPECT_EQ(FormatTime(1234.4, TimeScale::kCycles), "1234 cycles");
  EXPECT_EQ(FormatTime(1234.4, TimeScale::kCycles, TimeScale::kMs),
            "1234 cycles");
}

TEST(ConvertTimeTest, UsesExactPowersOfTen) {
  EXPECT_EQ(ConvertTime(1, TimeScale::kMs, TimeScale::kUs), 1000);
  EXPECT_EQ(ConvertTime(1234, TimeScale::kNs, TimeScale::kUs), 1.234);
  EXPECT_EQ(ConvertTime(7, TimeScale::kCycles, TimeScale::kMs), 7);
}

TEST(FormatPercentTest, TwoDecimalsAndNanForAZeroWhole) {
  EXPECT_EQ(FormatPercent(1, 3), "33.33%");
  EXPECT_EQ(FormatPercent(3, 3), "100.00%");
  EXPECT_EQ(FormatPercent(0, 0), "NaN");
  EXPECT_EQ(FormatPercentValue(30.000000000000004), "30.00%");
  EXPECT_EQ(FormatPercentValue(std::nan("")), "n/a");
}

TEST(FormatMemoryTest, UsesBinaryUnits) {
  EXPECT_EQ(FormatMemory(0), "0 B");
  EXPECT_EQ(FormatMemory(1023), "1023 B");
  EXPECT_EQ(FormatMemory(1024), "1.00 KB");
  EXPECT_EQ(FormatMemory(1536), "1.50 KB");
  EXPECT_EQ(FormatMemory(3 * 1024 * 1024 / 2), "1.50 MB");
  EXPECT_EQ(FormatMemory(int64_t{5} * 1024 * 1024 * 1024), "5.00 GB");
  EXPECT_EQ(FormatMemory(-2048), "-2.00 KB");
}

TEST(PythonFloatReprTest, MatchesPythonRepr) {
  // Expected strings are Python 3's repr() of the same doubles.
  EXPECT_EQ(PythonFloatRepr(0.0123), "0.0123");
  EXPECT_EQ(PythonFloatRepr(2.0), "2.0");
  EXPECT_EQ(PythonFloatRepr(0.1), "0.1");
  EXPECT_EQ(PythonFloatRepr(100.0), "100.0");
  EXPECT_EQ(PythonFloatRepr(0.0001), "0.0001");
  EXPECT_EQ(PythonFloatRepr(1e-05), "1e-05");
  EXPECT_EQ(PythonFloatRepr(1.5e-07), "1.5e-07");
  EXPECT_EQ(PythonFloatRepr(1234567890123456.0), "1234567890123456.0");
  EXPECT_EQ(PythonFloatRepr(1e16), "1e+16");
  EXPECT_EQ(PythonFloatRepr(1.5e300), "1.5e+300");
  EXPECT_EQ(PythonFloatRepr(30.000000000000004), "30.000000000000004");
  EXPECT_EQ(PythonFloatRepr(-0.0), "-0.0");
  EXPECT_EQ(PythonFloatRepr(-1.25), "-1.25");
  EXPECT_EQ(PythonFloatRepr(std::nan("")), "nan");
  EXPECT_EQ(PythonFloatRepr(-INFINITY), "-inf");
}

TEST(PythonRoundTest, RoundsLikePython) {
  // Python: round(0.00015, 4) == 0.0001 (the double is just below the tie),
  // round(0.03125, 4) == 0.0312 (an exact tie goes to even).
  EXPECT_EQ(PythonRound(0.00015, 4), 0.0001);
  EXPECT_EQ(PythonRound(0.03125, 4), 0.0312);
  EXPECT_EQ(PythonRound(1.234567, 4), 1.2346);
  EXPECT_EQ(PythonRound(-1.23456, 4), -1.2346);
  EXPECT_EQ(PythonRound(0.30000000000000004, 4), 0.3);
}

}  // namespace
}  // namespace etbench
