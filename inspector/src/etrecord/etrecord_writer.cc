// EtrecordSpec -> ETRecord archive with ExecuTorch's entry names and JSON
// shapes. The program JSON mirrors torch.export's serialization as found in
// real ETRecords (every Argument lists all union fields, set one non-null;
// metadata values are strings in torch's order: stack_trace,
// nn_module_stack, source_fn_stack, then ExecuTorch's debug_handle).

#include "etbench/inspector/etrecord_writer.h"

#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "etbench/base/atomic_file.h"
#include "etbench/base/json_writer.h"
#include "etbench/inspector/etdump_writer.h"
#include "etbench/inspector/etrecord.h"
#include "etrecord/zip_archive.h"

namespace etbench {
namespace {

// Every JSON entry is written on one line. Strings come from the caller
// (stack traces, names): invalid UTF-8 becomes U+FFFD rather than failing.

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

void WriteTensorArgument(JsonWriter& json, const std::string& name) {
  json.BeginObject();
  for (const char* field : kArgumentFields) {
    json.Key(field);
    if (std::string_view(field) == "as_tensor") {
      json.BeginObject().Key("name").String(name).EndObject();
    } else {
      json.Null();
    }
  }
  json.EndObject();
}

void WriteTensorMeta(JsonWriter& json, const std::vector<int64_t>& sizes) {
  std::vector<int64_t> strides(sizes.size(), 1);
  for (std::size_t i = sizes.size(); i-- > 1;) {
    strides[i - 1] = strides[i] * sizes[i];
  }
  auto sym_ints = [&](const char* key, const std::vector<int64_t>& values) {
    json.Key(key).BeginArray();
    for (int64_t v : values) {
      json.BeginObject().Key("as_expr").Null().Key("as_int").Int(v).EndObject();
    }
    json.EndArray();
  };
  json.BeginObject().Key("meta").BeginObject();
  json.Key("dtype").Int(kFloatDtype);
  sym_ints("sizes", sizes);
  json.Key("requires_grad").Bool(false);
  json.Key("device").BeginObject().Key("type").String("cpu").Key("index").Null().EndObject();
  sym_ints("strides", strides);
  json.Key("storage_offset").Int(0);
  json.Key("layout").Int(kStridedLayout);
  json.EndObject().EndObject();
}

Status WriteNode(JsonWriter& json, const EtrecordNodeSpec& node, std::size_t index) {
  const std::string where =
      "node " + std::to_string(index) + " ('" + node.name + "')";
  json.BeginObject();
  json.Key("target").String(node.target);
  json.Key("inputs").BeginArray();
  for (std::size_t i = 0; i < node.inputs.size(); ++i) {
    json.BeginObject().Key("name").String("arg" + std::to_string(i)).Key("arg");
    WriteTensorArgument(json, node.inputs[i]);
    json.EndObject();
  }
  json.EndArray();
  json.Key("outputs").BeginArray();
  WriteTensorArgument(json, node.name);
  json.EndArray();
  json.Key("metadata").BeginObject();
  if (!node.stack_trace.empty()) json.Key("stack_trace").String(node.stack_trace);
  if (!node.module_stack.empty()) {
    auto text = FormatModuleStackString(node.module_stack);
    if (!text.ok()) return InputError(where + ": " + text.error().message);
    json.Key("nn_module_stack").String(text.value());
  }
  if (!node.source_fn_stack.empty()) {
    auto text = FormatSourceFnStackString(node.source_fn_stack);
    if (!text.ok()) return InputError(where + ": " + text.error().message);
    json.Key("source_fn_stack").String(text.value());
  }
  if (!node.debug_handles.empty()) {
    json.Key("debug_handle").String(FormatDebugHandleString(node.debug_handles));
  }
  json.EndObject();
  json.EndObject();
  return Ok{};
}

Result<std::string> ProgramJson(const EtrecordSpec& spec) {
  std::set<std::string> names(spec.graph_inputs.begin(),
                              spec.graph_inputs.end());
  if (names.size() != spec.graph_inputs.size()) {
    return InputError("ETRecord spec: duplicate graph input names");
  }
  JsonWriter json;
  json.BeginObject().Key("graph_module").BeginObject().Key("graph").BeginObject();
  json.Key("inputs").BeginArray();
  for (const std::string& input : spec.graph_inputs) WriteTensorArgument(json, input);
  json.EndArray();
  json.Key("outputs").BeginArray();
  for (const std::string& output : spec.graph_outputs) WriteTensorArgument(json, output);
  json.EndArray();
  json.Key("nodes").BeginArray();
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
    Status written = WriteNode(json, node, i);
    if (!written.ok()) return InputError("ETRecord spec: " + written.error().message);
  }
  json.EndArray();
  // Names are unique (checked above): one member each.
  json.Key("tensor_values").BeginObject();
  for (const std::string& input : spec.graph_inputs) {
    json.Key(input);
    WriteTensorMeta(json, {});
  }
  for (const EtrecordNodeSpec& node : spec.nodes) {
    json.Key(node.name);
    WriteTensorMeta(json, node.output_sizes);
  }
  json.EndObject();
  json.Key("sym_int_values").BeginObject().EndObject();
  json.Key("sym_bool_values").BeginObject().EndObject();
  json.Key("is_single_tensor_return").Bool(false);
  json.Key("constants").BeginObject().EndObject();
  json.EndObject();  // graph

