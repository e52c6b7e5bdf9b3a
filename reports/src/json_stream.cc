#include "json_stream.h"

#include <charconv>
#include <cmath>
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

std::string_view JsonStream::CachedDoubleText(double value) {
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  CachedDouble& slot = double_cache_[(bits * 0x9e3779b97f4a7c15ull) >> 52];  // 12 bits
  static_assert(kCacheSlots == std::size_t{1} << 12, "the slot index takes 12 bits");
  if (slot.length == 0 || slot.bits != bits) {
    char* end = nlohmann::detail::to_chars(slot.text, slot.text + sizeof slot.text, value);
    slot.bits = bits;
    slot.length = static_cast<uint8_t>(end - slot.text);
  }
  return std::string_view(slot.text, slot.length);
}

void JsonStream::DoubleArray(const std::vector<double>& values) {
  BeginArray();
  if (!double_cache_ && values.size() > 64) {
    double_cache_ = std::make_unique<CachedDouble[]>(kCacheSlots);
  }
  for (double v : values) {
    if (!double_cache_ || !std::isfinite(v)) {
      Double(v);
      continue;
    }
    BeforeValue();
    Raw(CachedDoubleText(v));
  }
  EndArray();
}

void JsonStream::UintArray(const std::vector<uint64_t>& values) {
  BeginArray();
  for (uint64_t v : values) Uint(v);
  EndArray();
}

}  // namespace etbench
