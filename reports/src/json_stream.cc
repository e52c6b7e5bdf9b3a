#include "json_stream.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

namespace etbench {
namespace {

// Strings that nlohmann prints as they are: printable ASCII without '"' and
// '\\' (everything else, including UTF-8, goes through its own escaping).
bool NeedsNoEscaping(std::string_view s) {
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7f || c == '"' || c == '\\') return false;
  }
  return true;
}

}  // namespace

void JsonStream::BeforeValue() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (levels_.empty()) return;
  Level& level = levels_.back();
  // ",\n" and the indentation in one append (this runs once per number).
  static const std::string kSeparators = ",\n" + std::string(2 * 64, ' ');
  const std::size_t indent = 2 * levels_.size();
  if (indent > 2 * 64) {
    Raw(level.count++ == 0 ? "\n" : ",\n");
    Indent(levels_.size());
    return;
  }
  const bool first = level.count++ == 0;
  Raw(std::string_view(kSeparators).substr(first ? 1 : 0, (first ? 1 : 2) + indent));
}

void JsonStream::BeginObject() {
  BeforeValue();
  Raw("{");
  levels_.push_back(Level{true, 0});
}

void JsonStream::BeginArray() {
  BeforeValue();
  Raw("[");
  levels_.push_back(Level{false, 0});
}

void JsonStream::EndObject() { End("}"); }

void JsonStream::EndArray() { End("]"); }

void JsonStream::End(std::string_view close) {
  const Level level = levels_.back();
  levels_.pop_back();
  if (level.count > 0) {  // nlohmann prints an empty container as {} / []
    Raw("\n");
    Indent(levels_.size());
  }
  Raw(close);
}

void JsonStream::IntOrNull(const std::optional<int64_t>& value) {
  if (value) {
    Int(*value);
  } else {
    Null();
  }
}

void JsonStream::Key(std::string_view key) {
  BeforeValue();
  QuotedString(key);
  Raw(": ");
  after_key_ = true;
}

void JsonStream::String(std::string_view value) {
  BeforeValue();
  QuotedString(value);
}

void JsonStream::QuotedString(std::string_view value) {
  if (NeedsNoEscaping(value)) {
    sink_.Append('"');
    Raw(value);
    sink_.Append('"');
    return;
  }
  // Device-made names may hold anything: nlohmann's own escaping, with
  // bytes that are not UTF-8 replaced by U+FFFD (as the tree dump did).
  Raw(nlohmann::ordered_json(std::string(value))
          .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

void JsonStream::Double(double value) {
  BeforeValue();
  if (!std::isfinite(value)) {
    Raw("null");
    return;
  }
  char buf[64];
  char* end = nlohmann::detail::to_chars(buf, buf + sizeof buf, value);
  Raw(std::string_view(buf, static_cast<std::size_t>(end - buf)));
}

void JsonStream::Int(int64_t value) {
  BeforeValue();
  char buf[24];
  auto res = std::to_chars(buf, buf + sizeof buf, value);
  Raw(std::string_view(buf, static_cast<std::size_t>(res.ptr - buf)));
}

void JsonStream::Uint(uint64_t value) {
  BeforeValue();
  char buf[24];
  auto res = std::to_chars(buf, buf + sizeof buf, value);
  Raw(std::string_view(buf, static_cast<std::size_t>(res.ptr - buf)));
}

void JsonStream::Bool(bool value) {
  BeforeValue();
  Raw(value ? "true" : "false");
}

void JsonStream::Null() {
  BeforeValue();
  Raw("null");
}

void JsonStream::Value(const nlohmann::ordered_json& value) {
  BeforeValue();
  const std::string text = value.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  // The dump starts at depth 0; every line after the first moves to ours.
  // (A newline inside a string is printed escaped, so each '\n' here ends a line.)
  std::size_t from = 0;
  for (std::size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', from)) {
    Raw(std::string_view(text).substr(from, nl + 1 - from));
    Indent(levels_.size());
    from = nl + 1;
  }
  Raw(std::string_view(text).substr(from));
}

void JsonStream::FreeDeleter::operator()(CachedDouble* p) const { std::free(p); }

std::string_view JsonStream::CachedDoubleText(double value) {
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  CachedDouble& slot = double_cache_[(bits * 0x9e3779b97f4a7c15ull) >> (64 - kCacheBits)];
  if (slot.length != 0 && slot.bits == bits) return std::string_view(slot.text, slot.length);
  // nlohmann's to_chars needs room for 23 characters and may write 24.
  char buf[32];
  char* end = nlohmann::detail::to_chars(buf, buf + sizeof buf, value);
  const auto length = static_cast<std::size_t>(end - buf);
  if (length > sizeof slot.text) {
    overflow_text_.assign(buf, length);
    return overflow_text_;
  }
  std::memcpy(slot.text, buf, length);
  slot.bits = bits;
  slot.length = static_cast<uint8_t>(length);
  return std::string_view(slot.text, slot.length);
}

// The elements of an array just begun, each written with its separator and
// indentation (as BeforeValue writes them) in one append: `format(i, at,
// end)` writes element i's text at `at` and returns where it ends.
template <typename Format>
void JsonStream::ArrayElements(std::size_t count, Format format) {
  constexpr std::size_t kMaxIndent = 2 * 64;
  const std::size_t indent = 2 * levels_.size();
  char buf[2 + kMaxIndent + 32];
  if (indent > kMaxIndent) {  // deeper than any etbench document
    char text[32];
    for (std::size_t i = 0; i < count; ++i) {
      BeforeValue();
      Raw(std::string_view(text, static_cast<std::size_t>(format(i, text, text + sizeof text) - text)));
    }
    return;
  }
  buf[0] = ',';
  buf[1] = '\n';
  std::memset(buf + 2, ' ', indent);
  char* const at = buf + 2 + indent;
  for (std::size_t i = 0; i < count; ++i) {
    const char* begin = levels_.back().count++ == 0 ? buf + 1 : buf;
    const char* end = format(i, at, buf + sizeof buf);
    Raw(std::string_view(begin, static_cast<std::size_t>(end - begin)));
  }
}

void JsonStream::DoubleArray(const std::vector<double>& values) {
  BeginArray();
  if (!double_cache_ && values.size() > 64) {
    double_cache_.reset(
        static_cast<CachedDouble*>(std::calloc(std::size_t{1} << kCacheBits, sizeof(CachedDouble))));
  }
  ArrayElements(values.size(), [&](std::size_t i, char* at, char* end) {
    const double v = values[i];
    if (!std::isfinite(v)) return static_cast<char*>(std::memcpy(at, "null", 4)) + 4;
    if (!double_cache_) return nlohmann::detail::to_chars(at, end, v);
    const std::string_view text = CachedDoubleText(v);
    std::memcpy(at, text.data(), text.size());
    return at + text.size();
  });
  EndArray();
}

void JsonStream::UintArray(const std::vector<uint64_t>& values) {
  BeginArray();
  ArrayElements(values.size(), [&](std::size_t i, char* at, char* end) {
    return std::to_chars(at, end, values[i]).ptr;
  });
  EndArray();
}

}  // namespace etbench
