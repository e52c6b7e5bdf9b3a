#pragma once
// Typed access to parsed JSON with the JSON path in every message. Parsing
// code throws JsonFormatError internally; the public entry points catch it
// and return an Error naming the file and the entry.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace etbench::etrecord_internal {

/// A value of the wrong type or shape at `path` (e.g.
/// "graph_module.graph.nodes[3].target: expected a string, got number").
class JsonFormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

[[noreturn]] void FailAt(const std::string& path, const std::string& what);

/// "object", "array", "string", "number", "boolean", "null".
template <typename J>
std::string JsonTypeName(const J& value) {
  if (value.is_object()) return "object";
  if (value.is_array()) return "array";
  if (value.is_string()) return "string";
  if (value.is_boolean()) return "boolean";
  if (value.is_null()) return "null";
  if (value.is_number()) return "number";
  return "unknown";
}

/// path + "." + key, or key alone at the root.
std::string MemberPath(const std::string& path, std::string_view key);
/// path + "[" + index + "]".
std::string IndexPath(const std::string& path, std::size_t index);
/// path + "[\"key\"]" for map keys that are data, not field names.
std::string KeyPath(const std::string& path, std::string_view key);

template <typename J>
const J& ExpectObject(const J& value, const std::string& path) {
  if (!value.is_object()) {
    FailAt(path, "expected an object, got " + JsonTypeName(value));
  }
  return value;
}

template <typename J>
const J& ExpectArray(const J& value, const std::string& path) {
  if (!value.is_array()) {
    FailAt(path, "expected an array, got " + JsonTypeName(value));
  }
  return value;
}

template <typename J>
const std::string& ExpectString(const J& value, const std::string& path) {
  if (!value.is_string()) {
    FailAt(path, "expected a string, got " + JsonTypeName(value));
  }
  return value.template get_ref<const std::string&>();
}

/// The member `key` of object `object` (at `path`); fails when missing.
template <typename J>
const J& RequiredMember(const J& object, const std::string& path,
                        const char* key) {
  ExpectObject(object, path);
  auto it = object.find(key);
  if (it == object.end()) FailAt(MemberPath(path, key), "missing");
  return *it;
}

/// The member `key`, or nullptr when missing or null.
template <typename J>
const J* OptionalMember(const J& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return nullptr;
  return &*it;
}

/// An integer that fits int64 (JSON numbers with a fraction are rejected).
template <typename J>
int64_t ExpectInt64(const J& value, const std::string& path) {
  if (value.is_number_unsigned()) {
    const auto u = value.template get<uint64_t>();
    if (u > static_cast<uint64_t>(INT64_MAX)) FailAt(path, "integer too large");
    return static_cast<int64_t>(u);
  }
  if (value.is_number_integer()) return value.template get<int64_t>();
  FailAt(path, "expected an integer, got " + JsonTypeName(value));
}

/// Debug handles: an integer or an array of integers (both occur:
/// Dict[int, Union[int, List[int]]] in ExecuTorch).
template <typename J>
std::vector<int64_t> ExpectHandles(const J& value, const std::string& path) {
  if (value.is_number()) return {ExpectInt64(value, path)};
  if (!value.is_array()) {
    FailAt(path, "expected a list of debug handles (integers), got " +
                     JsonTypeName(value));
  }
  std::vector<int64_t> handles;
  handles.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) {
    handles.push_back(ExpectInt64(value[i], IndexPath(path, i)));
  }
  return handles;
}

/// Parses a decimal int32 key such as an instruction id ("12", "-1");
/// fails with the key's path otherwise.
int32_t ParseInstructionKey(const std::string& key, const std::string& path);

/// nlohmann's parse error message without its "[json.exception...] " tag.
std::string CleanParseError(const std::string& what);

}  // namespace etbench::etrecord_internal
