#include "analysis/text_util.h"

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

TEST(TextUtilTest, CountsAndCutsCodePoints) {
  const std::string name = "\xC3\xA9t\xC3\xA9-\xE2\x9C\x93";  // "été-✓"
  EXPECT_EQ(Utf8Length(name), 5u);
  EXPECT_EQ(Utf8Prefix(name, 2), "\xC3\xA9t");
  EXPECT_EQ(PadLeft(name, 7), "  " + name);
  EXPECT_EQ(PadRight("ab", 4), "ab  ");
}

TEST(TextUtilTest, ReplacesInvalidUtf8) {
  EXPECT_EQ(SanitizeUtf8("ok"), "ok");
  EXPECT_EQ(SanitizeUtf8("a\xFF"
                         "b"),
            "a\xEF\xBF\xBD"
            "b");
  EXPECT_EQ(SanitizeUtf8("\xC3"), "\xEF\xBF\xBD");  // truncated sequence
  EXPECT_EQ(SanitizeUtf8("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");  // overlong
  EXPECT_EQ(SanitizeUtf8("\xE2\x9C\x93"), "\xE2\x9C\x93");
}

TEST(TextUtilTest, QuotesCsvFieldsOnlyWhenNeeded) {
  EXPECT_EQ(CsvField("plain"), "plain");
  EXPECT_EQ(CsvField("a,b"), "\"a,b\"");
  EXPECT_EQ(CsvField("say \"hi\""), "\"say \"\"hi\"\"\"");
}

}  // namespace
}  // namespace etbench::analysis
