#include "etbench/base/terminal_text.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace etbench {
namespace {

TEST(TerminalTextTest, PrintableTextAndUnicodePassUnchanged) {
  for (const std::string s : {"native_call_convolution.out", "Method::execute", "模型 ✓ µs",
                              "a b-c/d (e)", ""}) {
    EXPECT_EQ(TerminalText(s), s);
    EXPECT_TRUE(IsTerminalSafe(s)) << s;
  }
}

TEST(TerminalTextTest, EscapeSequencesAreShownNotSent) {
  EXPECT_EQ(TerminalText("\x1b]0;title\x07"), "\\x1b]0;title\\x07");  // OSC: retitle
  EXPECT_EQ(TerminalText("\x1b[2J"), "\\x1b[2J");                     // CSI: clear
  EXPECT_EQ(TerminalText("a\x7f"), "a\\x7f");
  EXPECT_EQ(TerminalText(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_FALSE(IsTerminalSafe("\x1b[31m"));
}

TEST(TerminalTextTest, LineBreaksAndTabsBecomeCEscapes) {
  EXPECT_EQ(TerminalText("a\nb\rc\td"), "a\\nb\\rc\\td");
  EXPECT_EQ(TerminalText("a\nb").find('\n'), std::string::npos);
}

TEST(TerminalTextTest, C1InvalidUtf8AndBidiControlsAreEscaped) {
  EXPECT_EQ(TerminalText("x\x9b" "2J"), "x\\x9b2J");           // a lone C1 byte (CSI)
  EXPECT_EQ(TerminalText("x\xc2\x9b" "2J"), "x\\u009b2J");     // U+009B encoded in UTF-8
  EXPECT_EQ(TerminalText("\xff\xfe"), "\\xff\\xfe");           // not UTF-8
  EXPECT_EQ(TerminalText("\xe2\x80\xae" "abc"), "\\u202eabc");  // right-to-left override
  EXPECT_EQ(TerminalText("a\xe2\x80\xa8" "b"), "a\\u2028b");    // line separator
}

TEST(TerminalTextTest, BackslashIsDoubledSoTheResultIsUnambiguous) {
  // A name that spells an escape differs from the name holding the byte.
  EXPECT_EQ(TerminalText("\\x1b"), "\\\\x1b");
  EXPECT_NE(TerminalText("\\x1b"), TerminalText("\x1b"));
  EXPECT_FALSE(IsTerminalSafe("a\\b"));
}

TEST(TerminalTextTest, LinesKeepNewlinesAndDoNotEscapeTwice) {
  EXPECT_EQ(TerminalLines("error: \x1b[2J\nnext\n"), "error: \\x1b[2J\nnext\n");
  const std::string escaped = TerminalText("m\x1b]0;t\x07\n\\");
  EXPECT_EQ(TerminalLines(escaped), escaped);
}

TEST(TerminalTextTest, StreamEscapesWholeLinesAndFlushesTheRest) {
  std::ostringstream target;
  {
    TerminalLinesStream guard(target);
    guard << "etbench: model '" << "\x1b]0;pwned\x07" << "' failed\n";
    guard << "split \xe6\xa8";  // a UTF-8 sequence over two writes stays whole
    guard << "\xa1 tail\r";
    EXPECT_EQ(target.str(), "etbench: model '\\x1b]0;pwned\\x07' failed\n");
  }
  EXPECT_EQ(target.str(), "etbench: model '\\x1b]0;pwned\\x07' failed\nsplit 模 tail\\r");
}

TEST(TerminalTextTest, StreamFlushWritesThePartialLine) {
  std::ostringstream target;
  TerminalLinesStream guard(target);
  guard << "progress\t" << std::flush;
  EXPECT_EQ(target.str(), "progress\\t");
}

}  // namespace
}  // namespace etbench
