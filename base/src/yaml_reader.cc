#include "etbench/base/yaml_reader.h"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>

#include <cstdio>
#include <optional>
#include <sstream>
#include <set>
#include <vector>

#include "etbench/base/join.h"

namespace etbench {
namespace {

std::string FormatMark(const std::string& source, const YAML::Mark& mark) {
  if (mark.is_null() || mark.line < 0) return source;
  return source + ":" + std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1);
}

// Where a second YAML document starts, if the text has one. (YAML::LoadAll
// is not used: yaml-cpp 0.7 loops forever on some garbage, e.g. ",".) Only
// two documents are ever looked at.
std::optional<YAML::Mark> SecondDocumentMark(const std::string& text) {
  struct Marks : YAML::EventHandler {
    std::vector<YAML::Mark> starts;
    void OnDocumentStart(const YAML::Mark& mark) override { starts.push_back(mark); }
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
    void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
    void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  const std::string&) override {}
    void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                         YAML::EmitterStyle::value) override {}
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                    YAML::EmitterStyle::value) override {}
    void OnMapEnd() override {}
  } marks;
  std::istringstream in(text);
  YAML::Parser parser(in);
  for (int i = 0; i < 2 && parser.HandleNextDocument(marks); ++i) {
  }
  if (marks.starts.size() < 2) return std::nullopt;
  return marks.starts[1];
}

}  // namespace

YamlMark YamlReader::Mark(const YAML::Node& node) const {
  YamlMark position;
  if (!node.IsDefined()) return position;
  const YAML::Mark mark = node.Mark();
  if (mark.is_null() || mark.line < 0) return position;
  position.line = mark.line + 1;
  position.column = mark.column + 1;
  return position;
}

std::string YamlReader::Position(const YAML::Node& node) const {
  if (!node.IsDefined()) return source_;
  return FormatMark(source_, node.Mark());
}

Error YamlReader::ErrorAt(const YAML::Node& node, const std::string& message) const {
  return InputError(Position(node) + ": " + message);
}

Result<std::string> YamlReader::String(const YAML::Node& node, const std::string& what) const {
  if (!node.IsScalar()) return ErrorAt(node, what + " must be a string");
  return node.Scalar();
}

Result<int64_t> YamlReader::Int(const YAML::Node& node, const std::string& what, int64_t min,
                                int64_t max) const {
  int64_t value = 0;
  if (!node.IsScalar() || !YAML::convert<int64_t>::decode(node, value)) {
    return ErrorAt(node, what + " must be an integer");
  }
  if (value < min || value > max) {
    return ErrorAt(node, what + " must be between " + std::to_string(min) + " and " +
                             std::to_string(max) + ", got " + std::to_string(value));
  }
  return value;
}

Result<uint64_t> YamlReader::Uint(const YAML::Node& node, const std::string& what) const {
  uint64_t value = 0;
  if (!node.IsScalar() || node.Scalar().rfind('-', 0) == 0 ||
      !YAML::convert<uint64_t>::decode(node, value)) {
    return ErrorAt(node, what + " must be a non-negative integer");
  }
  return value;
}

Result<double> YamlReader::Double(const YAML::Node& node, const std::string& what,
                                  double min) const {
  double value = 0;
  if (!node.IsScalar() || !YAML::convert<double>::decode(node, value) || value != value) {
    return ErrorAt(node, what + " must be a number");
  }
  if (value < min) {
    char bound[32];
    std::snprintf(bound, sizeof bound, "%g", min);
    return ErrorAt(node, what + " must be at least " + bound + ", got " + node.Scalar());
  }
  return value;
}

Result<bool> YamlReader::Bool(const YAML::Node& node, const std::string& what) const {
  bool value = false;
  if (!node.IsScalar() || !YAML::convert<bool>::decode(node, value)) {
    return ErrorAt(node, what + " must be true or false");
  }
  return value;
}

Result<std::vector<int64_t>> YamlReader::IntList(const YAML::Node& node,
                                                 const std::string& what) const {
  if (!node.IsSequence()) return ErrorAt(node, what + " must be a list of integers");
  std::vector<int64_t> values;
  for (const YAML::Node& item : node) {
    auto value = Int(item, "each entry of " + what);
    if (!value) return value.error();
    values.push_back(*value);
  }
  return values;
}

Result<std::pair<int64_t, int64_t>> YamlReader::IntPair(const YAML::Node& node,
                                                        const std::string& what) const {
  if (node.IsScalar()) {
    auto value = Int(node, what);
    if (!value) return value.error();
    return std::make_pair(*value, *value);
  }
  auto values = IntList(node, what);
  if (!values) return values.error();
  if (values->size() != 2) return ErrorAt(node, what + " must be an integer or a list [h, w]");
  return std::make_pair((*values)[0], (*values)[1]);
}

Result<std::vector<std::string>> YamlReader::StringList(const YAML::Node& node,
                                                        const std::string& what) const {
  std::vector<std::string> items;
  if (node.IsScalar()) {
    items.push_back(node.Scalar());
    return items;
  }
  if (!node.IsSequence()) return ErrorAt(node, what + " must be a string or a list of strings");
  for (const YAML::Node& item : node) {
    if (!item.IsScalar()) return ErrorAt(item, what + " entries must be strings");
    items.push_back(item.Scalar());
  }
  return items;
}

Result<std::map<std::string, std::string>> YamlReader::StringMap(const YAML::Node& node,
                                                                 const std::string& what) const {
  if (!node.IsMap()) return ErrorAt(node, what + " must be a mapping of names to strings");
  std::map<std::string, std::string> map;
  for (auto it = node.begin(); it != node.end(); ++it) {
    if (!it->first.IsScalar()) return ErrorAt(it->first, what + " keys must be strings");
    if (!it->second.IsScalar()) {
      return ErrorAt(it->second, what + " '" + it->first.Scalar() + "' must be a string");
    }
    if (!map.emplace(it->first.Scalar(), it->second.Scalar()).second) {
      return ErrorAt(it->first, what + ": duplicate key '" + it->first.Scalar() + "'");
    }
  }
  return map;
}

Status YamlReader::CheckKeys(const YAML::Node& map, const std::vector<std::string>& accepted,
                             const std::string& context) const {
  std::set<std::string> seen;
  for (auto it = map.begin(); it != map.end(); ++it) {
    if (!it->first.IsScalar()) return ErrorAt(it->first, context + "keys must be strings");
    const std::string& key = it->first.Scalar();
    bool known = false;
    for (const std::string& a : accepted) known = known || a == key;
    if (!known) {
      return ErrorAt(it->first,
                     context + "unknown key '" + key + "' (accepted: " + JoinStrings(accepted) + ")");
    }
    if (!seen.insert(key).second) {
      return ErrorAt(it->first, context + "duplicate key '" + key + "'");
    }
  }
  return Ok{};
}

Result<YAML::Node> ParseYamlText(const std::string& text, const std::string& source) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
    if (auto second = SecondDocumentMark(text)) {
      // A second document would otherwise be ignored without a word.
      return InputError(FormatMark(source, *second) +
                        ": a second YAML document; a file holds one document");
    }
  } catch (const YAML::DeepRecursion& e) {
    // yaml-cpp's own message for this is "bad file".
    return InputError(FormatMark(source, e.mark) + ": invalid YAML: nested more than " +
                      std::to_string(e.depth() - 1) + " levels deep");
  } catch (const YAML::Exception& e) {
    return InputError(FormatMark(source, e.mark) + ": invalid YAML: " + e.msg);
  }
  return root;
}

}  // namespace etbench
