// Model YAML → validated Model. Validation happens while parsing, so that
// every error points at the YAML node that caused it.

#include "etbench/runtime/model_loader.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include "etbench/base/parse_number.h"
#include "etbench/base/yaml_reader.h"
#include "etbench/runtime/clock.h"
#include "model/op_schema.h"
#include "etbench/base/input_file.h"

namespace etbench::runtime {
namespace {

const std::vector<std::string> kModelKeys = {
    "name",  "description", "seed",     "inputs",      "outputs",
    "nodes", "delegates",   "slowdown", "module_types"};
const std::vector<std::string> kInputKeys = {"name", "shape"};
const std::vector<std::string> kNodeKeys = {
    "name", "op", "inputs", "shape", "delegate", "module", "module_type"};
const std::vector<std::string> kDelegateKeys = {
    "name", "backend", "debug_ids", "metadata", "time_source", "timestamps"};
const std::vector<std::string> kSlowdownKeys = {"op", "factor"};

// Lines of `text`, without their line breaks.
std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
  }
  return lines;
}

std::string Trim(const std::string& text) {
  const auto begin = text.find_first_not_of(" \t");
  if (begin == std::string::npos) return "";
  const auto end = text.find_last_not_of(" \t");
  return text.substr(begin, end - begin + 1);
}

bool IsModulePathChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_';
}

// "features.conv1", "blocks.0.attn": components of [A-Za-z0-9_], as
// nn.Module attribute names and Sequential indices are.
bool IsModulePath(const std::string& path) {
  if (path.empty() || path.front() == '.' || path.back() == '.') return false;
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (path[i] == '.') {
      if (path[i - 1] == '.') return false;
    } else if (!IsModulePathChar(path[i])) {
      return false;
    }
  }
  return true;
}

// "torch.nn.modules.conv.Conv2d", "__main__.Net": Python identifiers joined
// by '.'.
bool IsPythonQualifiedName(const std::string& name) {
  if (!IsModulePath(name)) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const bool starts_component = i == 0 || name[i - 1] == '.';
    if (starts_component && name[i] >= '0' && name[i] <= '9') return false;
  }
  return true;
}

// Where `node` is, for the model's source locations.
SourceLocation Locate(const YamlReader& yaml, const YAML::Node& node) {
  const YamlMark mark = yaml.Mark(node);
  return SourceLocation{yaml.source(), mark.line, mark.column};
}

// "file:line:column: <message>" at a location recorded while parsing.
Error LocationError(const SourceLocation& location, const std::string& message) {
  return InputError(FormatLocation(location) + ": " + message);
}

class ModelParser {
 public:
  ModelParser(const std::string& source, const std::string& text)
      : yaml_(source), lines_(SplitLines(text)) {}

  Result<Model> Parse(const YAML::Node& root);

 private:
  Status ParseInputs(const YAML::Node& inputs);
  Status ParseDelegates(const YAML::Node& delegates);
  Status ParseNode(const YAML::Node& yaml);
  Status ParseAttribute(const std::string& context, const std::string& key,
                        const YAML::Node& value, Node* node);
  Status ParseModuleTypes(const YAML::Node& types);
  Status ParseModule(const YAML::Node& yaml, const std::string& context,
                     Node* node);
  Status CheckModuleTypesUsed(const YAML::Node& types);
  Status CheckPartitions();
  Status ParseOutputs(const YAML::Node& outputs);
  Status ParseSlowdowns(const YAML::Node& slowdowns);

  // Shape of a value defined so far (model input or earlier node).
  const std::vector<int64_t>* ShapeOf(const std::string& name) const {
    auto it = shapes_.find(name);
    return it == shapes_.end() ? nullptr : &it->second;
  }

  // A module type declared by a node, for one-type-per-module checks.
  struct DeclaredType {
    std::string type;
    std::string node;
    int line = 0;
  };

  YamlReader yaml_;
  std::vector<std::string> lines_;
  Model model_;
  std::map<std::string, DeclaredType> module_types_;
  std::map<std::string, std::vector<int64_t>> shapes_;
  std::map<std::string, std::size_t> delegate_index_;
};

