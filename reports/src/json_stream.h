#pragma once
// JSON written as it is produced, byte for byte what nlohmann::ordered_json's
// dump(2, ' ', false, error_handler_t::replace) prints for the same tree
// (two-space indent, "key": value, [] and {} when empty, its shortest
// round-trip doubles, NaN/inf as null, its string escaping), without
// building the tree: `inspect --format json` of a large dump streams its
// samples instead of holding a JSON node per number.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "text_sink.h"

namespace etbench {

class JsonStream {
 public:
  explicit JsonStream(TextSink& sink) : sink_(sink) {}

  void BeginObject();
  void EndObject();
  void BeginArray();
  void EndArray();
  /// Inside an object: the next member's key; its value follows.
  void Key(std::string_view key);

  void String(std::string_view value);
  void Double(double value);
  void Int(int64_t value);
  void Uint(uint64_t value);
  void Bool(bool value);
  void Null();
  void IntOrNull(const std::optional<int64_t>& value);
  /// A (small) subtree built with nlohmann, printed at the current depth.
  void Value(const nlohmann::ordered_json& value);

  /// The same text as Double() for each value; repeated values (samples of
  /// integer ticks repeat a lot) are formatted once and then copied.
  void DoubleArray(const std::vector<double>& values);
  void UintArray(const std::vector<uint64_t>& values);

 private:
  // Separator and indentation before a value or key in the current container.
  void BeforeValue();
  void Indent(std::size_t depth) { sink_.Append(2 * depth, ' '); }
  void Raw(std::string_view text) { sink_.Append(text); }
  void QuotedString(std::string_view value);
  void End(std::string_view close);
  template <typename Format>
  void ArrayElements(std::size_t count, Format format);

  // The text of `value` (finite) as nlohmann prints it, from a direct-mapped
  // cache keyed by the double's bits: equal bits, equal text.
  std::string_view CachedDoubleText(double value);

  // Plain data: the slots come zeroed from calloc, so only the slots used
  // are ever touched (a large calloc is fresh zero pages, not a memset).
  struct CachedDouble {
    uint64_t bits;
    uint8_t length;  // 0: empty slot (no printed double is empty)
    char text[23];   // longer texts are not cached
  };
  static constexpr int kCacheBits = 14;
  struct FreeDeleter {
    void operator()(CachedDouble* p) const;
  };
  std::unique_ptr<CachedDouble[], FreeDeleter> double_cache_;  // by the first DoubleArray
  std::string overflow_text_;  // a text too long for a slot

  struct Level {
    bool object = false;
    std::size_t count = 0;
  };
  TextSink& sink_;
  std::vector<Level> levels_;
  bool after_key_ = false;
};

}  // namespace etbench
