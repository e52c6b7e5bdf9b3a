#pragma once
// The one JSON writer. Every JSON file and output etbench writes goes
// through it: no library outside base formats a JSON value itself or uses
// nlohmann-json (scripts/check_layering.sh rule 4).
//
// A document is written as it is produced (objects, arrays, keys in the
// order written). Two spellings of values, both exact (doubles read back
// to the same bits) and always valid UTF-8, so that no file changes a byte:
//  - JsonSpelling::kNlohmann, laid out and spelled as nlohmann's
//    dump(indent): etbench's comparison, baseline, inspect, history, export
//    and sidecar JSON.
//  - JsonSpelling::kShortest, with one-line containers inside indented
//    ones: the results file and the run summary (docs/results.md).
// Both read back to the same doubles and (valid) strings.

#include <cstdint>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace etbench {

/// How a writer spells doubles and strings.
enum class JsonSpelling {
  /// As nlohmann prints them: doubles the shortest round-trip digits,
  /// always with a fraction or exponent (1.0, 1e-05); \b and \f escaped by
  /// name, DEL as it is, one U+FFFD per broken UTF-8 sequence.
  kNlohmann,
  /// Doubles the shortest text that reads back (1 prints as "1", 1e-05);
  /// every control character but \n, \r and \t, and DEL, as \u00XX; one
  /// U+FFFD for each byte that is not UTF-8 on its own.
  kShortest,
};

/// How a container is laid out.
enum class JsonLayout {
  /// As the container it is in (at the top level: kLines).
  kInherit,
  /// Each member and element on its own line (the writer's `indent`; on one
  /// line without spaces when `indent` < 0).
  kLines,
  /// Everything inside on one line, members apart by ", " and keys by ": "
  /// ({"a": 1, "b": [1, 2]}), unless a container inside asks for kLines.
  kOneLine,
};

/// Writes one JSON document (or a sequence of values at the top level, one
/// after another with nothing between them) into a string or a stream.
///
/// Layout: `indent` < 0 prints everything on one line without spaces
/// (`{"a":1,"b":[1,2]}`); `indent` >= 0 prints each member and element on
/// its own line, `indent` spaces deeper than its container, keys as
/// `"key": value`, empty containers as `{}` / `[]`: byte for byte what
/// nlohmann::ordered_json's dump(indent, ' ', false, replace) prints for the
/// same tree. A container begun as JsonLayout::kOneLine stays on one line
/// (its line-broken containers inside are indented by the line-broken
/// containers around them only). NaN and infinities print as null; doubles
/// and strings as `spelling` says (kNlohmann: as nlohmann prints them).
///
/// Calls must form a well-formed document (a Key before each member's
/// value inside an object, none inside an array, Ends matching Begins):
/// that is the caller's contract, checked only in debug builds.
class JsonWriter {
 public:
  /// Writes into a string; Take() returns it.
  explicit JsonWriter(int indent = -1, JsonSpelling spelling = JsonSpelling::kNlohmann);
  /// Streams into `out` in chunks of 64 KiB (the rest on Flush() or when
  /// the writer is destroyed): a large document is never held whole.
  JsonWriter(std::ostream& out, int indent, JsonSpelling spelling = JsonSpelling::kNlohmann);
  ~JsonWriter();
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;

  JsonWriter& BeginObject(JsonLayout layout = JsonLayout::kInherit);
  JsonWriter& EndObject();
  JsonWriter& BeginArray(JsonLayout layout = JsonLayout::kInherit);
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

  /// Arrays of one type, laid out as `layout`; each element as the scalar
  /// call writes it. Repeated doubles (samples of integer ticks repeat a
  /// lot) are formatted once and then copied.
  JsonWriter& DoubleArray(const std::vector<double>& values,
                          JsonLayout layout = JsonLayout::kInherit);
  JsonWriter& IntArray(const std::vector<int64_t>& values,
                       JsonLayout layout = JsonLayout::kInherit);
  JsonWriter& UintArray(const std::vector<uint64_t>& values,
                        JsonLayout layout = JsonLayout::kInherit);
  JsonWriter& StringArray(const std::vector<std::string>& values,
                          JsonLayout layout = JsonLayout::kInherit);
  /// An object of string members in the map's (sorted) key order.
  JsonWriter& StringMap(const std::map<std::string, std::string>& values,
                        JsonLayout layout = JsonLayout::kInherit);

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
  JsonWriter& Begin(char open, bool object, JsonLayout layout);
  JsonWriter& End(char close);
  // A finite double's text at `at` (`end - at` >= 32), as `spelling_` says.
  char* DoubleText(char* at, char* end, double value) const;
  template <typename Format>
  void ArrayElements(std::size_t count, Format format);
  template <typename T>
  JsonWriter& Integer(T value);
  template <typename T>
  JsonWriter& IntegerArray(const std::vector<T>& values, JsonLayout layout);
  std::string_view CachedDoubleText(double value);

  struct Level {
    bool object = false;
    bool one_line = false;
    std::size_t count = 0;
  };
  struct DoubleCache;
  struct DoubleCacheDeleter {
    void operator()(DoubleCache* cache) const;
  };

  std::ostream* out_ = nullptr;  // null: string mode
  int indent_;
  JsonSpelling spelling_;
  std::string buffer_;
  std::vector<Level> levels_;
  std::size_t line_depth_ = 0;  // open levels that are not one_line
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

}  // namespace etbench