Result<Model> ModelParser::Parse(const YAML::Node& root) {
  model_.source_path = yaml_.source();
  if (!root.IsMap()) {
    return yaml_.ErrorAt(root, "a model file must be a YAML mapping");
  }
  if (auto s = yaml_.CheckKeys(root, kModelKeys, ""); !s) return s.error();
  const YAML::Node name = root["name"];
  if (!name) return yaml_.ErrorAt(root, "missing required key 'name'");
  auto model_name = yaml_.String(name, "key 'name'");
  if (!model_name) return model_name.error();
  model_.name = *model_name;
  if (const YAML::Node d = root["description"]) {
    auto description = yaml_.String(d, "key 'description'");
    if (!description) return description.error();
    model_.description = *description;
  }
  if (const YAML::Node seed = root["seed"]) {
    auto value = yaml_.Uint(seed, "key 'seed'");
    if (!value) return value.error();
    model_.seed = *value;
  }
  if (auto s = ParseInputs(root["inputs"]); !s) return s.error();
  if (auto s = ParseDelegates(root["delegates"]); !s) return s.error();
  if (auto s = ParseModuleTypes(root["module_types"]); !s) return s.error();
  const YAML::Node nodes = root["nodes"];
  if (!nodes || !nodes.IsSequence() || nodes.size() == 0) {
    return yaml_.ErrorAt(nodes ? nodes : root,
                         "'nodes' must be a non-empty list of nodes");
  }
  for (const YAML::Node& node : nodes) {
    if (auto s = ParseNode(node); !s) return s.error();
  }
  if (auto s = CheckPartitions(); !s) return s.error();
  if (auto s = CheckModuleTypesUsed(root["module_types"]); !s) {
    return s.error();
  }
  if (auto s = ParseOutputs(root["outputs"]); !s) return s.error();
  if (auto s = ParseSlowdowns(root["slowdown"]); !s) return s.error();
  return std::move(model_);
}

Status ModelParser::ParseInputs(const YAML::Node& inputs) {
  if (!inputs || !inputs.IsSequence() || inputs.size() == 0) {
    return yaml_.ErrorAt(inputs, inputs ? "'inputs' must be a non-empty list"
                                        : "missing required key 'inputs'");
  }
  for (const YAML::Node& input : inputs) {
    if (!input.IsMap()) {
      return yaml_.ErrorAt(input, "each input must be a mapping {name, shape}");
    }
    if (auto s = yaml_.CheckKeys(input, kInputKeys, "input: "); !s) {
      return s.error();
    }
    if (!input["name"] || !input["shape"]) {
      return yaml_.ErrorAt(input, "an input needs 'name' and 'shape'");
    }
    TensorSpec spec;
    spec.location = Locate(yaml_, input);
    auto name = yaml_.String(input["name"], "input 'name'");
    if (!name) return name.error();
    spec.name = *name;
    auto shape = yaml_.IntList(input["shape"], "input 'shape'");
    if (!shape) return shape.error();
    if (!ShapeWithinLimits(*shape)) {
      return yaml_.ErrorAt(input["shape"],
                           "input '" + spec.name +
                               "': sizes must be positive and at most " +
                               std::to_string(kMaxTensorElements) +
                               " elements in all");
    }
    spec.shape = *shape;
    if (!shapes_.emplace(spec.name, spec.shape).second) {
      return yaml_.ErrorAt(input, "duplicate input name '" + spec.name + "'");
    }
    model_.inputs.push_back(std::move(spec));
  }
  return Ok{};
}

