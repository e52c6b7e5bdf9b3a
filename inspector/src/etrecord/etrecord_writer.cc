// EtrecordSpec -> ETRecord archive with ExecuTorch's entry names and JSON
// shapes. The program JSON mirrors torch.export's serialization as found in
// real ETRecords (every Argument lists all union fields, set one non-null;
// metadata values are strings in torch's order: stack_trace,
// nn_module_stack, source_fn_stack, then ExecuTorch's debug_handle).

#include "etbench/inspector/etrecord_writer.h"

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "etbench/base/atomic_file.h"
#include "etbench/inspector/etdump_writer.h"
#include "etbench/inspector/etrecord.h"
#include "etrecord/zip_archive.h"

namespace etbench {
namespace {

using OJson = nlohmann::ordered_json;

// Strings come from the caller (stack traces, names): invalid UTF-8 is
// replaced with U+FFFD rather than failing the dump.
std::string Dump(const OJson& json) {
  return json.dump(-1, ' ', false, OJson::error_handler_t::replace);
}

// torch.export's Argument union fields, in schema order.
constexpr const char* kArgumentFields[] = {
    "as_none",          "as_tensor",   "as_tensors",
    "as_int",           "as_ints",     "as_float",
    "as_floats",        "as_string",   "as_strings",
    "as_sym_int",       "as_sym_ints", "as_scalar_type",
    "as_memory_format", "as_layout",   "as_device",
    "as_bool",          "as_bools",    "as_sym_bool",
    "as_sym_bools",     "as_graph",    "as_optional_tensors",
    "as_custom_obj"};

// torch.export serde enums: ScalarType.FLOAT = 7, Layout.Strided = 7.
constexpr int kFloatDtype = 7;
constexpr int kStridedLayout = 7;

OJson TensorArgument(const std::string& name) {
  OJson arg = OJson::object();
  for (const char* field : kArgumentFields) arg[field] = nullptr;
  arg["as_tensor"] = OJson{{"name", name}};
  return arg;
}

OJson TensorMeta(const std::vector<int64_t>& sizes) {
  OJson size_list = OJson::array();
  OJson stride_list = OJson::array();
  std::vector<int64_t> strides(sizes.size(), 1);
  for (std::size_t i = sizes.size(); i-- > 1;) {
    strides[i - 1] = strides[i] * sizes[i];
  }
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    size_list.push_back(OJson{{"as_expr", nullptr}, {"as_int", sizes[i]}});
    stride_list.push_back(OJson{{"as_expr", nullptr}, {"as_int", strides[i]}});
  }
  OJson meta = OJson::object();
  meta["dtype"] = kFloatDtype;
  meta["sizes"] = size_list;
  meta["requires_grad"] = false;
  meta["device"] = OJson{{"type", "cpu"}, {"index", nullptr}};
  meta["strides"] = stride_list;
  meta["storage_offset"] = 0;
  meta["layout"] = kStridedLayout;
  return OJson{{"meta", meta}};
}

Result<OJson> NodeJson(const EtrecordNodeSpec& node, std::size_t index) {
  const std::string where =
      "node " + std::to_string(index) + " ('" + node.name + "')";
  OJson inputs = OJson::array();
  for (std::size_t i = 0; i < node.inputs.size(); ++i) {
    inputs.push_back(OJson{{"name", "arg" + std::to_string(i)},
                           {"arg", TensorArgument(node.inputs[i])}});
  }
  OJson metadata = OJson::object();
  if (!node.stack_trace.empty()) metadata["stack_trace"] = node.stack_trace;
  if (!node.module_stack.empty()) {
    auto text = FormatModuleStackString(node.module_stack);
    if (!text.ok()) return InputError(where + ": " + text.error().message);
    metadata["nn_module_stack"] = text.value();
  }
  if (!node.source_fn_stack.empty()) {
    auto text = FormatSourceFnStackString(node.source_fn_stack);
    if (!text.ok()) return InputError(where + ": " + text.error().message);
    metadata["source_fn_stack"] = text.value();
  }
  if (!node.debug_handles.empty()) {
    metadata["debug_handle"] = FormatDebugHandleString(node.debug_handles);
  }
  OJson out = OJson::object();
  out["target"] = node.target;
  out["inputs"] = inputs;
  out["outputs"] = OJson::array({TensorArgument(node.name)});
  out["metadata"] = metadata;
  return out;
}

Result<std::string> ProgramJson(const EtrecordSpec& spec) {
  std::set<std::string> names(spec.graph_inputs.begin(),
                              spec.graph_inputs.end());
  if (names.size() != spec.graph_inputs.size()) {
    return InputError("ETRecord spec: duplicate graph input names");
  }
  OJson nodes = OJson::array();
  OJson tensor_values = OJson::object();
  for (const std::string& input : spec.graph_inputs) {
    tensor_values[input] = TensorMeta({});
  }
  for (std::size_t i = 0; i < spec.nodes.size(); ++i) {
    const EtrecordNodeSpec& node = spec.nodes[i];
    if (node.name.empty() || !names.insert(node.name).second) {
      return InputError("ETRecord spec: node " + std::to_string(i) +
                        " has an empty or duplicate name '" + node.name + "'");
    }
    if (node.target.empty()) {
      return InputError("ETRecord spec: node " + std::to_string(i) + " ('" +
                        node.name + "') has no target");
    }
    auto json = NodeJson(node, i);
    if (!json.ok()) return InputError("ETRecord spec: " + json.error().message);
    nodes.push_back(std::move(json.value()));
    tensor_values[node.name] = TensorMeta(node.output_sizes);
  }

  OJson graph_inputs = OJson::array();
  OJson input_specs = OJson::array();
  for (const std::string& input : spec.graph_inputs) {
    graph_inputs.push_back(TensorArgument(input));
    input_specs.push_back(
        OJson{{"user_input", {{"arg", TensorArgument(input)}}},
              {"parameter", nullptr},
              {"buffer", nullptr}});
  }
  OJson graph_outputs = OJson::array();
  OJson output_specs = OJson::array();
  for (const std::string& output : spec.graph_outputs) {
    graph_outputs.push_back(TensorArgument(output));
    output_specs.push_back(
        OJson{{"user_output", {{"arg", TensorArgument(output)}}},
              {"loss_output", nullptr},
              {"buffer_mutation", nullptr},
              {"gradient_to_parameter", nullptr},
              {"gradient_to_user_input", nullptr}});
  }

  OJson graph = OJson::object();
  graph["inputs"] = graph_inputs;
  graph["outputs"] = graph_outputs;
  graph["nodes"] = nodes;
  graph["tensor_values"] = tensor_values;
  graph["sym_int_values"] = OJson::object();
  graph["sym_bool_values"] = OJson::object();
  graph["is_single_tensor_return"] = false;
  graph["constants"] = OJson::object();

  OJson graph_module = OJson::object();
  graph_module["graph"] = graph;
  graph_module["signature"] =
      OJson{{"input_specs", input_specs}, {"output_specs", output_specs}};
  graph_module["module_call_graph"] =
      OJson::array({OJson{{"fqn", ""}, {"signature", nullptr}}});

  OJson root = OJson::object();
  root["graph_module"] = graph_module;
  root["opset_version"] = OJson{{"aten", 10}};
  root["range_constraints"] = OJson::object();
  root["equality_constraints"] = OJson::array();
  root["schema_version"] = 1;
  root["example_inputs"] = nullptr;
  return Dump(root);
}

OJson HandlesJson(const std::vector<int64_t>& handles) {
  OJson list = OJson::array();
  for (int64_t h : handles) list.push_back(h);
  return list;
}

Result<std::string> DelegateMapJson(const EtrecordSpec& spec) {
  OJson per_instruction = OJson::object();
  for (const auto& [id, delegate] : spec.delegate_map) {
    OJson ids = OJson::object();
    for (const auto& [delegate_id, handles] : delegate.handles_by_id) {
      if (std::holds_alternative<std::monostate>(delegate_id)) {
        return InputError("ETRecord spec: delegate_map instruction " +
                          std::to_string(id) +
                          " has a delegate debug id that is unset");
      }
      // json.dumps turns int keys into strings, as here.
      ids[DelegateDebugIdToString(delegate_id)] = HandlesJson(handles);
    }
    per_instruction[std::to_string(id)] =
        OJson{{"name", delegate.backend_name}, {"delegate_map", ids}};
  }
  return Dump(OJson{{spec.method, per_instruction}});
}

std::string DebugHandleMapJson(const EtrecordSpec& spec) {
  OJson per_instruction = OJson::object();
  for (const auto& [id, handles] : spec.debug_handle_map) {
    per_instruction[std::to_string(id)] = HandlesJson(handles);
  }
  return Dump(OJson{{spec.method, per_instruction}});
}

}  // namespace