  json.Key("signature").BeginObject();
  json.Key("input_specs").BeginArray();
  for (const std::string& input : spec.graph_inputs) {
    json.BeginObject().Key("user_input").BeginObject().Key("arg");
    WriteTensorArgument(json, input);
    json.EndObject();
    json.Key("parameter").Null().Key("buffer").Null();
    json.EndObject();
  }
  json.EndArray();
  json.Key("output_specs").BeginArray();
  for (const std::string& output : spec.graph_outputs) {
    json.BeginObject().Key("user_output").BeginObject().Key("arg");
    WriteTensorArgument(json, output);
    json.EndObject();
    for (const char* key : {"loss_output", "buffer_mutation", "gradient_to_parameter",
                            "gradient_to_user_input"}) {
      json.Key(key).Null();
    }
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();  // signature
  json.Key("module_call_graph").BeginArray();
  json.BeginObject().Key("fqn").String("").Key("signature").Null().EndObject();
  json.EndArray();
  json.EndObject();  // graph_module

  json.Key("opset_version").BeginObject().Key("aten").Int(10).EndObject();
  json.Key("range_constraints").BeginObject().EndObject();
  json.Key("equality_constraints").BeginArray().EndArray();
  json.Key("schema_version").Int(1);
  json.Key("example_inputs").Null();
  json.EndObject();
  return json.Take();
}

Result<std::string> DelegateMapJson(const EtrecordSpec& spec) {
  for (const auto& [id, delegate] : spec.delegate_map) {
    for (const auto& [delegate_id, handles] : delegate.handles_by_id) {
      if (std::holds_alternative<std::monostate>(delegate_id)) {
        return InputError("ETRecord spec: delegate_map instruction " +
                          std::to_string(id) +
                          " has a delegate debug id that is unset");
      }
    }
  }
  JsonWriter json;
  json.BeginObject().Key(spec.method).BeginObject();
  for (const auto& [id, delegate] : spec.delegate_map) {
    json.Key(std::to_string(id)).BeginObject();
    json.Key("name").String(delegate.backend_name);
    // json.dumps turns int keys into strings, as here; an id given twice
    // (or as 5 and "5") is one member, with the handles given last.
    std::vector<std::string> ids;
    for (const auto& entry : delegate.handles_by_id) {
      ids.push_back(DelegateDebugIdToString(entry.first));
    }
    json.Key("delegate_map").BeginObject();
    for (std::size_t i : UniqueKeyMembers(ids)) {
      json.Key(ids[i]).IntArray(delegate.handles_by_id[i].second);
    }
    json.EndObject();
    json.EndObject();
  }
  json.EndObject().EndObject();
  return json.Take();
}

std::string DebugHandleMapJson(const EtrecordSpec& spec) {
  JsonWriter json;
  json.BeginObject().Key(spec.method).BeginObject();
  for (const auto& [id, handles] : spec.debug_handle_map) {
    json.Key(std::to_string(id)).IntArray(handles);
  }
  json.EndObject().EndObject();
  return json.Take();
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