Status ModelParser::ParseDelegates(const YAML::Node& delegates) {
  if (!delegates) return Ok{};
  if (!delegates.IsSequence()) {
    return yaml_.ErrorAt(delegates, "'delegates' must be a list");
  }
  for (const YAML::Node& yaml : delegates) {
    if (!yaml.IsMap() || !yaml["name"]) {
      return yaml_.ErrorAt(yaml, "each delegate must be a mapping with 'name'");
    }
    DelegateSpec spec;
    spec.location = Locate(yaml_, yaml);
    auto name = yaml_.String(yaml["name"], "delegate 'name'");
    if (!name) return name.error();
    spec.name = *name;
    const std::string context = "delegate '" + spec.name + "': ";
    if (auto s = yaml_.CheckKeys(yaml, kDelegateKeys, context); !s) {
      return s.error();
    }
    // Enum-valued keys: (key, accepted values, setter).
    auto choose = [&](const char* key, std::vector<std::string> accepted,
                      auto&& set) -> Status {
      const YAML::Node value = yaml[key];
      if (!value) return Ok{};
      auto text = yaml_.String(value, context + "key '" + key + "'");
      if (!text) return text.error();
      for (std::size_t i = 0; i < accepted.size(); ++i) {
        if (*text == accepted[i]) {
          set(i);
          return Ok{};
        }
      }
      std::string list;
      for (const auto& a : accepted) list += (list.empty() ? "" : ", ") + a;
      return yaml_.ErrorAt(value, context + key + " must be one of " + list +
                                      ", not '" + *text + "'");
    };
    if (auto s = choose("backend", {"reference"}, [](std::size_t) {}); !s) {
      return s.error();
    }
    if (auto s = choose("debug_ids", {"int", "str"},
                        [&](std::size_t i) {
                          spec.debug_ids = i == 0 ? DelegateDebugIdKind::kInt
                                                  : DelegateDebugIdKind::kString;
                        });
        !s) {
      return s.error();
    }
    if (auto s = choose("time_source", {"runtime", "cycles"},
                        [&](std::size_t i) {
                          spec.clock = i == 0 ? DelegateClock::kRuntime
                                              : DelegateClock::kCycles;
                        });
        !s) {
      return s.error();
    }
    if (auto s = choose("timestamps", {"measured", "back_to_back"},
                        [&](std::size_t i) {
                          spec.timestamps =
                              i == 0 ? DelegateTimestamps::kMeasured
                                     : DelegateTimestamps::kBackToBack;
                        });
        !s) {
      return s.error();
    }
    if (const YAML::Node metadata = yaml["metadata"]) {
      auto value = yaml_.Bool(metadata, context + "key 'metadata'");
      if (!value) return value.error();
      spec.metadata = *value;
    }
    if (spec.clock == DelegateClock::kCycles && !CycleCounterAvailable()) {
      return yaml_.ErrorAt(yaml, context +
                                     "time_source cycles is not supported on "
                                     "this CPU");
    }
    if (!delegate_index_.emplace(spec.name, model_.delegates.size()).second) {
      return yaml_.ErrorAt(yaml, "duplicate delegate name '" + spec.name + "'");
    }
    model_.delegates.push_back(std::move(spec));
  }
  return Ok{};
}

