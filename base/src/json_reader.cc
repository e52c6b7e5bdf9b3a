// The one JSON reader (see json_reader.h): nlohmann-json's SAX parser, which
// validates UTF-8 and rejects overflowing numbers, builds a flat document of
// our own in which every value knows its parent, so that a path is rendered
// only when an error needs it.
#include "etbench/base/json_reader.h"

#include <cstdio>
#include <cstring>
#include <deque>
#include <iterator>
#include <nlohmann/json.hpp>
#include <unordered_set>
#include <vector>

#include "etbench/base/utf8.h"
#include "json_text.h"

namespace etbench {
namespace json_internal {

enum class NumberKind : uint8_t { kFloat, kInt, kUint };

struct Node {
  JsonType type = JsonType::kNull;
  NumberKind number_kind = NumberKind::kFloat;
  bool boolean = false;
  double number = 0;
  int64_t int_value = 0;
  uint64_t uint_value = 0;
  std::string text;  // a string's value, or a number as written
  std::string key;   // the member name, for a member of an object
  const Node* parent = nullptr;
  std::size_t index = 0;  // position in the parent
  std::vector<const Node*> children;
};

struct Document {
  std::deque<Node> nodes;  // a deque: adding a node never moves the others
  const Node* root = nullptr;
  std::string source;
  std::string root_path;
};

}  // namespace json_internal

namespace {

using json_internal::Document;
using json_internal::Node;
using json_internal::NumberKind;

// ---------------------------------------------------------------- parsing

// A char iterator that records how far nlohmann's lexer has read, so that
// errors raised by the handler (duplicate keys, depth) have a position.
class CountingIterator {
 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  CountingIterator(const char* p, const char** furthest) : p_(p), furthest_(furthest) {}
  reference operator*() const { return *p_; }
  CountingIterator& operator++() {
    ++p_;
    if (p_ > *furthest_) *furthest_ = p_;
    return *this;
  }
  CountingIterator operator++(int) {
    CountingIterator before = *this;
    ++*this;
    return before;
  }
  bool operator==(const CountingIterator& o) const { return p_ == o.p_; }
  bool operator!=(const CountingIterator& o) const { return p_ != o.p_; }

 private:
  const char* p_;
  const char** furthest_;
};

// 1-based line and column of byte `offset` of `text`.
void LineColumn(std::string_view text, std::size_t offset, JsonSyntaxError* at) {
  offset = std::min(offset, text.size());
  at->offset = offset;
  at->line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++at->line;
      line_start = i + 1;
    }
  }
  at->column = offset - line_start + 1;
}

// `message` with bytes that are not UTF-8 written as \xNN (nlohmann quotes
// the last bytes it read, which may be the invalid ones).
std::string Printable(std::string_view message) {
  std::string out;
  for (std::size_t i = 0; i < message.size();) {
    const std::size_t n = Utf8SequenceLength(message, i);
    if (n == 0) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned char>(message[i]));
      out += hex;
      ++i;
    } else {
      out.append(message.substr(i, n));
      i += n;
    }
  }
  return out;
}

class Builder : public nlohmann::json_sax<nlohmann::json> {
 public:
  Builder(Document* doc, std::string_view text, const char** furthest, std::size_t max_depth)
      : doc_(doc), text_(text), furthest_(furthest), max_depth_(max_depth) {}

  bool failed() const { return failed_; }
  const JsonSyntaxError& error() const { return error_; }

  bool null() override { return Add(JsonType::kNull) != nullptr; }
  bool boolean(bool value) override {
    Add(JsonType::kBool)->boolean = value;
    return true;
  }
  bool number_integer(number_integer_t value) override {
    Node* n = Add(JsonType::kNumber);
    n->number_kind = NumberKind::kInt;
    n->int_value = value;
    n->number = static_cast<double>(value);
    n->text = std::to_string(value);
    return true;
  }
  bool number_unsigned(number_unsigned_t value) override {
    Node* n = Add(JsonType::kNumber);
    n->number_kind = NumberKind::kUint;
    n->uint_value = value;
    n->number = static_cast<double>(value);
    n->text = std::to_string(value);
    return true;
  }
  bool number_float(number_float_t value, const string_t& text) override {
    Node* n = Add(JsonType::kNumber);
    n->number = value;
    n->text = text;
    return true;
  }
  bool string(string_t& value) override {
    Add(JsonType::kString)->text = std::move(value);
    return true;
  }
  bool binary(binary_t&) override { return Fail(Offset(), "binary values are not JSON"); }
  bool start_object(std::size_t) override { return Open(JsonType::kObject); }
  bool key(string_t& key) override {
    Frame& frame = frames_.back();
    bool repeated = false;
    if (frame.keys) {
      repeated = !frame.keys->insert(key).second;
    } else {
      for (const Node* child : frame.node->children) repeated |= child->key == key;
      if (!repeated && frame.node->children.size() >= 16) {
        // Large objects (maps keyed by data) switch to a set.
        frame.keys = std::make_unique<std::unordered_set<std::string>>();
        for (const Node* child : frame.node->children) frame.keys->insert(child->key);
        frame.keys->insert(key);
      }
    }
    if (repeated) {
      std::string what = "duplicate key ";
      internal::AppendShortestJsonString(&what, key);
      return Fail(KeyStart(), what);
    }
    pending_key_ = std::move(key);
    return true;
  }
  bool end_object() override { return Close(); }
  bool start_array(std::size_t) override { return Open(JsonType::kArray); }
  bool end_array() override { return Close(); }

