#include "etbench/base/json_writer.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "etbench/base/utf8.h"

namespace etbench {

void AppendJsonString(std::string* out, std::string_view s) {
  out->push_back('"');
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x80) {
      const std::size_t n = Utf8SequenceLength(s, i);
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

}  // namespace etbench