Status ModelParser::ParseNode(const YAML::Node& yaml) {
  if (!yaml.IsMap()) return yaml_.ErrorAt(yaml, "each node must be a mapping");
  if (!yaml["name"]) return yaml_.ErrorAt(yaml, "node without 'name'");
  Node node;
  node.location = Locate(yaml_, yaml);
  auto name = yaml_.String(yaml["name"], "node 'name'");
  if (!name) return name.error();
  node.name = *name;
  std::string context = "node '" + node.name + "': ";
  const YAML::Node op = yaml["op"];
  if (!op) return yaml_.ErrorAt(yaml, context + "missing required key 'op'");
  auto op_name = yaml_.String(op, context + "key 'op'");
  if (!op_name) return op_name.error();
  const OpSchema* schema = FindOpSchema(*op_name);
  if (schema == nullptr) {
    return yaml_.ErrorAt(op, context + "unknown op '" + *op_name +
                                 "' (known ops: " + KnownOpNames() + ")");
  }
  node.op = schema->op;
  context = "node '" + node.name + "' (" + schema->name + "): ";

  std::vector<std::string> allowed = kNodeKeys;
  allowed.insert(allowed.end(), schema->attributes.begin(),
                 schema->attributes.end());
  if (auto s = yaml_.CheckKeys(yaml, allowed, context); !s) return s.error();
  for (const std::string& key : schema->required) {
    if (!yaml[key]) {
      return yaml_.ErrorAt(yaml, context + "missing required key '" + key + "'");
    }
  }
  if (shapes_.count(node.name) != 0) {
    return yaml_.ErrorAt(yaml["name"], context + "the name '" + node.name +
                                           "' is already used by an input or "
                                           "an earlier node");
  }

  // Inputs: each must be a model input or an earlier node.
  const YAML::Node inputs = yaml["inputs"];
  if (!inputs) {
    return yaml_.ErrorAt(yaml, context + "missing required key 'inputs'");
  }
  auto input_names = yaml_.StringList(inputs, context + "key 'inputs'");
  if (!input_names) return input_names.error();
  node.inputs = *input_names;
  const auto count = static_cast<int>(node.inputs.size());
  if (count < schema->min_inputs || count > schema->max_inputs) {
    const std::string expected =
        schema->min_inputs == schema->max_inputs
            ? std::to_string(schema->min_inputs)
            : std::to_string(schema->min_inputs) + " or " +
                  std::to_string(schema->max_inputs);
    return yaml_.ErrorAt(inputs, context + "takes " + expected +
                                     " input(s), got " + std::to_string(count));
  }
  std::vector<std::vector<int64_t>> input_shapes;
  for (const std::string& input : node.inputs) {
    const auto* shape = ShapeOf(input);
    if (shape == nullptr) {
      return yaml_.ErrorAt(inputs, context + "input '" + input +
                                       "' is not a model input or an earlier "
                                       "node");
    }
    input_shapes.push_back(*shape);
  }

  bool stride_given = false;
  for (const auto& entry : yaml) {
    const std::string key = entry.first.Scalar();
    if (std::find(kNodeKeys.begin(), kNodeKeys.end(), key) != kNodeKeys.end()) {
      continue;
    }
    stride_given |= key == "stride";
    if (auto s = ParseAttribute(context, key, entry.second, &node); !s) {
      return s.error();
    }
  }
  // Pools default their stride to the kernel size, as PyTorch does.
  if ((node.op == OpType::kMaxPool2d || node.op == OpType::kAvgPool2d) &&
      !stride_given) {
    node.attrs.stride_h = node.attrs.kernel_h;
    node.attrs.stride_w = node.attrs.kernel_w;
  }

  std::string error;
  if (!InferOutputShape(node, input_shapes, &node.output_shape, &error)) {
    return yaml_.ErrorAt(yaml, context + error);
  }
  if (const YAML::Node shape = yaml["shape"]) {
    auto expected = yaml_.IntList(shape, context + "key 'shape'");
    if (!expected) return expected.error();
    if (*expected != node.output_shape) {
      return yaml_.ErrorAt(shape, context + "shape mismatch: declared " +
                                      FormatShape(*expected) +
                                      " but the inputs give " +
                                      FormatShape(node.output_shape));
    }
  }
  if (const YAML::Node delegate = yaml["delegate"]) {
    auto partition = yaml_.String(delegate, context + "key 'delegate'");
    if (!partition) return partition.error();
    if (delegate_index_.count(*partition) == 0) {
      return yaml_.ErrorAt(delegate, context + "delegate '" + *partition +
                                         "' is not declared under "
                                         "'delegates'");
    }
    node.delegate = *partition;
  }
  if (auto s = ParseModule(yaml, context, &node); !s) return s.error();
  if (node.location.line > 0 &&
      static_cast<std::size_t>(node.location.line) <= lines_.size()) {
    node.source_line = Trim(lines_[node.location.line - 1]);
  }
  shapes_.emplace(node.name, node.output_shape);
  model_.nodes.push_back(std::move(node));
  return Ok{};
}

