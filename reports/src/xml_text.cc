// XML/HTML escaping.

#include "xml_text.h"

#include <cstdint>

#include "etbench/base/utf8.h"

namespace etbench::reports::internal {
namespace {

// Length of the valid UTF-8 sequence at text[i] that is also an XML
// character (U+FFFE and U+FFFF are not), or 0.
std::size_t XmlCharLength(const std::string& text, std::size_t i) {
  const std::size_t n = Utf8SequenceLength(text, i);
  if (n == 3 && static_cast<unsigned char>(text[i]) == 0xEF &&
      static_cast<unsigned char>(text[i + 1]) == 0xBF &&
      static_cast<unsigned char>(text[i + 2]) >= 0xBE) {
    return 0;
  }
  return n;
}

}  // namespace

std::string XmlEscape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    switch (c) {
      case '&': out += "&amp;"; ++i; continue;
      case '<': out += "&lt;"; ++i; continue;
      case '>': out += "&gt;"; ++i; continue;
      case '"': out += "&quot;"; ++i; continue;
      case '\'': out += "&#39;"; ++i; continue;
      default: break;
    }
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20) {
      if (c == '\t' || c == '\n' || c == '\r') out += c;
      ++i;
      continue;
    }
    const std::size_t n = XmlCharLength(text, i);
    if (n == 0) {
      out += "\uFFFD";
      ++i;
      continue;
    }
    if (n == 1 && u == 0x7F) {
      ++i;
      continue;
    }
    out.append(text, i, n);
    i += n;
  }
  return out;
}

}  // namespace etbench::reports::internal
