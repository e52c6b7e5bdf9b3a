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

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "etbench/inspector/etrecord_graph.h"
#include "etrecord/json_access.h"

namespace etbench {
namespace {

using etrecord_internal::ParseEntryJson;
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
void CollectTensorNames(const JsonValue& arg, std::vector<std::string>& out) {
  if (!arg.is_object()) return;
  auto add_name_of = [&out](const JsonValue& tensor) {
    if (tensor.Get("name").is_string()) out.push_back(*tensor.Get("name").String());
  };
  if (auto t = OptionalMember(arg, "as_tensor")) add_name_of(*t);
  if (auto ts = OptionalMember(arg, "as_tensors"); ts && ts->is_array()) {
    for (const JsonValue t : *ts) add_name_of(t);
  }
  if (auto ots = OptionalMember(arg, "as_optional_tensors"); ots && ots->is_array()) {
    for (const JsonValue ot : *ots) {
      if (auto t = OptionalMember(ot, "as_tensor")) add_name_of(*t);
    }
  }
  if (auto s = OptionalMember(arg, "as_sym_int")) {
    if (auto n = OptionalMember(*s, "as_name"); n && n->is_string()) out.push_back(*n->String());
  }
}

std::vector<std::string> ArgumentListNames(const std::optional<JsonValue>& list) {
  std::vector<std::string> names;
  if (!list || !list->is_array()) return names;
  for (const JsonValue arg : *list) CollectTensorNames(arg, names);
  return names;
}

// The node's FX name: the explicit "name" when present, else (as torch's
// deserializer does) the name of a single tensor output.
std::string ExplicitNodeName(const JsonValue& node, const std::string& path) {
  if (auto name = OptionalMember(node, "name")) {
    return ExpectString(*name, MemberPath(path, "name"));
  }
  auto outputs = OptionalMember(node, "outputs");
  if (outputs && outputs->is_array() && outputs->size() == 1) {
    if (auto t = OptionalMember((*outputs)[0], "as_tensor")) {
      if (t->Get("name").is_string()) return *t->Get("name").String();
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
std::optional<std::string> MetadataString(const JsonValue& metadata, const char* key,
                                          const std::string& path) {
  auto value = OptionalMember(metadata, key);
  if (!value) return std::nullopt;
  return ExpectString(*value, MemberPath(path, key));
}

GraphNode ParseNode(const JsonValue& node, const std::string& path,
                    OperatorGraph& graph) {
  ExpectObject(node, path);
  GraphNode out;
  out.target = ExpectString(RequiredMember(node, path, "target"),
                            MemberPath(path, "target"));
  out.op_type = ShortOpName(out.target);
  out.is_operator = out.op_type != "getitem" && out.op_type != "alloc";
  out.name = ExplicitNodeName(node, path);

  if (auto inputs = OptionalMember(node, "inputs")) {
    ExpectArray(*inputs, MemberPath(path, "inputs"));
    for (const JsonValue named : *inputs) {
      if (auto arg = OptionalMember(named, "arg")) {
        CollectTensorNames(*arg, out.inputs);
      }
    }
  }

  auto metadata = OptionalMember(node, "metadata");
  if (!metadata) return out;
  const std::string meta_path = MemberPath(path, "metadata");
  ExpectObject(*metadata, meta_path);

  if (auto handle = OptionalMember(*metadata, "debug_handle")) {
    const std::string handle_path = MemberPath(meta_path, "debug_handle");
    if (handle->is_string()) {
      auto parsed = ParseDebugHandleString(*handle->String());
      if (!parsed.ok()) FailAt(handle_path, parsed.error().message);
      out.debug_handles = std::move(parsed.value());
    } else {
      // Not what torch writes, but unambiguous.
      out.debug_handles = ExpectHandles(*handle, handle_path);
    }
  }
  if (auto trace = MetadataString(*metadata, "stack_trace", meta_path)) {
    out.stack_trace = *trace;
  }
  if (auto stack = MetadataString(*metadata, "nn_module_stack", meta_path)) {
    auto frames = ParseModuleStackString(*stack);
    if (frames.ok()) {
      out.module_stack = std::move(frames.value());
    } else {
      graph.warnings.push_back(graph.entry + ": " +
                               MemberPath(meta_path, "nn_module_stack") + ": " +
                               frames.error().message + "; ignored");
    }
  }
  if (auto stack = MetadataString(*metadata, "source_fn_stack", meta_path)) {
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
  auto doc = ParseEntryJson(json_text, where);
  if (!doc.ok()) return doc.error();
  const JsonValue root = doc->root();
  OperatorGraph graph;
  graph.entry = entry;
  try {
    ExpectObject(root, "");
    const JsonValue gm = RequiredMember(root, "", "graph_module");
    const JsonValue g = RequiredMember(gm, "graph_module", "graph");
    const std::string graph_path = "graph_module.graph";
    const JsonValue nodes = ExpectArray(RequiredMember(g, graph_path, "nodes"),
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