Status ModelParser::ParseAttribute(const std::string& context,
                                   const std::string& key,
                                   const YAML::Node& value, Node* node) {
  OpAttributes& a = node->attrs;
  const std::string what = context + "key '" + key + "'";
  // Attribute integers stay far from overflow in size arithmetic.
  constexpr int64_t kLimit = int64_t{1} << 31;
  auto in_range = [&](int64_t v) { return v > -kLimit && v < kLimit; };
  auto set_int = [&](int64_t* field) -> Status {
    auto v = yaml_.Int(value, what);
    if (!v) return v.error();
    if (!in_range(*v)) return yaml_.ErrorAt(value, what + " is out of range");
    *field = *v;
    return Ok{};
  };
  auto set_pair = [&](int64_t* h, int64_t* w) -> Status {
    auto v = yaml_.IntPair(value, what);
    if (!v) return v.error();
    if (!in_range(v->first) || !in_range(v->second)) {
      return yaml_.ErrorAt(value, what + " is out of range");
    }
    *h = v->first;
    *w = v->second;
    return Ok{};
  };
  if (key == "in_channels") return set_int(&a.in_channels);
  if (key == "out_channels") return set_int(&a.out_channels);
  if (key == "groups") return set_int(&a.groups);
  if (key == "in_features") return set_int(&a.in_features);
  if (key == "out_features") return set_int(&a.out_features);
  if (key == "dim") return set_int(&a.dim);
  if (key == "start_dim") return set_int(&a.start_dim);
  if (key == "end_dim") return set_int(&a.end_dim);
  if (key == "kernel_size") return set_pair(&a.kernel_h, &a.kernel_w);
  if (key == "stride") return set_pair(&a.stride_h, &a.stride_w);
  if (key == "padding") return set_pair(&a.pad_h, &a.pad_w);
  if (key == "bias") {
    auto v = yaml_.Bool(value, what);
    if (!v) return v.error();
    a.bias = *v;
    return Ok{};
  }
  if (key == "approximate") {
    auto v = yaml_.String(value, what);
    if (!v) return v.error();
    a.approximate = *v;
    return Ok{};
  }
  if (key == "scalar" || key == "eps") {
    auto v = yaml_.Double(value, what);
    if (!v) return v.error();
    if (!std::isfinite(*v)) return yaml_.ErrorAt(value, what + " must be finite");
    if (key == "scalar") {
      a.scalar = *v;
    } else {
      if (*v <= 0) return yaml_.ErrorAt(value, what + " must be positive");
      a.eps = *v;
    }
    return Ok{};
  }
  if (key == "dims" || key == "sizes") {
    auto v = yaml_.IntList(value, what);
    if (!v) return v.error();
    for (int64_t x : *v) {
      if (!in_range(x)) return yaml_.ErrorAt(value, what + " is out of range");
    }
    (key == "dims" ? a.dims : a.sizes) = *v;
    return Ok{};
  }
  return yaml_.ErrorAt(value, what + " is not supported");
}

Status ModelParser::ParseModuleTypes(const YAML::Node& types) {
  if (!types) return Ok{};
  if (!types.IsMap()) {
    return yaml_.ErrorAt(types,
                         "'module_types' must be a mapping of module paths "
                         "to types, e.g. {features: "
                         "torch.nn.modules.container.Sequential}");
  }
  for (const auto& entry : types) {
    auto path = yaml_.String(entry.first, "a key of 'module_types'");
    if (!path) return path.error();
    const std::string context = "module_types: '" + *path + "': ";
    if (!IsModulePath(*path)) {
      return yaml_.ErrorAt(entry.first,
                           context +
                               "not a dotted module path (names of letters, "
                               "digits and '_' joined by '.', e.g. "
                               "features.conv1)");
    }
    auto type = yaml_.String(entry.second, context + "the type");
    if (!type) return type.error();
    if (!IsPythonQualifiedName(*type)) {
      return yaml_.ErrorAt(entry.second,
                           context + "'" + *type +
                               "' is not a Python class path (identifiers "
                               "joined by '.', e.g. "
                               "torch.nn.modules.container.Sequential)");
    }
    module_types_[*path] =
        DeclaredType{*type, "", Locate(yaml_, entry.second).line};
    model_.module_types[*path] = *type;
  }
  return Ok{};
}

