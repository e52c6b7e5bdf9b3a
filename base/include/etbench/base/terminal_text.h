#pragma once
// The one rule for names from outside (ETDump event and delegate names,
// labels, model, suite and metric names, file names) on a terminal: every
// byte that could move the cursor, retitle or clear the window, recolour
// text or break a line is shown as a visible escape instead.
//
// The rule (like `ls -b` and git's quoted paths, in C's notation):
//   - printable ASCII passes, except '\' which becomes "\\";
//   - newline, carriage return and tab become "\n", "\r", "\t";
//   - every other C0 control byte and DEL become "\xHH" (ESC is "\x1b");
//   - a byte that does not start a valid UTF-8 sequence becomes "\xHH"
//     (a lone C1 byte such as 0x9b, CSI, is invalid UTF-8);
//   - valid UTF-8 passes, except C1 controls (U+0080–U+009F), the line and
//     paragraph separators (U+2028, U+2029) and the bidirectional controls
//     (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), which become
//     "\uHHHH".
// Since '\' itself is escaped the result is unambiguous: the name can be
// read back from it. Machine formats (JSON, CSV) keep the real name and
// escape it their own way; Markdown, HTML and XML escape for their format.

#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>

namespace etbench {

/// `text` by the rule above: only printable characters, one line.
std::string TerminalText(std::string_view text);

/// Appends TerminalText(text) to `*out`.
void AppendTerminalText(std::string_view text, std::string* out);

/// True when TerminalText(text) == text (no byte needs an escape): the fast
/// path of renderers that print millions of names.
bool IsTerminalSafe(std::string_view text);

/// The rule for text made of whole lines that etbench composed (an error
/// message, a warning, a progress message): like TerminalText, but '\n' and
/// '\' pass unchanged. Text already passed through TerminalText is left as
/// it is, so applying both never escapes twice.
std::string TerminalLines(std::string_view text);

/// A stream that writes to `target` through TerminalLines, a line at a time
/// (the rest on flush and destruction): the guard on a diagnostic stream
/// (stderr), so that no name a message forgot to escape can control the
/// terminal. Not for output that carries etbench's own colour codes.
class TerminalLinesStream : public std::ostream {
 public:
  explicit TerminalLinesStream(std::ostream& target);
  ~TerminalLinesStream() override;
  TerminalLinesStream(const TerminalLinesStream&) = delete;
  TerminalLinesStream& operator=(const TerminalLinesStream&) = delete;

 private:
  class Buffer : public std::streambuf {
   public:
    explicit Buffer(std::ostream& target) : target_(target) {}
    /// Writes the pending text (escaped) and flushes the target.
    int sync() override;

   protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char* s, std::streamsize n) override;

   private:
    void WritePending();
    std::ostream& target_;
    std::string pending_;
  };
  Buffer buffer_;
};

}  // namespace etbench
