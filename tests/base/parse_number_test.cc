#include "etbench/base/parse_number.h"

#include <gtest/gtest.h>

namespace etbench {
namespace {

TEST(ParseNumberTest, IntegersAreTheWholeTextOrNothing) {
  EXPECT_EQ(ParseInteger("3"), 3);
  EXPECT_EQ(ParseInteger("-12"), -12);
  EXPECT_EQ(ParseInteger("0"), 0);
  for (const char* bad : {"", " 3", "3 ", "+3", "3x", "x3", "1.5", "0x10", "-", "٣", "3\n"}) {
    EXPECT_EQ(ParseInteger(bad), std::nullopt) << "'" << bad << "'";
  }
}

TEST(ParseNumberTest, IntegersOutsideTheRangeAreRefused) {
  EXPECT_EQ(ParseInteger("9223372036854775807"), INT64_MAX);
  EXPECT_EQ(ParseInteger("9223372036854775808"), std::nullopt);  // overflow, no wrap
  EXPECT_EQ(ParseInteger("-9223372036854775809"), std::nullopt);
  EXPECT_EQ(ParseInteger("5", 1, 4), std::nullopt);
  EXPECT_EQ(ParseInteger("0", 1, 4), std::nullopt);
  EXPECT_EQ(ParseInteger("4", 1, 4), 4);
}

TEST(ParseNumberTest, DoublesAreFiniteDecimalsOnly) {
  EXPECT_EQ(ParseFiniteDouble("1.5"), 1.5);
  EXPECT_EQ(ParseFiniteDouble("-2e-3"), -2e-3);
  EXPECT_EQ(ParseFiniteDouble("7"), 7.0);
  for (const char* bad : {"", "inf", "nan", "-inf", "1e999", "0x1p3", " 1", "1 ", "1.5.2",
                          "+1", "1,5"}) {
    EXPECT_EQ(ParseFiniteDouble(bad), std::nullopt) << "'" << bad << "'";
  }
}

}  // namespace
}  // namespace etbench
