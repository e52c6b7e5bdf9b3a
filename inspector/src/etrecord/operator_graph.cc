// torch.export JSON (an ExportedProgram) -> OperatorGraph.
//
// Shape relied on (torch/_export/serde/schema.py):
//   graph_module.graph.nodes[]: {target: str, inputs: [NamedArgument],
//                                outputs: [Argument], metadata: {str: str},
//                                name?: str (newer executorch)}
//   graph_module.graph.inputs[] / outputs[]: Argument
//   Argument: a union object; the set field is the one that is present and
//   not null ("as_tensor": {"name"}, "as_tensors": [{"name"}], ...). Old
//   files list every field with nulls, new ones only the set field.

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "etbench/inspector/etrecord_graph.h"
#include "etrecord/json_access.h"

namespace etbench {
namespace {

using Json = nlohmann::json;
using etrecord_internal::ExpectArray;
using etrecord_internal::ExpectHandles;
using etrecord_internal::ExpectObject;
using etrecord_internal::ExpectString;
using etrecord_internal::FailAt;
using etrecord_internal::IndexPath;
using etrecord_internal::MemberPath;
using etrecord_internal::OptionalMember;
using etrecord_internal::RequiredMember;

// Tensor names an Argument refers to; arguments of other kinds (ints, lowered
// modules as strings, ...) contribute nothing. Lenient: only display uses it.
void CollectTensorNames(const Json& arg, std::vector<std::string>& out) {
  if (!arg.is_object()) return;
  auto name_of = [](const Json& tensor) -> const std::string* {
    const Json* name = OptionalMember(tensor, "name");
    return name != nullptr && name->is_string()
               ? &name->get_ref<const std::string&>()
               : nullptr;
  };
  if (const Json* t = OptionalMember(arg, "as_tensor")) {
    if (const std::string* n = name_of(*t)) out.push_back(*n);
  }
  if (const Json* ts = OptionalMember(arg, "as_tensors")) {
    if (ts->is_array()) {
      for (const Json& t : *ts) {
        if (const std::string* n = name_of(t)) out.push_back(*n);
      }
    }
  }
  if (const Json* ots = OptionalMember(arg, "as_optional_tensors")) {
    if (ots->is_array()) {
      for (const Json& ot : *ots) {
        if (const Json* t = OptionalMember(ot, "as_tensor")) {
          if (const std::string* n = name_of(*t)) out.push_back(*n);
        }
      }
    }
  }
  if (const Json* s = OptionalMember(arg, "as_sym_int")) {
    if (const Json* n = OptionalMember(*s, "as_name")) {
      if (n->is_string()) out.push_back(n->get<std::string>());
    }
  }
}

std::vector<std::string> ArgumentListNames(const Json* list) {
  std::vector<std::string> names;
  if (list == nullptr || !list->is_array()) return names;
  for (const Json& arg : *list) CollectTensorNames(arg, names);
  return names;
}

// The node's FX name: the explicit "name" when present, else (as torch's
// deserializer does) the name of a single tensor output.
std::string ExplicitNodeName(const Json& node, const std::string& path) {
  if (const Json* name = OptionalMember(node, "name")) {
    return ExpectString(*name, MemberPath(path, "name"));
  }
  const Json* outputs = OptionalMember(node, "outputs");
  if (outputs != nullptr && outputs->is_array() && outputs->size() == 1) {
    if (const Json* t = OptionalMember((*outputs)[0], "as_tensor")) {
      const Json* n = OptionalMember(*t, "name");
      if (n != nullptr && n->is_string()) return n->get<std::string>();
    }
  }
  return "";
}

// FX-style fallback name for nodes with several or no tensor outputs
// (e.g. executorch_call_delegate, executorch_call_delegate_1).
std::string GeneratedNodeName(const std::string& op_type,
                              std::set<std::string>& used) {
  std::string base = op_type;
  const auto dot = base.find('.');
  if (dot != std::string::npos)
    base = base.substr(0, dot) == "aten" ? base.substr(dot + 1) : base;
  for (char& c : base) {
    if (c == '.') c = '_';
  }
  if (base.empty()) base = "node";
  std::string name = base;
  for (int i = 1; used.count(name) > 0; ++i) {
    name = base + "_" + std::to_string(i);
  }
  used.insert(name);
  return name;
}

// Reads a metadata value that must be a string (torch writes only strings).
const std::string* MetadataString(const Json& metadata, const char* key,
                                  const std::string& path) {
  const Json* value = OptionalMember(metadata, key);
  if (value == nullptr) return nullptr;
  return &ExpectString(*value, MemberPath(path, key));
}

GraphNode ParseNode(const Json& node, const std::string& path,
                    OperatorGraph& graph) {
  ExpectObject(node, path);
  GraphNode out;
  out.target = ExpectString(RequiredMember(node, path, "target"),
                            MemberPath(path, "target"));
  out.op_type = ShortOpName(out.target);
  out.is_operator = out.op_type != "getitem" && out.op_type != "alloc";
  out.name = ExplicitNodeName(node, path);

  if (const Json* inputs = OptionalMember(node, "inputs")) {
    ExpectArray(*inputs, MemberPath(path, "inputs"));
    for (const Json& named : *inputs) {
      if (const Json* arg = OptionalMember(named, "arg")) {
        CollectTensorNames(*arg, out.inputs);
      }
    }
  }

  const Json* metadata = OptionalMember(node, "metadata");
  if (metadata == nullptr) return out;
  const std::string meta_path = MemberPath(path, "metadata");
  ExpectObject(*metadata, meta_path);

  if (const Json* handle = OptionalMember(*metadata, "debug_handle")) {
    const std::string handle_path = MemberPath(meta_path, "debug_handle");
    if (handle->is_string()) {
      auto parsed =
          ParseDebugHandleString(handle->get_ref<const std::string&>());
      if (!parsed.ok()) FailAt(handle_path, parsed.error().message);
      out.debug_handles = std::move(parsed.value());
    } else {
      // Not what torch writes, but unambiguous.
      out.debug_handles = ExpectHandles(*handle, handle_path);
    }
  }
  if (const std::string* trace =
          MetadataString(*metadata, "stack_trace", meta_path)) {
    out.stack_trace = *trace;
  }
  if (const std::string* stack =
          MetadataString(*metadata, "nn_module_stack", meta_path)) {
    auto frames = ParseModuleStackString(*stack);
    if (frames.ok()) {
      out.module_stack = std::move(frames.value());
    } else {
      graph.warnings.push_back(graph.entry + ": " +
                               MemberPath(meta_path, "nn_module_stack") + ": " +
                               frames.error().message + "; ignored");
    }
  }
  if (const std::string* stack =
          MetadataString(*metadata, "source_fn_stack", meta_path)) {
    auto fns = ParseSourceFnStackString(*stack);
    if (fns.ok()) {
      out.source_fn_stack = std::move(fns.value());
    } else {
      graph.warnings.push_back(graph.entry + ": " +
                               MemberPath(meta_path, "source_fn_stack") + ": " +
                               fns.error().message + "; ignored");
    }
  }
  return out;
}

}  // namespace

void IndexDebugHandles(OperatorGraph& graph) {
  graph.nodes_by_handle.clear();
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    const GraphNode& node = graph.nodes[i];
    if (!node.is_operator) continue;
    for (int64_t handle : node.debug_handles) {
      auto& indices = graph.nodes_by_handle[handle];
      if (indices.empty() || indices.back() != i) indices.push_back(i);
    }
  }
}

