// JsonWriter: a JSON document written as it is produced, laid out as
// nlohmann::ordered_json's dump(indent) lays out the same tree (and one-line
// containers where asked). Its kNlohmann spelling takes nlohmann's own
// number and string formatting (to_chars, dump_escaped), so the outputs that
// nlohmann's tree printed before keep every byte; kShortest is the results
// file's (std::to_chars, AppendShortestJsonString).

#include <cassert>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <ostream>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "etbench/base/json_writer.h"
#include "json_text.h"

namespace etbench {
namespace {

// Stream mode hands the buffer to the stream once it holds this much.
constexpr std::size_t kChunk = std::size_t{1} << 16;
// Indentation up to this many spaces is written from one prepared string;
// deeper (no etbench document is) one space run at a time.
constexpr std::size_t kMaxIndent = 256;

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

// A direct-mapped cache of double texts keyed by the double's bits: equal
// bits, equal text. Plain data: the slots come zeroed from calloc, so only
// the slots used are ever touched (a large calloc is fresh zero pages).
struct JsonWriter::DoubleCache {
  static constexpr int kBits = 14;
  struct Slot {
    uint64_t bits;
    uint8_t length;  // 0: empty slot (no printed double is empty)
    char text[23];   // longer texts are not cached
  };
  Slot slots[std::size_t{1} << kBits];
};

void JsonWriter::DoubleCacheDeleter::operator()(DoubleCache* cache) const { std::free(cache); }

JsonWriter::JsonWriter(int indent, JsonSpelling spelling)
    : indent_(indent), spelling_(spelling) {}

JsonWriter::JsonWriter(std::ostream& out, int indent, JsonSpelling spelling)
    : out_(&out), indent_(indent), spelling_(spelling) {
  buffer_.reserve(kChunk + kChunk / 4);
}

JsonWriter::~JsonWriter() { Flush(); }

void JsonWriter::Flush() {
  if (out_ == nullptr || buffer_.empty()) return;
  out_->write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  buffer_.clear();
}

std::string JsonWriter::Take() {
  std::string text = std::move(buffer_);
  buffer_.clear();
  return text;
}

void JsonWriter::Raw(std::string_view text) {
  buffer_.append(text);
  if (out_ != nullptr && buffer_.size() >= kChunk) Flush();
}

void JsonWriter::Indent(std::size_t depth) {
  std::size_t n = static_cast<std::size_t>(indent_) * depth;
  buffer_.append(n, ' ');
  if (out_ != nullptr && buffer_.size() >= kChunk) Flush();
}

void JsonWriter::BeforeValue() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (levels_.empty()) return;
  Level& level = levels_.back();
  const bool first = level.count++ == 0;
  if (level.one_line) {
    if (!first) Raw(", ");
    return;
  }
  if (indent_ < 0) {
    if (!first) Raw(",");
    return;
  }
  // ",\n" and the indentation in one append (this runs once per number).
  static const std::string kSeparators = ",\n" + std::string(kMaxIndent, ' ');
  const std::size_t spaces = static_cast<std::size_t>(indent_) * line_depth_;
  if (spaces > kMaxIndent) {
    Raw(first ? "\n" : ",\n");
    Indent(line_depth_);
    return;
  }
  Raw(std::string_view(kSeparators).substr(first ? 1 : 0, (first ? 1 : 2) + spaces));
}

JsonWriter& JsonWriter::Begin(char open, bool object, JsonLayout layout) {
  BeforeValue();
  Raw(std::string_view(&open, 1));
  const bool one_line = layout == JsonLayout::kInherit
                            ? !levels_.empty() && levels_.back().one_line
                            : layout == JsonLayout::kOneLine;
  levels_.push_back(Level{object, one_line, 0});
  if (!one_line) ++line_depth_;
  return *this;
}

JsonWriter& JsonWriter::BeginObject(JsonLayout layout) { return Begin('{', true, layout); }

JsonWriter& JsonWriter::BeginArray(JsonLayout layout) { return Begin('[', false, layout); }

JsonWriter& JsonWriter::EndObject() {
  assert(!levels_.empty() && levels_.back().object && !after_key_);
  return End('}');
}

JsonWriter& JsonWriter::EndArray() {
  assert(!levels_.empty() && !levels_.back().object);
  return End(']');
}

JsonWriter& JsonWriter::End(char close) {
  const Level level = levels_.back();
  levels_.pop_back();
  if (!level.one_line) --line_depth_;
  // An empty container prints as {} / []; a one-line one closes on its line.
  if (level.count > 0 && !level.one_line && indent_ >= 0) {
    Raw("\n");
    Indent(line_depth_);
  }
  Raw(std::string_view(&close, 1));
  return *this;
}

JsonWriter& JsonWriter::Key(std::string_view key) {
  assert(!levels_.empty() && levels_.back().object && !after_key_);
  BeforeValue();
  QuotedString(key);
  Raw(indent_ < 0 && !levels_.back().one_line ? ":" : ": ");
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::String(std::string_view value) {
  BeforeValue();
  QuotedString(value);
  return *this;
}

void JsonWriter::QuotedString(std::string_view value) {
  if (NeedsNoEscaping(value)) {
    buffer_.push_back('"');
    buffer_.append(value);
    Raw("\"");
    return;
  }
  // Device-made names may hold anything: the spelling's escaping, with
  // bytes that are not UTF-8 replaced by U+FFFD.
  if (spelling_ == JsonSpelling::kShortest) {
    std::string text;
    internal::AppendShortestJsonString(&text, value);
    Raw(text);
    return;
  }
  Raw(nlohmann::ordered_json(std::string(value))
          .dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
}

char* JsonWriter::DoubleText(char* at, char* end, double value) const {
  if (spelling_ == JsonSpelling::kShortest) return std::to_chars(at, end, value).ptr;
  return nlohmann::detail::to_chars(at, end, value);
}

JsonWriter& JsonWriter::Double(double value) {
  BeforeValue();
  if (!std::isfinite(value)) {
    Raw("null");
    return *this;
  }
  char buf[64];
  char* end = DoubleText(buf, buf + sizeof buf, value);
  Raw(std::string_view(buf, static_cast<std::size_t>(end - buf)));
  return *this;
}

template <typename T>
JsonWriter& JsonWriter::Integer(T value) {
  BeforeValue();
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, value);
  Raw(std::string_view(buf, static_cast<std::size_t>(r.ptr - buf)));
  return *this;
}

JsonWriter& JsonWriter::Int(int64_t value) { return Integer(value); }

JsonWriter& JsonWriter::Uint(uint64_t value) { return Integer(value); }

JsonWriter& JsonWriter::Bool(bool value) {
  BeforeValue();
  Raw(value ? "true" : "false");
  return *this;
}

JsonWriter& JsonWriter::Null() {
  BeforeValue();
  Raw("null");
  return *this;
}

JsonWriter& JsonWriter::IntOrNull(const std::optional<int64_t>& value) {
  return value ? Int(*value) : Null();
}

JsonWriter& JsonWriter::DoubleOrNull(const std::optional<double>& value) {
  return value ? Double(*value) : Null();
}

JsonWriter& JsonWriter::StringOrNull(const std::optional<std::string>& value) {
  return value ? String(*value) : Null();
}

std::string_view JsonWriter::CachedDoubleText(double value) {
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  DoubleCache::Slot& slot =
      double_cache_->slots[(bits * 0x9e3779b97f4a7c15ull) >> (64 - DoubleCache::kBits)];
  if (slot.length != 0 && slot.bits == bits) return std::string_view(slot.text, slot.length);
  char buf[32];
  char* end = DoubleText(buf, buf + sizeof buf, value);
  const auto length = static_cast<std::size_t>(end - buf);
  if (length > sizeof slot.text) {  // not cached: copied by the caller at once
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
// end)` writes element i's text at `at` (with at least 32 bytes of room)
// and returns where it ends.
template <typename Format>
void JsonWriter::ArrayElements(std::size_t count, Format format) {
  const bool one_line = levels_.back().one_line;
  const std::size_t spaces =
      one_line || indent_ < 0 ? 0 : static_cast<std::size_t>(indent_) * line_depth_;
  if (spaces > kMaxIndent) {
    char text[32];
    for (std::size_t i = 0; i < count; ++i) {
      BeforeValue();
      Raw(std::string_view(text, static_cast<std::size_t>(format(i, text, text + sizeof text) - text)));
    }
    return;
  }
  // The separator: "," on one line without spaces, ", " on a one-line
  // container's line, ",\n" and the indentation otherwise; the first
  // element goes without its ',' (and a one-line container's space).
  char buf[2 + kMaxIndent + 32];
  buf[0] = ',';
  std::size_t prefix = 1;
  if (one_line) {
    buf[1] = ' ';
    prefix = 2;
  } else if (indent_ >= 0) {
    buf[1] = '\n';
    std::memset(buf + 2, ' ', spaces);
    prefix = 2 + spaces;
  }
  const std::size_t first_skip = one_line ? prefix : 1;
  char* const at = buf + prefix;
  for (std::size_t i = 0; i < count; ++i) {
    const char* begin = levels_.back().count++ == 0 ? buf + first_skip : buf;
    const char* end = format(i, at, buf + sizeof buf);
    Raw(std::string_view(begin, static_cast<std::size_t>(end - begin)));
  }
}

JsonWriter& JsonWriter::DoubleArray(const std::vector<double>& values, JsonLayout layout) {
  BeginArray(layout);
  if (!double_cache_ && values.size() > 64) {
    double_cache_.reset(static_cast<DoubleCache*>(std::calloc(1, sizeof(DoubleCache))));
  }
  ArrayElements(values.size(), [&](std::size_t i, char* at, char* end) {
    const double v = values[i];
    if (!std::isfinite(v)) return static_cast<char*>(std::memcpy(at, "null", 4)) + 4;
    if (!double_cache_) return DoubleText(at, end, v);
    const std::string_view text = CachedDoubleText(v);
    std::memcpy(at, text.data(), text.size());
    return at + text.size();
  });
  return EndArray();
}

template <typename T>
JsonWriter& JsonWriter::IntegerArray(const std::vector<T>& values, JsonLayout layout) {
  BeginArray(layout);
  ArrayElements(values.size(), [&](std::size_t i, char* at, char* end) {
    return std::to_chars(at, end, values[i]).ptr;
  });
  return EndArray();
}

JsonWriter& JsonWriter::IntArray(const std::vector<int64_t>& values, JsonLayout layout) {
  return IntegerArray(values, layout);
}

JsonWriter& JsonWriter::UintArray(const std::vector<uint64_t>& values, JsonLayout layout) {
  return IntegerArray(values, layout);
}

JsonWriter& JsonWriter::StringArray(const std::vector<std::string>& values, JsonLayout layout) {
  BeginArray(layout);
  for (const std::string& s : values) String(s);
  return EndArray();
}

std::vector<std::size_t> UniqueKeyMembers(const std::vector<std::string>& keys) {
  std::unordered_map<std::string_view, std::size_t> last;
  for (std::size_t i = 0; i < keys.size(); ++i) last[keys[i]] = i;
  std::vector<std::size_t> members;
  members.reserve(last.size());
  for (const std::string& key : keys) {
    auto it = last.find(key);
    if (it == last.end()) continue;  // its member is placed already
    members.push_back(it->second);
    last.erase(it);
  }
  return members;
}

JsonWriter& JsonWriter::StringMap(const std::map<std::string, std::string>& values,
                                  JsonLayout layout) {
  BeginObject(layout);
  for (const auto& [key, value] : values) Key(key).String(value);
  return EndObject();
}

}  // namespace etbench
