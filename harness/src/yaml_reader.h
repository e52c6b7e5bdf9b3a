#pragma once
// Typed reads of yaml-cpp nodes whose errors carry "file:line:column".

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "etbench/inspector/result.h"

namespace etbench::harness {

class YamlReader {
 public:
  explicit YamlReader(std::string source) : source_(std::move(source)) {}

  /// "file:line:column" of `node` (just the file when yaml-cpp has no mark).
  std::string Position(const YAML::Node& node) const;
  /// InputError("file:line:column: <message>").
  Error ErrorAt(const YAML::Node& node, const std::string& message) const;

  // `what` names the value in errors ("key 'iterations'").
  Result<std::string> String(const YAML::Node& node, const std::string& what) const;
  Result<int64_t> Int(const YAML::Node& node, const std::string& what, int64_t min,
                      int64_t max) const;
  Result<uint64_t> Uint(const YAML::Node& node, const std::string& what) const;
  Result<double> Double(const YAML::Node& node, const std::string& what, double min) const;
  Result<bool> Bool(const YAML::Node& node, const std::string& what) const;
  /// A string or a list of strings.
  Result<std::vector<std::string>> StringList(const YAML::Node& node,
                                              const std::string& what) const;
  /// A mapping of scalar keys to scalar values.
  Result<std::map<std::string, std::string>> StringMap(const YAML::Node& node,
                                                       const std::string& what) const;

  /// Fails at the first key of mapping `map` that is not in `accepted`
  /// (listing them) or that appears twice; `context` prefixes the message.
  Status CheckKeys(const YAML::Node& map, const std::vector<std::string>& accepted,
                   const std::string& context) const;

 private:
  std::string source_;
};

/// Parses YAML text; a syntax error is "source:line:column: <what>".
/// Errors: invalid YAML, nesting too deep, more than one document ("---").
Result<YAML::Node> ParseYamlText(const std::string& text, const std::string& source);

}  // namespace etbench::harness