Result<OperatorGraph> ParseOperatorGraph(std::string_view json_text,
                                         const std::string& entry) {
  const std::string where = "entry '" + entry + "'";
  Json root;
  try {
    root = Json::parse(json_text.begin(), json_text.end());
  } catch (const Json::exception& e) {
    // parse_error, and out_of_range.406 for numbers such as 1e999.
    return InputError(where + ": malformed JSON: " +
                      etrecord_internal::CleanParseError(e.what()));
  }
  OperatorGraph graph;
  graph.entry = entry;
  try {
    ExpectObject(root, "");
    const Json& gm = RequiredMember(root, "", "graph_module");
    const Json& g = RequiredMember(gm, "graph_module", "graph");
    const std::string graph_path = "graph_module.graph";
    const Json& nodes = ExpectArray(RequiredMember(g, graph_path, "nodes"),
                                    MemberPath(graph_path, "nodes"));
    graph.inputs = ArgumentListNames(OptionalMember(g, "inputs"));
    graph.outputs = ArgumentListNames(OptionalMember(g, "outputs"));
    graph.nodes.reserve(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      graph.nodes.push_back(ParseNode(
          nodes[i], IndexPath(MemberPath(graph_path, "nodes"), i), graph));
    }
  } catch (const etrecord_internal::JsonFormatError& e) {
    return InputError(where + ": " + e.what());
  } catch (const Json::exception& e) {
    return InputError(where + ": " +
                      etrecord_internal::CleanParseError(e.what()));
  }

  // Names for nodes without one, unique among all names.
  std::set<std::string> used;
  for (const GraphNode& node : graph.nodes) {
    if (!node.name.empty()) used.insert(node.name);
  }
  for (const std::string& input : graph.inputs) used.insert(input);
  for (GraphNode& node : graph.nodes) {
    if (node.name.empty()) node.name = GeneratedNodeName(node.op_type, used);
  }
  IndexDebugHandles(graph);
  return graph;
}

}  // namespace etbench
