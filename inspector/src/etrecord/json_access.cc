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

std::string CleanParseError(const std::string& what) {
  // "[json.exception.parse_error.101] parse error at line 1, column 2: ..."
  if (!what.empty() && what[0] == '[') {
    const auto close = what.find("] ");
    if (close != std::string::npos) return what.substr(close + 2);
  }
  return what;
}

}  // namespace etbench::etrecord_internal
