#pragma once
// The one YAML reader: typed reads of yaml-cpp nodes whose errors carry
// "file:line:column", with range checks and one key policy (unknown and
// duplicate keys are errors). Suite configs, model files and thresholds all
// read YAML through it.

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "etbench/base/result.h"

namespace etbench {

/// 1-based position of a node in its file; 0 when yaml-cpp has no mark.
struct YamlMark {
  int line = 0;
  int column = 0;
};

class YamlReader {
 public:
  explicit YamlReader(std::string source) : source_(std::move(source)) {}

  /// The file name (or other source name) errors start with.
  const std::string& source() const { return source_; }

  /// Position of `node` (zeros when it has none, e.g. a missing key).
  YamlMark Mark(const YAML::Node& node) const;
  /// "file:line:column" of `node` (just the file when yaml-cpp has no mark).
  std::string Position(const YAML::Node& node) const;
  /// InputError("file:line:column: <message>").
  Error ErrorAt(const YAML::Node& node, const std::string& message) const;

  // `what` names the value in errors ("key 'iterations'").
  Result<std::string> String(const YAML::Node& node, const std::string& what) const;
  /// An integer in [min, max] ("X must be between min and max, got v").
  Result<int64_t> Int(const YAML::Node& node, const std::string& what,
                      int64_t min = std::numeric_limits<int64_t>::min(),
                      int64_t max = std::numeric_limits<int64_t>::max()) const;
  Result<uint64_t> Uint(const YAML::Node& node, const std::string& what) const;
  /// A number (never NaN) of at least `min`.
  Result<double> Double(const YAML::Node& node, const std::string& what,
                        double min = -std::numeric_limits<double>::infinity()) const;
  Result<bool> Bool(const YAML::Node& node, const std::string& what) const;
  /// A list of integers.
  Result<std::vector<int64_t>> IntList(const YAML::Node& node, const std::string& what) const;
  /// An integer (both values) or a two-element list [h, w].
  Result<std::pair<int64_t, int64_t>> IntPair(const YAML::Node& node,
                                              const std::string& what) const;
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

}  // namespace etbench
