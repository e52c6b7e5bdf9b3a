#include "etbench/base/terminal_text.h"

#include <cstdint>

#include "etbench/base/utf8.h"

namespace etbench {
namespace {

constexpr char kHex[] = "0123456789abcdef";

void AppendHexByte(unsigned char b, std::string* out) {
  out->append("\\x");
  out->push_back(kHex[b >> 4]);
  out->push_back(kHex[b & 0xf]);
}

// The code point of the valid `n`-byte UTF-8 sequence at `p`.
uint32_t CodePoint(const char* p, std::size_t n) {
  static constexpr unsigned char kLeadMask[] = {0, 0x7f, 0x1f, 0x0f, 0x07};
  uint32_t cp = static_cast<unsigned char>(p[0]) & kLeadMask[n];
  for (std::size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(p[k]) & 0x3f);
  return cp;
}

// Valid code points a terminal treats as controls: C1 (CSI is U+009B), the
// line and paragraph separators, and the bidirectional controls (which can
// reorder what is shown after them).
bool IsControlCodePoint(uint32_t cp) {
  return (cp >= 0x80 && cp <= 0x9f) || cp == 0x061c || cp == 0x200e || cp == 0x200f ||
         cp == 0x2028 || cp == 0x2029 || (cp >= 0x202a && cp <= 0x202e) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

// Appends `text` by the rule; with `lines`, '\n' and '\\' pass unchanged.
void Escape(std::string_view text, bool lines, std::string* out) {
  for (std::size_t i = 0; i < text.size();) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (b >= 0x20 && b < 0x7f) {
      if (b == '\\' && !lines) out->push_back('\\');
      out->push_back(static_cast<char>(b));
      ++i;
      continue;
    }
    if (b < 0x80) {
      switch (b) {
        case '\n': out->append(lines ? "\n" : "\\n"); break;
        case '\r': out->append("\\r"); break;
        case '\t': out->append("\\t"); break;
        default: AppendHexByte(b, out);
      }
      ++i;
      continue;
    }
    const std::size_t n = Utf8SequenceLength(text, i);
    if (n == 0) {
      AppendHexByte(b, out);
      ++i;
      continue;
    }
    const uint32_t cp = CodePoint(text.data() + i, n);
    if (IsControlCodePoint(cp)) {
      out->append("\\u");
      for (int shift = 12; shift >= 0; shift -= 4) out->push_back(kHex[(cp >> shift) & 0xf]);
    } else {
      out->append(text.substr(i, n));
    }
    i += n;
  }
}

}  // namespace

bool IsTerminalSafe(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (b >= 0x20 && b < 0x7f && b != '\\') {
      ++i;
      continue;
    }
    if (b < 0x80) return false;
    const std::size_t n = Utf8SequenceLength(text, i);
    if (n == 0 || IsControlCodePoint(CodePoint(text.data() + i, n))) return false;
    i += n;
  }
  return true;
}

void AppendTerminalText(std::string_view text, std::string* out) {
  if (IsTerminalSafe(text)) {
    out->append(text);
    return;
  }
  Escape(text, /*lines=*/false, out);
}

std::string TerminalText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  AppendTerminalText(text, &out);
  return out;
}

std::string TerminalLines(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  Escape(text, /*lines=*/true, &out);
  return out;
}

TerminalLinesStream::TerminalLinesStream(std::ostream& target)
    : std::ostream(nullptr), buffer_(target) {
  rdbuf(&buffer_);
}

TerminalLinesStream::~TerminalLinesStream() { buffer_.pubsync(); }

void TerminalLinesStream::Buffer::WritePending() {
  if (pending_.empty()) return;
  target_ << TerminalLines(pending_);
  pending_.clear();
}

int TerminalLinesStream::Buffer::sync() {
  WritePending();
  target_.flush();
  return target_ ? 0 : -1;
}

TerminalLinesStream::Buffer::int_type TerminalLinesStream::Buffer::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  pending_.push_back(traits_type::to_char_type(c));
  if (pending_.back() == '\n') WritePending();
  return c;
}

std::streamsize TerminalLinesStream::Buffer::xsputn(const char* s, std::streamsize n) {
  pending_.append(s, static_cast<std::size_t>(n));
  // Whole lines go out at once; a partial line waits for its end (a UTF-8
  // sequence split over two writes is then judged whole).
  const std::size_t last = pending_.rfind('\n');
  if (last != std::string::npos) {
    const std::string rest = pending_.substr(last + 1);
    pending_.resize(last + 1);
    WritePending();
    pending_ = rest;
  }
  return n;
}

}  // namespace etbench
