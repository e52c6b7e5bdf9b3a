#pragma once
// Typed reads of yaml-cpp nodes with errors that carry file:line:column.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "etbench/inspector/result.h"
#include "etbench/runtime/model.h"

namespace etbench::runtime {

class YamlReader {
 public:
  explicit YamlReader(std::string source) : source_(std::move(source)) {}

  const std::string& source() const { return source_; }

  /// Location of `node` (falls back to the file alone when yaml-cpp has no
  /// mark for it).
  SourceLocation Locate(const YAML::Node& node) const;

  /// "file:line:column: <message>".
  Error ErrorAt(const YAML::Node& node, const std::string& message) const;
  Error ErrorAt(const SourceLocation& location,
                const std::string& message) const;

  // Each reader names the value as `what` in its error ("key 'stride'").
  Result<std::string> String(const YAML::Node& node,
                             const std::string& what) const;
  Result<int64_t> Int(const YAML::Node& node, const std::string& what) const;
  Result<uint64_t> Uint(const YAML::Node& node, const std::string& what) const;
  Result<double> Double(const YAML::Node& node, const std::string& what) const;
  Result<bool> Bool(const YAML::Node& node, const std::string& what) const;
  Result<std::vector<int64_t>> IntList(const YAML::Node& node,
                                       const std::string& what) const;
  /// An int (both values) or a two-element list [h, w].
  Result<std::pair<int64_t, int64_t>> IntPair(const YAML::Node& node,
                                              const std::string& what) const;
  /// A string or a list of strings.
  Result<std::vector<std::string>> StringList(const YAML::Node& node,
                                              const std::string& what) const;

  /// Fails at the first key of mapping `map` not in `allowed`; `context`
  /// prefixes the message ("node 'conv1' (conv2d): ").
  Status CheckKeys(const YAML::Node& map,
                   const std::vector<std::string>& allowed,
                   const std::string& context) const;

 private:
  std::string source_;
};

}  // namespace etbench::runtime
