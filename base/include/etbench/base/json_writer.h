#pragma once
// The one JSON writer. Every JSON file and output etbench writes goes
// through it: no library outside base formats a JSON value itself or uses
// nlohmann-json (scripts/check_layering.sh rule 4).
//
// Two forms of the same rules (exact doubles, strings that are always valid
// UTF-8):
//  - JsonWriter: a document written as it is produced (objects, arrays,
//    keys in the order written), laid out as nlohmann's dump(indent) lays
//    it out: the form of etbench's comparison, baseline, inspect, history,
//    export and sidecar JSON.
//  - AppendJson*: text helpers for the hand-laid files (results, summary),
//    whose doubles are the shortest text that reads back (1 prints as "1")
//    and whose strings escape every control character and DEL as \u00XX
//    and replace each byte that is not UTF-8 on its own (JsonWriter prints
//    \b and \f, DEL as it is, and one U+FFFD per broken sequence, as
//    nlohmann did). The two spellings stay so that no file changes a byte;
//    both read back to the same doubles and (valid) strings.

#include <cstdint>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace etbench {

/// Writes one JSON document (or a sequence of values at the top level, one
/// after another with nothing between them) into a string or a stream.
///
/// Layout: `indent` < 0 prints everything on one line without spaces
/// (`{"a":1,"b":[1,2]}`); `indent` >= 0 prints each member and element on
/// its own line, `indent` spaces deeper than its container, keys as
/// `"key": value`, empty containers as `{}` / `[]`: byte for byte what
/// nlohmann::ordered_json's dump(indent, ' ', false, replace) prints for the
/// same tree. Doubles print as nlohmann prints them: the shortest
/// round-trip digits, always with a fraction or exponent (1.0, 1e-05);
/// NaN and infinities print as null. Strings are escaped as nlohmann escapes
/// them; bytes that are not UTF-8 become U+FFFD.
///
/// Calls must form a well-formed document (a Key before each member's
/// value inside an object, none inside an array, Ends matching Begins):
/// that is the caller's contract, checked only in debug builds.
class JsonWriter {
 public:
  /// Writes into a string; Take() returns it.
  explicit JsonWriter(int indent = -1);
  /// Streams into `out` in chunks of 64 KiB (the rest on Flush() or when
  /// the writer is destroyed): a large document is never held whole.
  JsonWriter(std::ostream& out, int indent);
  ~JsonWriter();
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;

  JsonWriter& BeginObject();
  JsonWriter& EndObject();
  JsonWriter& BeginArray();
  JsonWriter& EndArray();
  /// Inside an object: the next member's key; its value follows.
  JsonWriter& Key(std::string_view key);

  JsonWriter& String(std::string_view value);
  JsonWriter& Double(double value);
  JsonWriter& Int(int64_t value);
  JsonWriter& Uint(uint64_t value);
  JsonWriter& Bool(bool value);
  JsonWriter& Null();
  JsonWriter& IntOrNull(const std::optional<int64_t>& value);
  JsonWriter& DoubleOrNull(const std::optional<double>& value);
  JsonWriter& StringOrNull(const std::optional<std::string>& value);

  /// Arrays of one type; each element as the scalar call writes it.
  /// Repeated doubles (samples of integer ticks repeat a lot) are formatted
  /// once and then copied.
  JsonWriter& DoubleArray(const std::vector<double>& values);
  JsonWriter& IntArray(const std::vector<int64_t>& values);
  JsonWriter& UintArray(const std::vector<uint64_t>& values);
  JsonWriter& StringArray(const std::vector<std::string>& values);
  /// An object of string members in the map's (sorted) key order.
  JsonWriter& StringMap(const std::map<std::string, std::string>& values);

  /// Writes what is buffered to the stream (no-op when writing a string).
  void Flush();
  /// The text written so far (string mode); the writer is empty after.
  std::string Take();

 private:
  // Separator, line break and indentation before a value or key.
  void BeforeValue();
  void Raw(std::string_view text);
  void Indent(std::size_t depth);
  void QuotedString(std::string_view value);
  JsonWriter& End(char close);
  template <typename Format>
  void ArrayElements(std::size_t count, Format format);
  template <typename T>
  JsonWriter& Integer(T value);
  template <typename T>
  JsonWriter& IntegerArray(const std::vector<T>& values);
  std::string_view CachedDoubleText(double value);

  struct Level {
    bool object = false;
    std::size_t count = 0;
  };
  struct DoubleCache;
  struct DoubleCacheDeleter {
    void operator()(DoubleCache* cache) const;
  };

  std::ostream* out_ = nullptr;  // null: string mode
  int indent_;
  std::string buffer_;
  std::vector<Level> levels_;
  bool after_key_ = false;
  std::unique_ptr<DoubleCache, DoubleCacheDeleter> double_cache_;  // by a long DoubleArray
  std::string overflow_text_;  // a double's text too long for a cache slot
};

/// The members an object keeps when some of `keys` repeat, as a JSON tree
/// assigned member by member keeps them (nlohmann's operator[]): each
/// distinct key at its first place, with the value of its last occurrence.
/// Returns, in first-place order, the index in `keys` of each distinct
/// key's last occurrence (all of 0..n-1 in order when none repeats).
std::vector<std::size_t> UniqueKeyMembers(const std::vector<std::string>& keys);

/// Appends `s` as a JSON string; invalid UTF-8 bytes become U+FFFD.
void AppendJsonString(std::string* out, std::string_view s);

/// Shortest text that reads back to the same double; non-finite → null.
void AppendJsonNumber(std::string* out, double value);
void AppendJsonInt(std::string* out, int64_t value);

/// [a, b, c] on one line.
void AppendJsonNumberArray(std::string* out, const std::vector<double>& values);
void AppendJsonIntArray(std::string* out, const std::vector<int64_t>& values);
void AppendJsonUintArray(std::string* out, const std::vector<uint64_t>& values);
void AppendJsonStringArray(std::string* out, const std::vector<std::string>& values);

}  // namespace etbench
