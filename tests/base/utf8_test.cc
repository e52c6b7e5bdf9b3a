#include "etbench/base/utf8.h"

#include <gtest/gtest.h>

namespace etbench {
namespace {

TEST(Utf8Test, CountsAndCutsCodePoints) {
  const std::string name = "\xC3\xA9t\xC3\xA9-\xE2\x9C\x93";  // "été-✓"
  EXPECT_EQ(Utf8Length(name), 5u);
  EXPECT_EQ(Utf8Prefix(name, 2), "\xC3\xA9t");
  EXPECT_EQ(PadLeft(name, 7), "  " + name);
  EXPECT_EQ(PadRight("ab", 4), "ab  ");
}

TEST(Utf8Test, ReplacesInvalidUtf8) {
  EXPECT_EQ(SanitizeUtf8("ok"), "ok");
  EXPECT_EQ(SanitizeUtf8("a\xFF"
                         "b"),
            "a\xEF\xBF\xBD"
            "b");
  EXPECT_EQ(SanitizeUtf8("\xC3"), "\xEF\xBF\xBD");  // truncated sequence
  EXPECT_EQ(SanitizeUtf8("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");  // overlong
  EXPECT_EQ(SanitizeUtf8("\xE2\x9C\x93"), "\xE2\x9C\x93");
}

}  // namespace
}  // namespace etbench
