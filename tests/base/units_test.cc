#include "etbench/base/units.h"

#include <gtest/gtest.h>

#include <cmath>

namespace etbench {
namespace {

TEST(FormatQuantityTest, TimesTakeTheLargestUnitInWhichTheyReachOne) {
  EXPECT_EQ(FormatQuantity(0.000411, "ms"), "411.0 ns");
  EXPECT_EQ(FormatQuantity(0.0052, "ms"), "5.200 us");
  EXPECT_EQ(FormatQuantity(1899, "us"), "1.899 ms");
  EXPECT_EQ(FormatQuantity(2.5, "ms"), "2.500 ms");
  EXPECT_EQ(FormatQuantity(3600, "s"), "3600 s");
  EXPECT_EQ(FormatQuantity(123456, "ns"), "123.5 us");
  EXPECT_EQ(FormatQuantity(0.3, "ns"), "0.300 ns");  // nothing below ns
  EXPECT_EQ(FormatQuantity(-0.002, "ms"), "-2.000 us");
  // The default inspect scale (ms) for a 39.9 ns operator: never "3.99e-05 ms".
  EXPECT_EQ(FormatQuantity(3.99e-05, "ms"), "39.90 ns");
}

TEST(FormatQuantityTest, RoundingUpToAThousandMovesToTheNextUnit) {
  EXPECT_EQ(FormatQuantity(0.99996, "ms"), "1.000 ms");
  EXPECT_EQ(FormatQuantity(999.96, "us"), "1.000 ms");
  EXPECT_EQ(FormatQuantity(999.4, "us"), "999.4 us");
  EXPECT_EQ(FormatQuantity(999.96, "s"), "1000 s");  // no unit above s
}

TEST(FormatQuantityTest, BytesAreIec) {
  EXPECT_EQ(FormatQuantity(512, "bytes"), "512.0 B");
  EXPECT_EQ(FormatQuantity(4096, "bytes"), "4.000 KiB");
  EXPECT_EQ(FormatQuantity(1572864, "bytes"), "1.500 MiB");
  EXPECT_EQ(FormatQuantity(3.0 * 1073741824.0, "B"), "3.000 GiB");
}

TEST(FormatQuantityTest, OtherUnitsKeepTheirUnit) {
  EXPECT_EQ(FormatQuantity(1.5, "percent"), "1.500%");
  EXPECT_EQ(FormatQuantity(12345678, "cycles"), "12345678 cycles");
  EXPECT_EQ(FormatQuantity(42, "allocations"), "42.00 allocations");
  EXPECT_EQ(FormatQuantity(0, "ms"), "0.000 ms");
  EXPECT_EQ(FormatQuantity(std::nan(""), "ms"), "n/a");
}

TEST(ColumnDisplayUnitTest, OneUnitPerColumnKeepsSmallValuesDigits) {
  // A column whose largest value is 1222 ns stays in ns: its 291 ns reads
  // "291.0 ns", not "0.291 us" beside "1222 ns".
  const DisplayUnit unit = ColumnDisplayUnit("ns", 1222);
  EXPECT_EQ(unit.name, "ns");
  EXPECT_EQ(FormatQuantity(291, unit), "291.0 ns");
  EXPECT_EQ(FormatQuantity(1222, unit), "1222 ns");
  // Up to below 10,000 of the smallest unit, then the next.
  EXPECT_EQ(ColumnDisplayUnit("us", 2031).name, "us");
  EXPECT_EQ(ColumnDisplayUnit("us", 12031).name, "ms");
  EXPECT_EQ(ColumnDisplayUnit("bytes", 20000).name, "KiB");
  EXPECT_EQ(ColumnDisplayUnit("percent", 50).name, "%");
}

TEST(ConvertUnitTest, ConvertsWithinAFamilyOnly) {
  EXPECT_EQ(ConvertUnit(2, "ms", "us"), 2000);
  EXPECT_EQ(ConvertUnit(1, "MiB", "KiB"), 1024);
  EXPECT_EQ(ConvertUnit(1.5, "pp", "percent"), 1.5);
  EXPECT_FALSE(ConvertUnit(1, "ms", "bytes"));
  EXPECT_FALSE(ConvertUnit(1, "cycles", "ns"));
  EXPECT_FALSE(ConvertUnit(1, "ms", "furlongs"));
}

TEST(UnitTableTest, NamesFamiliesAndTimeScales) {
  EXPECT_EQ(NanosecondsPerUnit("us"), 1e3);
  EXPECT_EQ(NanosecondsPerUnit("cycles"), 0);
  EXPECT_TRUE(IsTimeUnit("s"));
  EXPECT_FALSE(IsTimeUnit("bytes"));
  ASSERT_NE(FindUnit("KiB"), nullptr);
  EXPECT_EQ(FindUnit("KiB")->family, UnitFamily::kBytes);
  EXPECT_EQ(FindUnit("MB"), nullptr) << "bytes are IEC only";
}

TEST(UnitTableTest, ListsTheNamesOfTheFamiliesAsked) {
  EXPECT_EQ(UnitNames({UnitFamily::kTime}), "ns, us, ms, s");
  EXPECT_EQ(UnitNames({UnitFamily::kCycles, UnitFamily::kBytes}),
            "B, bytes, KiB, MiB, GiB, cycles");  // the table's order
  EXPECT_EQ(UnitNames({}), "");
}

TEST(SplitQuantityTest, ReadsANumberAndTheUnitWrittenAfterIt) {
  auto q = SplitQuantity("2ms");
  ASSERT_TRUE(q);
  EXPECT_EQ(q->value, 2);
  EXPECT_EQ(q->unit, "ms");
  q = SplitQuantity("0.5  MiB ");
  ASSERT_TRUE(q);
  EXPECT_EQ(q->value, 0.5);
  EXPECT_EQ(q->unit, "MiB");
  q = SplitQuantity("3");
  ASSERT_TRUE(q);
  EXPECT_EQ(q->unit, "");
  q = SplitQuantity("3 parsecs");  // unknown units are the caller's to refuse
  ASSERT_TRUE(q);
  EXPECT_EQ(q->unit, "parsecs");
  EXPECT_EQ(FindUnit(q->unit), nullptr);
}

TEST(SplitQuantityTest, RefusesTextWithoutAFiniteNumber) {
  EXPECT_FALSE(SplitQuantity("fast"));
  EXPECT_FALSE(SplitQuantity(""));
  EXPECT_FALSE(SplitQuantity("inf ms"));
  EXPECT_FALSE(SplitQuantity("nan"));
}

}  // namespace
}  // namespace etbench