  bool parse_error(std::size_t position, const std::string& last_token,
                   const nlohmann::detail::exception& e) override {
    std::string what = e.what();
    // "[json.exception.parse_error.101] parse error at line 1, column 2: ..."
    if (!what.empty() && what[0] == '[') {
      const std::size_t close = what.find("] ");
      if (close != std::string::npos) what.erase(0, close + 2);
    }
    std::size_t line = 0, column = 0;
    int consumed = 0;
    if (std::sscanf(what.c_str(), "parse error at line %zu, column %zu: %n", &line, &column,
                    &consumed) == 2 &&
        consumed > 0) {
      what.erase(0, static_cast<std::size_t>(consumed));
      failed_ = true;
      error_.line = line;
      error_.column = column;
      error_.offset = std::min(position > 0 ? position - 1 : 0, text_.size());
      error_.what = Printable(what);
      return false;
    }
    // out_of_range.406 (a number no double holds): at the token's start.
    const std::size_t end = std::min(position, text_.size());
    return Fail(end >= last_token.size() ? end - last_token.size() : 0, what);
  }

 private:
  struct Frame {
    Node* node;
    std::unique_ptr<std::unordered_set<std::string>> keys;
  };

  std::size_t Offset() const { return static_cast<std::size_t>(*furthest_ - text_.data()); }

  // The opening quote of the key the lexer has just read.
  std::size_t KeyStart() const {
    std::size_t i = Offset();
    if (i > 0) --i;  // the closing quote
    while (i > 0) {
      --i;
      if (text_[i] != '"') continue;
      std::size_t backslashes = 0;
      while (backslashes < i && text_[i - 1 - backslashes] == '\\') ++backslashes;
      if (backslashes % 2 == 0) break;
    }
    return i;
  }

  bool Fail(std::size_t offset, std::string what) {
    failed_ = true;
    LineColumn(text_, offset, &error_);
    error_.what = Printable(what);
    return false;
  }

  Node* Add(JsonType type) {
    Node& n = doc_->nodes.emplace_back();
    n.type = type;
    if (frames_.empty()) {
      doc_->root = &n;
      return &n;
    }
    Node* parent = frames_.back().node;
    n.parent = parent;
    n.index = parent->children.size();
    if (parent->type == JsonType::kObject) n.key = std::move(pending_key_);
    parent->children.push_back(&n);
    return &n;
  }

  bool Open(JsonType type) {
    if (max_depth_ != 0 && frames_.size() >= max_depth_) {
      return Fail(Offset() > 0 ? Offset() - 1 : 0,
                  "nesting deeper than " + std::to_string(max_depth_) + " levels");
    }
    Node* n = Add(type);
    frames_.push_back(Frame{n, nullptr});
    return true;
  }

  bool Close() {
    frames_.pop_back();
    return true;
  }

  Document* doc_;
  std::string_view text_;
  const char** furthest_;
  std::size_t max_depth_;
  std::vector<Frame> frames_;
  std::string pending_key_;
  bool failed_ = false;
  JsonSyntaxError error_;
};

// ---------------------------------------------------------------- paths

bool IsIdentifier(std::string_view key) {
  if (key.empty() || (key[0] >= '0' && key[0] <= '9')) return false;
  for (char c : key) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    (c >= '0' && c <= '9') || c == '_';
    if (!ok) return false;
  }
  return true;
}

void AppendMember(std::string* path, std::string_view key) {
  if (IsIdentifier(key)) {
    if (!path->empty()) path->push_back('.');
    path->append(key);
  } else {
    path->push_back('[');
    internal::AppendShortestJsonString(path, key);
    path->push_back(']');
  }
}

void AppendIndex(std::string* path, std::size_t index) {
  *path += "[" + std::to_string(index) + "]";
}

// The path of `node` (iterative: documents may nest deeply).
std::string NodePath(const Document* doc, const Node* node) {
  std::vector<const Node*> chain;
  for (const Node* n = node; n != nullptr && n->parent != nullptr; n = n->parent) {
    chain.push_back(n);
  }
  std::string path = doc->root_path;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if ((*it)->parent->type == JsonType::kObject) {
      AppendMember(&path, (*it)->key);
    } else {
      AppendIndex(&path, (*it)->index);
    }
  }
  return path;
}