Status ModelParser::CheckModuleTypesUsed(const YAML::Node& types) {
  if (!types) return Ok{};
  for (const auto& entry : types) {
    const std::string path = entry.first.Scalar();
    bool used = false;
    for (const Node& node : model_.nodes) {
      used |= node.module == path ||
              node.module.compare(0, path.size() + 1, path + ".") == 0;
    }
    if (!used) {
      return yaml_.ErrorAt(entry.first,
                           "module_types: '" + path +
                               "' is not the module of any node, nor a "
                               "parent of one");
    }
  }
  return Ok{};
}

Status ModelParser::ParseModule(const YAML::Node& yaml,
                                const std::string& context, Node* node) {
  node->module = node->name;
  if (const YAML::Node module = yaml["module"]) {
    auto path = yaml_.String(module, context + "key 'module'");
    if (!path) return path.error();
    if (!path->empty() && !IsModulePath(*path)) {
      return yaml_.ErrorAt(
          module, context + "key 'module': '" + *path +
                      "' is not a dotted module path (names of letters, "
                      "digits and '_' joined by '.', e.g. features.conv1; "
                      "'' for the root module)");
    }
    node->module = *path;
  }
  const YAML::Node type = yaml["module_type"];
  if (!type) return Ok{};
  auto name = yaml_.String(type, context + "key 'module_type'");
  if (!name) return name.error();
  if (!IsPythonQualifiedName(*name)) {
    return yaml_.ErrorAt(
        type, context + "key 'module_type': '" + *name +
                  "' is not a Python class path (identifiers joined by '.', "
                  "e.g. torch.nn.modules.conv.Conv2d)");
  }
  if (node->module.empty()) {
    return yaml_.ErrorAt(type, context +
                                   "key 'module_type': the node is in the "
                                   "root module (module ''), which has no "
                                   "type to set");
  }
  const auto [it, inserted] = module_types_.emplace(
      node->module,
      DeclaredType{*name, node->name, Locate(yaml_, type).line});
  if (!inserted && it->second.type != *name) {
    const std::string where =
        it->second.node.empty() ? "under 'module_types'"
                                : "by node '" + it->second.node + "'";
    return yaml_.ErrorAt(
        type, context + "key 'module_type': module '" + node->module +
                  "' is already declared as '" + it->second.type + "' (" +
                  where + ", line " + std::to_string(it->second.line) +
                  "); a module has one type");
  }
  node->module_type = *name;
  return Ok{};
}

Status ModelParser::CheckPartitions() {
  // A partition becomes one DELEGATE_CALL instruction, so its nodes must be
  // consecutive in execution order.
  std::map<std::string, int> last_index;
  for (std::size_t i = 0; i < model_.nodes.size(); ++i) {
    const Node& node = model_.nodes[i];
    if (node.delegate.empty()) continue;
    auto it = last_index.find(node.delegate);
    if (it != last_index.end() && it->second != static_cast<int>(i) - 1) {
      return LocationError(
          node.location,
          "node '" + node.name + "' (" + OpTypeName(node.op) +
              "): delegate partition '" + node.delegate +
              "' is not contiguous (node '" + model_.nodes[i - 1].name +
              "' runs outside it); a partition must be consecutive nodes");
    }
    last_index[node.delegate] = static_cast<int>(i);
  }
  for (const DelegateSpec& delegate : model_.delegates) {
    if (last_index.count(delegate.name) == 0) {
      return LocationError(delegate.location,
                           "delegate '" + delegate.name + "' has no nodes");
    }
  }
  return Ok{};
}

Status ModelParser::ParseOutputs(const YAML::Node& outputs) {
  if (!outputs) {
    model_.outputs = {model_.nodes.back().name};
    return Ok{};
  }
  auto names = yaml_.StringList(outputs, "key 'outputs'");
  if (!names) return names.error();
  if (names->empty()) return yaml_.ErrorAt(outputs, "'outputs' is empty");
  for (const std::string& name : *names) {
    if (ShapeOf(name) == nullptr) {
      return yaml_.ErrorAt(outputs, "output '" + name +
                                        "' is not an input or a node");
    }
  }
  model_.outputs = *names;
  return Ok{};
}

