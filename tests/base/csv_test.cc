#include "etbench/base/csv.h"

#include <gtest/gtest.h>

namespace etbench {
namespace {

TEST(CsvTest, QuotesCsvFieldsOnlyWhenNeeded) {
  EXPECT_EQ(CsvField("plain"), "plain");
  EXPECT_EQ(CsvField("a,b"), "\"a,b\"");
  EXPECT_EQ(CsvField("say \"hi\""), "\"say \"\"hi\"\"\"");
}

TEST(CsvTest, QuotesTheChosenSeparator) {
  EXPECT_EQ(CsvField("a,b", '\t'), "a,b");
  EXPECT_EQ(CsvField("a\tb", '\t'), "\"a\tb\"");
  EXPECT_EQ(CsvField("line\nbreak", '\t'), "\"line\nbreak\"");
}

}  // namespace
}  // namespace etbench