const char* TypeNameOf(JsonType type) {
  switch (type) {
    case JsonType::kNull: return "null";
    case JsonType::kBool: return "boolean";
    case JsonType::kNumber: return "number";
    case JsonType::kString: return "string";
    case JsonType::kArray: return "array";
    case JsonType::kObject: return "object";
  }
  return "unknown";
}

// Compact JSON of `node`, cut after `limit` bytes.
void DumpNode(const Node* node, std::size_t limit, std::string* out) {
  struct Step {
    const Node* node;
    std::size_t next_child;
  };
  std::vector<Step> stack{{node, 0}};
  while (!stack.empty() && out->size() <= limit) {
    Step& step = stack.back();
    const Node* n = step.node;
    if (n->type == JsonType::kArray || n->type == JsonType::kObject) {
      const bool object = n->type == JsonType::kObject;
      if (step.next_child == 0) out->push_back(object ? '{' : '[');
      if (step.next_child == n->children.size()) {
        out->push_back(object ? '}' : ']');
        stack.pop_back();
        continue;
      }
      const Node* child = n->children[step.next_child];
      if (step.next_child++ > 0) out->push_back(',');
      if (object) {
        internal::AppendShortestJsonString(out, child->key);
        out->push_back(':');
      }
      stack.push_back({child, 0});
      continue;
    }
    switch (n->type) {
      case JsonType::kNull: *out += "null"; break;
      case JsonType::kBool: *out += n->boolean ? "true" : "false"; break;
      case JsonType::kNumber: *out += n->text; break;
      default: internal::AppendShortestJsonString(out, n->text); break;
    }
    stack.pop_back();
  }
  if (out->size() > limit) {
    out->resize(limit);
    *out += "...";
  }
}

}  // namespace

// ---------------------------------------------------------------- JsonValue

std::string JsonSyntaxError::Describe() const {
  return std::to_string(line) + ":" + std::to_string(column) + ": " + what;
}

JsonType JsonValue::type() const { return node_ ? node_->type : JsonType::kNull; }

bool JsonValue::is_integer() const {
  return is_number() && node_->number_kind != NumberKind::kFloat;
}

const char* JsonValue::TypeName() const { return node_ ? TypeNameOf(node_->type) : "missing"; }

std::size_t JsonValue::size() const { return node_ ? node_->children.size() : 0; }

JsonValue JsonValue::Orphan() const {
  JsonValue orphan = *this;
  if (!orphan_) orphan.missing_key_ = Path();
  orphan.orphan_ = true;
  return orphan;
}

JsonValue JsonValue::operator[](std::size_t index) const {
  if (node_ && index < node_->children.size()) return JsonValue(doc_, node_->children[index]);
  if (!node_ && doc_) return Orphan();
  return JsonValue(doc_, node_, std::string(), index);
}

JsonValue JsonValue::Get(std::string_view key) const {
  if (node_ && node_->type == JsonType::kObject) {
    for (const Node* child : node_->children) {
      if (child->key == key) return JsonValue(doc_, child);
    }
  }
  if (!node_ && doc_) return Orphan();
  return JsonValue(doc_, node_, std::string(key), 0);
}

std::string_view JsonValue::key() const {
  if (!node_ || !node_->parent || node_->parent->type != JsonType::kObject) return {};
  return node_->key;
}

std::string JsonValue::Path() const {
  if (doc_ == nullptr) return "";
  if (node_) return NodePath(doc_, node_);
  if (orphan_) return missing_key_;
  std::string path = missing_parent_ ? NodePath(doc_, missing_parent_) : doc_->root_path;
  if (missing_parent_ && missing_parent_->type == JsonType::kArray) {
    AppendIndex(&path, missing_index_);
  } else {
    AppendMember(&path, missing_key_);
  }
  return path;
}

Error JsonValue::ErrorAt(const std::string& what) const {
  std::string message = doc_ && !doc_->source.empty() ? doc_->source + ": " : "";
  const std::string path = Path();
  if (!path.empty()) message += path + ": ";
  return InputError(message + what);
}

std::string JsonValue::Dump() const {
  if (!node_) return "missing";
  std::string out;
  DumpNode(node_, 200, &out);
  return out;
}

Error JsonValue::TypeError(const char* expected) const {
  if (!node_) {
    // A member of something that is not an object is the parent's error.
    if (missing_parent_ && missing_parent_->type != JsonType::kObject &&
        missing_parent_->type != JsonType::kArray) {
      return JsonValue(doc_, missing_parent_)
          .ErrorAt(std::string("expected an object, got ") + TypeNameOf(missing_parent_->type));
    }
    return ErrorAt("missing");
  }
  return ErrorAt(std::string("expected ") + expected + ", got " + TypeName());
}

