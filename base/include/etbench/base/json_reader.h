#pragma once
// The one JSON reader: parses text into a JsonDocument and reads it through
// JsonValue views whose typed reads return Result<T> with the JSON path of
// the value in the error ("r.json: $.models[3].unit: expected a string, got
// number"). Results, comparisons, baselines, metric sets, runner sidecars,
// Google Benchmark output and ETRecord entries all read JSON through it.
//
// Parsing contract (ParseJson):
//  - a syntax error is "source:line:column: what" (1-based, from the byte
//    where parsing stopped); empty input is a syntax error at 1:1;
//  - invalid UTF-8 anywhere (and lone surrogate escapes) is a syntax error,
//    so every string read from a document is valid UTF-8;
//  - a number no double holds (1e999) is an error ("number overflow
//    parsing '1e999'"); non-finite numbers never reach a reader;
//  - a key that appears twice in one object is an error ("duplicate key
//    \"x\"" at the second one): etbench's inputs come from writers that never
//    repeat a key, so a repeat is a hand edit or corruption, and silently
//    keeping one of them would hide it (the YAML reader's policy too);
//  - arrays and objects may nest at most JsonParseOptions::max_depth deep;
//  - nothing throws: every failure is an Error.
//
// The document owns its values; JsonValue views stay valid while it lives
// (moving the document keeps them valid). Nothing recurses over the depth of
// a document, so a deeply nested one is an error or a value, never a crash.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "etbench/base/result.h"

namespace etbench {

enum class JsonType { kNull, kBool, kNumber, kString, kArray, kObject };

struct JsonParseOptions {
  /// The root's name in paths: "$" gives "$.runs[3].x"; "" gives "runs[3].x"
  /// (and the root itself has an empty path).
  std::string root_path = "$";
  /// Deepest nesting of arrays and objects accepted; 0 means no limit.
  std::size_t max_depth = 512;
};

/// Where and why a text is not JSON (see ParseJson).
struct JsonSyntaxError {
  std::size_t line = 1;    // 1-based
  std::size_t column = 1;  // 1-based, in bytes
  std::size_t offset = 0;  // 0-based byte offset from the start
  std::string what;        // "syntax error while parsing value - ...", ...
  /// "line:column: what".
  std::string Describe() const;
};

namespace json_internal {
struct Node;
struct Document;
}  // namespace json_internal

/// A value of a JsonDocument, or a missing one (a member or element that is
/// not there, which still knows its path). Cheap to copy.
class JsonValue {
 public:
  /// A missing value with no path (what a failed JsonErrors::Take yields).
  JsonValue() = default;

  /// False for a missing member or element.
  bool present() const { return node_ != nullptr; }
  /// Meaningful only when present().
  JsonType type() const;
  bool is_null() const { return present() && type() == JsonType::kNull; }
  bool is_bool() const { return present() && type() == JsonType::kBool; }
  bool is_number() const { return present() && type() == JsonType::kNumber; }
  /// A number written without fraction or exponent that fits int64 or uint64.
  bool is_integer() const;
  bool is_string() const { return present() && type() == JsonType::kString; }
  bool is_array() const { return present() && type() == JsonType::kArray; }
  bool is_object() const { return present() && type() == JsonType::kObject; }
  /// "object", "array", "string", "number", "boolean", "null" ("missing").
  const char* TypeName() const;

  /// Elements of an array or members of an object (0 for anything else).
  std::size_t size() const;
  /// Element (or member) `index`; a missing value past the end.
  JsonValue operator[](std::size_t index) const;
  /// Member `key` of an object; a missing value when absent (or when this
  /// is not an object: reading it then reports "expected an object").
  JsonValue Get(std::string_view key) const;
  bool Has(std::string_view key) const { return Get(key).present(); }
  /// The member name of an object member ("" otherwise).
  std::string_view key() const;

  /// Iterates the elements of an array or the members of an object (use
  /// key() for the names); nothing for other values.
  class Iterator {
   public:
    JsonValue operator*() const { return (*parent_)[index_]; }
    Iterator& operator++() {
      ++index_;
      return *this;
    }
    bool operator!=(const Iterator& other) const { return index_ != other.index_; }

   private:
    friend class JsonValue;
    Iterator(const JsonValue* parent, std::size_t index) : parent_(parent), index_(index) {}
    const JsonValue* parent_;  // lives through a range-for
    std::size_t index_;
  };
  Iterator begin() const { return Iterator(this, 0); }
  Iterator end() const { return Iterator(this, size()); }

