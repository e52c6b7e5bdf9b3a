#include "etbench/base/display_units.h"

#include <gtest/gtest.h>

#include <cmath>

namespace etbench {
namespace {

TEST(FormatForPeopleTest, TimesTakeTheLargestUnitInWhichTheyReachOne) {
  EXPECT_EQ(FormatForPeople(0.000411, "ms"), "411 ns");
  EXPECT_EQ(FormatForPeople(0.0052, "ms"), "5.2 us");
  EXPECT_EQ(FormatForPeople(1899, "us"), "1.899 ms");
  EXPECT_EQ(FormatForPeople(2.5, "ms"), "2.5 ms");
  EXPECT_EQ(FormatForPeople(3600, "s"), "3600 s");
  EXPECT_EQ(FormatForPeople(123456, "ns"), "123.5 us");
  EXPECT_EQ(FormatForPeople(0.3, "ns"), "0.3 ns");  // nothing below ns
  EXPECT_EQ(FormatForPeople(-0.002, "ms"), "-2 us");
}

TEST(FormatForPeopleTest, RoundingUpToAThousandMovesToTheNextUnit) {
  EXPECT_EQ(FormatForPeople(0.99996, "ms"), "1 ms");
  EXPECT_EQ(FormatForPeople(999.96, "s"), "1000 s");  // no unit above s
}

TEST(FormatForPeopleTest, OtherUnitsKeepTheirUnit) {
  EXPECT_EQ(FormatForPeople(1.5, "percent"), "1.5%");
  EXPECT_EQ(FormatForPeople(12345678, "cycles"), "1.235e+07 cycles");
  EXPECT_EQ(FormatForPeople(4096, "bytes"), "4096 bytes");
  EXPECT_EQ(FormatForPeople(0, "ms"), "0 ms");
  EXPECT_EQ(FormatForPeople(std::nan(""), "ms"), "n/a");
}

}  // namespace
}  // namespace etbench
