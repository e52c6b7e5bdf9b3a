#include "etrecord/json_access.h"

#include <cerrno>
#include <cstdlib>

namespace etbench::etrecord_internal {

void FailAt(const std::string& path, const std::string& what) {
  throw JsonFormatError((path.empty() ? std::string("(root)") : path) + ": " +
                        what);
}

std::string MemberPath(const std::string& path, std::string_view key) {
  if (path.empty()) return std::string(key);
  return path + "." + std::string(key);
}

std::string IndexPath(const std::string& path, std::size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

std::string KeyPath(const std::string& path, std::string_view key) {
  return path + "[\"" + std::string(key) + "\"]";
}

int32_t ParseInstructionKey(const std::string& key, const std::string& path) {
  std::size_t digits_from = (!key.empty() && key[0] == '-') ? 1 : 0;
  bool ok = key.size() > digits_from && key.size() <= 11;
  for (std::size_t i = digits_from; ok && i < key.size(); ++i) {
    ok = key[i] >= '0' && key[i] <= '9';
  }
  if (ok) {
    errno = 0;
    char* end = nullptr;
    const long long value = std::strtoll(key.c_str(), &end, 10);
    if (errno == 0 && value >= INT32_MIN && value <= INT32_MAX) {
      return static_cast<int32_t>(value);
    }
  }
  FailAt(KeyPath(path, key), "expected an instruction id (an integer key)");
}

Result<JsonDocument> ParseEntryJson(std::string_view text, const std::string& where) {
  JsonParseOptions options;
  options.root_path = "";
  options.max_depth = 0;
  JsonSyntaxError syntax;
  auto doc = ParseJson(text, "", options, &syntax);
  if (!doc.ok()) {
    return InputError(where + ": malformed JSON: parse error at line " +
                      std::to_string(syntax.line) + ", column " + std::to_string(syntax.column) +
                      ": " + syntax.what);
  }
  return doc;
}

JsonValue ExpectObject(const JsonValue& value, const std::string& path) {
  if (!value.is_object()) {
    FailAt(path, std::string("expected an object, got ") + value.TypeName());
  }
  return value;
}

JsonValue ExpectArray(const JsonValue& value, const std::string& path) {
  if (!value.is_array()) {
    FailAt(path, std::string("expected an array, got ") + value.TypeName());
  }
  return value;
}

std::string ExpectString(const JsonValue& value, const std::string& path) {
  if (!value.is_string()) {
    FailAt(path, std::string("expected a string, got ") + value.TypeName());
  }
  return *value.String();
}

JsonValue RequiredMember(const JsonValue& object, const std::string& path, const char* key) {
  ExpectObject(object, path);
  const JsonValue member = object.Get(key);
  if (!member.present()) FailAt(MemberPath(path, key), "missing");
  return member;
}

std::optional<JsonValue> OptionalMember(const JsonValue& object, const char* key) {
  const JsonValue member = object.Get(key);
  if (!member.present() || member.is_null()) return std::nullopt;
  return member;
}

int64_t ExpectInt64(const JsonValue& value, const std::string& path) {
  if (!value.is_integer()) {
    FailAt(path, std::string("expected an integer, got ") + value.TypeName());
  }
  auto integer = value.Int();
  if (!integer.ok()) FailAt(path, "integer too large");
  return *integer;
}

std::vector<int64_t> ExpectHandles(const JsonValue& value, const std::string& path) {
  if (value.is_number()) return {ExpectInt64(value, path)};
  if (!value.is_array()) {
    FailAt(path, std::string("expected a list of debug handles (integers), got ") +
                     value.TypeName());
  }
  std::vector<int64_t> handles;
  handles.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) {
    handles.push_back(ExpectInt64(value[i], IndexPath(path, i)));
  }
  return handles;
}

}  // namespace etbench::etrecord_internal