Result<std::string> JsonValue::String() const {
  if (!is_string()) return TypeError("a string");
  return node_->text;
}

Result<double> JsonValue::Number() const {
  if (!is_number()) return TypeError("a number");
  return node_->number;
}

Result<double> JsonValue::NumberOrNaN() const {
  if (is_null()) return std::numeric_limits<double>::quiet_NaN();
  if (!is_number()) return TypeError("a number or null");
  return node_->number;
}

Result<int64_t> JsonValue::Int(int64_t min, int64_t max) const {
  if (!is_integer()) return TypeError("an integer");
  const bool fits = node_->number_kind == NumberKind::kInt
                        ? node_->int_value >= min && node_->int_value <= max
                        : max >= 0 && node_->uint_value <= static_cast<uint64_t>(max);
  if (!fits) {
    return ErrorAt("expected an integer from " + std::to_string(min) + " to " +
                   std::to_string(max) + ", got " + node_->text);
  }
  return node_->number_kind == NumberKind::kInt ? node_->int_value
                                                : static_cast<int64_t>(node_->uint_value);
}

Result<uint64_t> JsonValue::Uint() const {
  if (!is_integer() || node_->number_kind == NumberKind::kInt) {
    // nlohmann reports non-negative integers as unsigned.
    return TypeError("a non-negative integer");
  }
  return node_->uint_value;
}

Result<bool> JsonValue::Bool() const {
  if (!is_bool()) return TypeError("true or false");
  return node_->boolean;
}

Result<JsonValue> JsonValue::Required() const {
  if (!present()) return TypeError("a value");
  return *this;
}

Result<JsonValue> JsonValue::Object() const {
  if (!is_object()) return TypeError("an object");
  return *this;
}

Result<JsonValue> JsonValue::Array() const {
  if (!is_array()) return TypeError("an array");
  return *this;
}

Result<std::string> JsonValue::StringOr(std::string fallback) const {
  if (!present() || is_null()) return fallback;
  return String();
}
Result<double> JsonValue::NumberOr(double fallback) const {
  if (!present() || is_null()) return fallback;
  return Number();
}
Result<int64_t> JsonValue::IntOr(int64_t fallback) const {
  if (!present() || is_null()) return fallback;
  return Int();
}
Result<uint64_t> JsonValue::UintOr(uint64_t fallback) const {
  if (!present() || is_null()) return fallback;
  return Uint();
}
Result<bool> JsonValue::BoolOr(bool fallback) const {
  if (!present() || is_null()) return fallback;
  return Bool();
}

// ---------------------------------------------------------------- JsonDocument

JsonDocument::JsonDocument(std::unique_ptr<json_internal::Document> doc) : doc_(std::move(doc)) {}
JsonDocument::JsonDocument(JsonDocument&&) noexcept = default;
JsonDocument& JsonDocument::operator=(JsonDocument&&) noexcept = default;
JsonDocument::~JsonDocument() = default;

JsonValue JsonDocument::root() const { return JsonValue(doc_.get(), doc_->root); }

const std::string& JsonDocument::source() const { return doc_->source; }

Result<JsonDocument> ParseJson(std::string_view text, const std::string& source,
                               const JsonParseOptions& options, JsonSyntaxError* syntax_error) {
  auto doc = std::make_unique<Document>();
  doc->source = source;
  doc->root_path = options.root_path;
  const char* furthest = text.data();
  Builder builder(doc.get(), text, &furthest, options.max_depth);
  const char* begin = text.data();
  const char* end = begin + text.size();
  bool parsed = false;
  try {
    parsed = nlohmann::json::sax_parse(CountingIterator(begin, &furthest),
                                       CountingIterator(end, &furthest), &builder);
  } catch (const std::exception& e) {
    // The SAX parser reports through parse_error; this is a safety net.
    JsonSyntaxError error;
    error.what = Printable(e.what());
    if (syntax_error) *syntax_error = error;
    return InputError(source.empty() ? error.Describe() : source + ":" + error.Describe());
  }
  if (!parsed || builder.failed() || doc->root == nullptr) {
    JsonSyntaxError error = builder.error();
    if (!builder.failed()) error.what = "not a JSON value";
    if (syntax_error) *syntax_error = error;
    return InputError(source.empty() ? error.Describe() : source + ":" + error.Describe());
  }
  return JsonDocument(std::move(doc));
}

// ---------------------------------------------------------------- JsonErrors

void JsonErrors::Fail(const JsonValue& value, const std::string& what) {
  Record(value.ErrorAt(what));
}

void JsonErrors::Record(const Error& error) {
  if (failed_) return;
  failed_ = true;
  error_ = error;
}

}  // namespace etbench
