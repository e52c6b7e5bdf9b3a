#include "etbench/base/utc_date.h"

#include <gtest/gtest.h>

namespace etbench {
namespace {

TEST(UtcDateTest, SecondsSinceTheEpochAreAnIsoDateInUtc) {
  EXPECT_EQ(FormatUtcDate(0), "1970-01-01T00:00:00Z");
  EXPECT_EQ(FormatUtcDate(1714566896), "2024-05-01T12:34:56Z");
}

}  // namespace
}  // namespace etbench
