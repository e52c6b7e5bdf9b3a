#include "etbench/reports/text_util.h"

#include <gtest/gtest.h>

namespace etbench::analysis {
namespace {

TEST(TextUtilTest, TruncatesNamesLikeTorchProfiler) {
  EXPECT_EQ(TruncateName("short", 10), "short");
  // Names of max − 3 characters or more are cut to max − 3 plus "...".
  EXPECT_EQ(TruncateName("abcdefg", 10), "abcdefg...");
  EXPECT_EQ(TruncateName("abcdef", 10), "abcdef");
  EXPECT_EQ(TruncateName("abcdefghijkl", 10), "abcdefg...");
  EXPECT_EQ(TruncateName("abcdef", 1), "a...");  // widths below 4 act as 4
}

}  // namespace
}  // namespace etbench::analysis
