#pragma once
// Typed access to ETRecord JSON (read with the base JSON reader) with the
// JSON path in every message. ETRecord paths write map keys that are data in
// brackets (forward["0"].delegate_map["a"]) and the root as "(root)", so they
// are built here rather than by JsonValue::Path(). Parsing code throws
// JsonFormatError internally; the public entry points catch it and return an
// Error naming the file and the entry.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "etbench/base/json_reader.h"

namespace etbench::etrecord_internal {

/// A value of the wrong type or shape at `path` (e.g.
/// "graph_module.graph.nodes[3].target: expected a string, got number").
class JsonFormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

[[noreturn]] void FailAt(const std::string& path, const std::string& what);

/// Parses an entry's JSON text; a syntax error is "<where>: malformed JSON:
/// parse error at line L, column C: what". Nesting is not limited: nothing here recurses over
/// it, and a deep value is reported as the wrong type at its path.
Result<JsonDocument> ParseEntryJson(std::string_view text, const std::string& where);

/// path + "." + key, or key alone at the root.
std::string MemberPath(const std::string& path, std::string_view key);
/// path + "[" + index + "]".
std::string IndexPath(const std::string& path, std::size_t index);
/// path + "[\"key\"]" for map keys that are data, not field names.
std::string KeyPath(const std::string& path, std::string_view key);

JsonValue ExpectObject(const JsonValue& value, const std::string& path);
JsonValue ExpectArray(const JsonValue& value, const std::string& path);
std::string ExpectString(const JsonValue& value, const std::string& path);

/// The member `key` of object `object` (at `path`); fails when missing.
JsonValue RequiredMember(const JsonValue& object, const std::string& path, const char* key);

/// The member `key`, or nothing when missing or null (or not an object).
std::optional<JsonValue> OptionalMember(const JsonValue& object, const char* key);

/// An integer that fits int64 (JSON numbers with a fraction are rejected).
int64_t ExpectInt64(const JsonValue& value, const std::string& path);

/// Debug handles: an integer or an array of integers (both occur:
/// Dict[int, Union[int, List[int]]] in ExecuTorch).
std::vector<int64_t> ExpectHandles(const JsonValue& value, const std::string& path);

/// Parses a decimal int32 key such as an instruction id ("12", "-1");
/// fails with the key's path otherwise.
int32_t ParseInstructionKey(const std::string& key, const std::string& path);

}  // namespace etbench::etrecord_internal
