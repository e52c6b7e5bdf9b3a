#include "json_text.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace etbench::harness {
namespace {

// Length of the valid UTF-8 sequence at s[i], or 0 when invalid.
std::size_t Utf8Length(std::string_view s, std::size_t i) {
  const auto b = static_cast<unsigned char>(s[i]);
  std::size_t n = 0;
  uint32_t cp = 0;
  if (b < 0x80) return 1;
  if ((b & 0xe0) == 0xc0) {
    n = 2;
    cp = b & 0x1f;
  } else if ((b & 0xf0) == 0xe0) {
    n = 3;
    cp = b & 0x0f;
  } else if ((b & 0xf8) == 0xf0) {
    n = 4;
    cp = b & 0x07;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    const auto c = static_cast<unsigned char>(s[i + k]);
    if ((c & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (c & 0x3f);
  }
  // Overlong forms, surrogates and values past U+10FFFF are invalid.
  if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
      cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
    return 0;
  }
  return n;
}

}  // namespace

std::string SanitizeUtf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = Utf8Length(s, i);
    if (n == 0) {
      out += "\xef\xbf\xbd";
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

void AppendJsonString(std::string* out, std::string_view s) {
  out->push_back('"');
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x80) {
      const std::size_t n = Utf8Length(s, i);
      if (n == 0) {
        *out += "\xef\xbf\xbd";
        ++i;
      } else {
        out->append(s.substr(i, n));
        i += n;
      }
      continue;
    }
    switch (c) {
      case '"':
        *out += "\\\"";
        break;
      case '\\':
        *out += "\\\\";
        break;
      case '\n':
        *out += "\\n";
        break;
      case '\r':
        *out += "\\r";
        break;
      case '\t':
        *out += "\\t";
        break;
      default:
        if (u < 0x20 || u == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", u);
          *out += buf;
        } else {
          out->push_back(c);
        }
    }
    ++i;
  }
  out->push_back('"');
}

void AppendJsonNumber(std::string* out, double value) {
  if (!std::isfinite(value)) {
    *out += "null";
    return;
  }
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, value);
  out->append(buf, r.ptr);
}

void AppendJsonInt(std::string* out, int64_t value) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, value);
  out->append(buf, r.ptr);
}

void AppendJsonNumberArray(std::string* out, const std::vector<double>& values) {
  // Formats straight into the string's spare room (at most 24 chars + ", "
  // per number): the results' raw samples are most of their bytes.
  constexpr std::size_t kMaxChars = 26;
  const std::size_t start = out->size();
  out->resize(start + 2 + values.size() * kMaxChars);
  char* p = out->data() + start;
  *p++ = '[';
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) {
      *p++ = ',';
      *p++ = ' ';
    }
    if (std::isfinite(values[i])) {
      p = std::to_chars(p, p + 24, values[i]).ptr;
    } else {
      std::memcpy(p, "null", 4);
      p += 4;
    }
  }
  *p++ = ']';
  out->resize(static_cast<std::size_t>(p - out->data()));
}

void AppendJsonIntArray(std::string* out, const std::vector<int64_t>& values) {
  out->push_back('[');
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) *out += ", ";
    AppendJsonInt(out, values[i]);
  }
  out->push_back(']');
}

void AppendJsonUintArray(std::string* out, const std::vector<uint64_t>& values) {
  out->push_back('[');
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) *out += ", ";
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, values[i]);
    out->append(buf, r.ptr);
  }
  out->push_back(']');
}

void AppendJsonStringArray(std::string* out, const std::vector<std::string>& values) {
  out->push_back('[');
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) *out += ", ";
    AppendJsonString(out, values[i]);
  }
  out->push_back(']');
}

}  // namespace etbench::harness
