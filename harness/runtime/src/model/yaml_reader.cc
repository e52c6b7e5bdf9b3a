#include "model/yaml_reader.h"

#include <algorithm>

#include "etbench/inspector/join.h"

namespace etbench::runtime {

SourceLocation YamlReader::Locate(const YAML::Node& node) const {
  SourceLocation location;
  location.file = source_;
  if (node.IsDefined()) {
    const YAML::Mark mark = node.Mark();
    if (mark.line >= 0) {
      location.line = mark.line + 1;
      location.column = mark.column + 1;
    }
  }
  return location;
}

Error YamlReader::ErrorAt(const YAML::Node& node,
                          const std::string& message) const {
  return ErrorAt(Locate(node), message);
}

Error YamlReader::ErrorAt(const SourceLocation& location,
                          const std::string& message) const {
  return InputError(FormatLocation(location) + ": " + message);
}

Result<std::string> YamlReader::String(const YAML::Node& node,
                                       const std::string& what) const {
  if (!node.IsScalar()) return ErrorAt(node, what + " must be a string");
  return node.Scalar();
}

Result<int64_t> YamlReader::Int(const YAML::Node& node,
                                const std::string& what) const {
  int64_t value = 0;
  if (!node.IsScalar() || !YAML::convert<int64_t>::decode(node, value)) {
    return ErrorAt(node, what + " must be an integer");
  }
  return value;
}

Result<uint64_t> YamlReader::Uint(const YAML::Node& node,
                                  const std::string& what) const {
  uint64_t value = 0;
  if (!node.IsScalar() || node.Scalar().rfind('-', 0) == 0 ||
      !YAML::convert<uint64_t>::decode(node, value)) {
    return ErrorAt(node, what + " must be a non-negative integer");
  }
  return value;
}

Result<double> YamlReader::Double(const YAML::Node& node,
                                  const std::string& what) const {
  double value = 0;
  if (!node.IsScalar() || !YAML::convert<double>::decode(node, value)) {
    return ErrorAt(node, what + " must be a number");
  }
  return value;
}

Result<bool> YamlReader::Bool(const YAML::Node& node,
                              const std::string& what) const {
  bool value = false;
  if (!node.IsScalar() || !YAML::convert<bool>::decode(node, value)) {
    return ErrorAt(node, what + " must be true or false");
  }
  return value;
}

Result<std::vector<int64_t>> YamlReader::IntList(
    const YAML::Node& node, const std::string& what) const {
  if (!node.IsSequence()) {
    return ErrorAt(node, what + " must be a list of integers");
  }
  std::vector<int64_t> values;
  for (const YAML::Node& item : node) {
    auto value = Int(item, "each entry of " + what);
    if (!value) return value.error();
    values.push_back(*value);
  }
  return values;
}

Result<std::pair<int64_t, int64_t>> YamlReader::IntPair(
    const YAML::Node& node, const std::string& what) const {
  if (node.IsScalar()) {
    auto value = Int(node, what);
    if (!value) return value.error();
    return std::make_pair(*value, *value);
  }
  auto values = IntList(node, what);
  if (!values) return values.error();
  if (values->size() != 2) {
    return ErrorAt(node, what + " must be an integer or a list [h, w]");
  }
  return std::make_pair((*values)[0], (*values)[1]);
}

Result<std::vector<std::string>> YamlReader::StringList(
    const YAML::Node& node, const std::string& what) const {
  std::vector<std::string> values;
  if (node.IsScalar()) {
    values.push_back(node.Scalar());
    return values;
  }
  if (!node.IsSequence()) {
    return ErrorAt(node, what + " must be a name or a list of names");
  }
  for (const YAML::Node& item : node) {
    auto value = String(item, "each entry of " + what);
    if (!value) return value.error();
    values.push_back(*value);
  }
  return values;
}

Status YamlReader::CheckKeys(const YAML::Node& map,
                             const std::vector<std::string>& allowed,
                             const std::string& context) const {
  for (const auto& entry : map) {
    const std::string key = entry.first.Scalar();
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      return ErrorAt(entry.first, context + "unknown key '" + key +
                                      "' (allowed: " + JoinStrings(allowed) + ")");
    }
  }
  return Ok{};
}

}  // namespace etbench::runtime
