// Text helpers of the analysis renderers (see text_util.h).
#include "analysis/text_util.h"

#include <algorithm>
#include <cstdint>

namespace etbench::analysis {

std::size_t Utf8Length(std::string_view text) {
  std::size_t n = 0;
  for (char c : text) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  }
  return n;
}

std::string Utf8Prefix(std::string_view text, std::size_t count) {
  std::size_t seen = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      if (seen == count) return std::string(text.substr(0, i));
      ++seen;
    }
  }
  return std::string(text);
}

std::string TruncateName(std::string_view name, std::size_t max_width) {
  const std::size_t keep = std::max<std::size_t>(max_width, 4) - 3;
  if (Utf8Length(name) < keep) return std::string(name);
  return Utf8Prefix(name, keep) + "...";
}

std::string PadLeft(std::string_view text, std::size_t width) {
  const std::size_t length = Utf8Length(text);
  std::string out(length < width ? width - length : 0, ' ');
  out += text;
  return out;
}

std::string PadRight(std::string_view text, std::size_t width) {
  const std::size_t length = Utf8Length(text);
  std::string out(text);
  if (length < width) out.append(width - length, ' ');
  return out;
}

std::string RightTrim(std::string text) {
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

std::string CsvField(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) {
    return std::string(text);
  }
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string SanitizeUtf8(std::string_view bytes) {
  static const char kReplacement[] = "\xEF\xBF\xBD";
  std::string out;
  out.reserve(bytes.size());
  std::size_t i = 0;
  while (i < bytes.size()) {
    const auto b0 = static_cast<unsigned char>(bytes[i]);
    std::size_t length = 0;
    uint32_t min = 0;
    if (b0 < 0x80) {
      out += static_cast<char>(b0);
      ++i;
      continue;
    } else if ((b0 & 0xE0) == 0xC0) {
      length = 2;
      min = 0x80;
    } else if ((b0 & 0xF0) == 0xE0) {
      length = 3;
      min = 0x800;
    } else if ((b0 & 0xF8) == 0xF0) {
      length = 4;
      min = 0x10000;
    }
    bool valid = length != 0 && i + length <= bytes.size();
    uint32_t code = length == 0 ? 0 : (b0 & (0x7F >> length));
    for (std::size_t k = 1; valid && k < length; ++k) {
      const auto b = static_cast<unsigned char>(bytes[i + k]);
      if ((b & 0xC0) != 0x80) valid = false;
      code = (code << 6) | (b & 0x3F);
    }
    // Overlong forms, surrogates and values past U+10FFFF are invalid too.
    if (valid &&
        (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))) {
      valid = false;
    }
    if (valid) {
      out.append(bytes.substr(i, length));
      i += length;
    } else {
      out += kReplacement;
      ++i;
    }
  }
  return out;
}

}  // namespace etbench::analysis