std::vector<ModuleFrame> ModuleFramesForPath(
    const std::string& dotted_path, const std::vector<std::string>& types) {
  std::vector<ModuleFrame> frames;
  if (dotted_path.empty()) return frames;
  std::size_t end = 0;
  while (end != std::string::npos) {
    end = dotted_path.find('.', end + (frames.empty() ? 0 : 1));
    const std::string path = dotted_path.substr(0, end);
    std::string key = "L__self___" + path;
    for (char& c : key) {
      if (c == '.') c = '_';
    }
    const std::size_t i = frames.size();
    frames.push_back(ModuleFrame{key, path, i < types.size() ? types[i] : ""});
  }
  return frames;
}

Result<std::vector<uint8_t>> SerializeEtrecord(const EtrecordSpec& spec) {
  if (spec.method.empty()) return InputError("ETRecord spec: empty method");
  auto program = ProgramJson(spec);
  if (!program.ok()) return program.error();
  auto delegate_map = DelegateMapJson(spec);
  if (!delegate_map.ok()) return delegate_map.error();
  const std::string program_entry =
      spec.method == "forward"
          ? std::string(kEtrecordEdgeProgramEntry)
          : std::string(kEtrecordEdgeProgramEntry) + "/" + spec.method;
  // Entry order as ETRecord.save writes them.
  return etrecord_internal::WriteZipToMemory({
      {kEtrecordMarkerEntry, ""},
      {program_entry, std::move(program.value())},
      {kEtrecordDebugHandleMapEntry, DebugHandleMapJson(spec)},
      {kEtrecordDelegateMapEntry, std::move(delegate_map.value())},
  });
}

Status WriteEtrecord(const EtrecordSpec& spec, const std::string& path) {
  auto bytes = SerializeEtrecord(spec);
  if (!bytes.ok()) {
    return Error{bytes.error().code, path + ": " + bytes.error().message};
  }
  return WriteFileAtomically(path, bytes.value());
}

}  // namespace etbench