  // Typed reads. A wrong type is "expected a string, got number"; a missing
  // value is "missing"; a member of a non-object is the parent's "expected
  // an object, got array". Each error names this value's path.
  Result<std::string> String() const;
  /// Any number (integers too).
  Result<double> Number() const;
  /// A number, or null read as NaN (writers write non-finite numbers as null).
  Result<double> NumberOrNaN() const;
  /// An integer in [min, max] ("expected an integer from min to max, got v").
  Result<int64_t> Int(int64_t min = std::numeric_limits<int64_t>::min(),
                      int64_t max = std::numeric_limits<int64_t>::max()) const;
  Result<uint64_t> Uint() const;
  Result<bool> Bool() const;
  /// This value when present (of any type); "missing" otherwise.
  Result<JsonValue> Required() const;
  /// This value when it is an object (or array); the error otherwise.
  Result<JsonValue> Object() const;
  Result<JsonValue> Array() const;

  // Optional members: a missing or null value reads as `fallback`; any other
  // value must have the type.
  Result<std::string> StringOr(std::string fallback) const;
  Result<double> NumberOr(double fallback) const;
  Result<int64_t> IntOr(int64_t fallback) const;
  Result<uint64_t> UintOr(uint64_t fallback) const;
  Result<bool> BoolOr(bool fallback) const;

  /// "$.runs[3].metrics.x"; member names that are not identifiers are
  /// quoted ("$.labels[\"a b\"]").
  std::string Path() const;
  /// InputError("source: path: what"); the parts that are empty are left out.
  Error ErrorAt(const std::string& what) const;
  /// The value as compact JSON (numbers as written), for messages; long
  /// texts are cut with "...". "missing" when not present.
  std::string Dump() const;

 private:
  friend class JsonDocument;
  JsonValue(const json_internal::Document* doc, const json_internal::Node* node)
      : doc_(doc), node_(node) {}
  // A missing member (key) or element (index) of `parent`.
  JsonValue(const json_internal::Document* doc, const json_internal::Node* parent,
            std::string key, std::size_t index)
      : doc_(doc), missing_parent_(parent), missing_key_(std::move(key)),
        missing_index_(index) {}
  Error TypeError(const char* expected) const;
  JsonValue Orphan() const;

  const json_internal::Document* doc_ = nullptr;
  const json_internal::Node* node_ = nullptr;
  const json_internal::Node* missing_parent_ = nullptr;
  std::string missing_key_;
  std::size_t missing_index_ = 0;
  // A member or element of a missing value: missing_key_ holds the path of
  // that missing value, whose "missing" is the error to report.
  bool orphan_ = false;
};

class JsonDocument {
 public:
  JsonDocument(JsonDocument&&) noexcept;
  JsonDocument& operator=(JsonDocument&&) noexcept;
  ~JsonDocument();

  JsonValue root() const;
  /// The name errors start with (a file name; may be empty).
  const std::string& source() const;

 private:
  friend Result<JsonDocument> ParseJson(std::string_view, const std::string&,
                                        const JsonParseOptions&, JsonSyntaxError*);
  explicit JsonDocument(std::unique_ptr<json_internal::Document> doc);
  std::unique_ptr<json_internal::Document> doc_;
};

/// Parses `text` (see the contract above). A syntax error is
/// InputError("source:line:column: what"); when `syntax_error` is given it
/// also receives the parts, for readers that phrase the message their own
/// way ("r.json: not valid JSON: 1:2: ...").
Result<JsonDocument> ParseJson(std::string_view text, const std::string& source,
                               const JsonParseOptions& options = {},
                               JsonSyntaxError* syntax_error = nullptr);

/// The first error of many reads, so that a reader of a fixed schema is one
/// line per field and checks once at the end:
///   JsonErrors errors;
///   m.name = errors.Take(model.Get("name").String());
///   m.runs = errors.Take(model.Get("runs").Uint());
///   if (!errors.ok()) return errors.error();
/// After the first error, Take returns its fallback and later errors are
/// dropped (the first is the one a reader stopping there would report).
class JsonErrors {
 public:
  template <typename T>
  T Take(Result<T> result, T fallback = T{}) {
    if (result.ok()) return std::move(result).value();
    Record(result.error());
    return fallback;
  }
  /// Records value.ErrorAt(what) unless an error is already recorded.
  void Fail(const JsonValue& value, const std::string& what);
  void Record(const Error& error);

  bool ok() const { return !failed_; }
  const Error& error() const { return error_; }

 private:
  bool failed_ = false;
  Error error_;
};

}  // namespace etbench