Status ModelParser::ParseSlowdowns(const YAML::Node& slowdowns) {
  if (!slowdowns) return Ok{};
  std::vector<YAML::Node> entries;
  if (slowdowns.IsMap()) {
    entries.push_back(slowdowns);
  } else if (slowdowns.IsSequence()) {
    for (const YAML::Node& entry : slowdowns) entries.push_back(entry);
  } else {
    return yaml_.ErrorAt(slowdowns,
                         "'slowdown' must be {op, factor} or a list of them");
  }
  for (const YAML::Node& entry : entries) {
    if (!entry.IsMap() || !entry["op"] || !entry["factor"]) {
      return yaml_.ErrorAt(entry, "a slowdown needs 'op' and 'factor'");
    }
    if (auto s = yaml_.CheckKeys(entry, kSlowdownKeys, "slowdown: "); !s) {
      return s.error();
    }
    Slowdown slowdown;
    auto target = yaml_.String(entry["op"], "slowdown 'op'");
    if (!target) return target.error();
    slowdown.target = *target;
    auto factor = yaml_.Double(entry["factor"], "slowdown 'factor'");
    if (!factor) return factor.error();
    slowdown.factor = *factor;
    if (auto s = ValidateSlowdowns(model_, {slowdown}); !s) {
      return yaml_.ErrorAt(entry, s.error().message);
    }
    model_.slowdowns.push_back(std::move(slowdown));
  }
  return Ok{};
}

}  // namespace

Result<Model> ParseModelYaml(const std::string& text,
                             const std::string& source_name) {
  auto parsed = ParseYamlText(text, source_name);
  if (!parsed) return parsed.error();
  const YAML::Node root = parsed.value();
  try {
    ModelParser parser(source_name, text);
    return parser.Parse(root);
  } catch (const YAML::Exception& e) {
    // yaml-cpp throws on some malformed structures (e.g. a non-scalar key).
    SourceLocation location{source_name, e.mark.line + 1, e.mark.column + 1};
    if (e.mark.is_null()) location.line = 0;
    return InputError(FormatLocation(location) + ": " + e.msg);
  }
}

Result<Model> LoadModelFile(const std::string& path) {
  auto text = ReadTextFile(path);
  if (!text.ok()) return text.error();
  return ParseModelYaml(*text, path);
}

Result<Slowdown> ParseSlowdownFlag(const std::string& text) {
  const auto eq = text.rfind('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
    return UsageError("--slowdown '" + text +
                      "': expected OP=FACTOR, e.g. conv2d=1.10");
  }
  Slowdown slowdown;
  slowdown.target = text.substr(0, eq);
  const std::string factor = text.substr(eq + 1);
  const std::optional<double> parsed = ParseFiniteDouble(factor);
  if (parsed) slowdown.factor = *parsed;
  if (!parsed) {
    return UsageError("--slowdown '" + text + "': factor '" + factor +
                      "' is not a number");
  }
  return slowdown;
}

Status ValidateSlowdowns(const Model& model,
                         const std::vector<Slowdown>& slowdowns) {
  for (const Slowdown& slowdown : slowdowns) {
    if (!std::isfinite(slowdown.factor) || slowdown.factor < 1.0 ||
        slowdown.factor > 1000.0) {
      return UsageError("slowdown '" + slowdown.target + "': factor " +
                        std::to_string(slowdown.factor) +
                        " must be between 1 and 1000");
    }
    bool matched = false;
    for (const Node& node : model.nodes) {
      matched |= SlowdownMatchesNode(slowdown.target, node) &&
                 !KernelNames(node).empty();
    }
    if (!matched) {
      return UsageError("slowdown '" + slowdown.target +
                        "' matches no node, op or kernel of model '" +
                        model.name + "'");
    }
  }
  return Ok{};
}

}  // namespace etbench::runtime
