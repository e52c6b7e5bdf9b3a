// Model + the runtime's lowering -> EtrecordSpec (see model_etrecord.h for
// what the program and the maps hold).

#include "etbench/runtime/model_etrecord.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <utility>

#include "etbench/inspector/etrecord_graph.h"
#include "exec/program.h"
#include "exec/reference_delegate.h"

namespace etbench::runtime {
namespace {

constexpr char kGenericModuleType[] = "torch.nn.modules.module.Module";

// The callable PyTorch records in source_fn_stack for an op without a
// torch.nn class.
const char* FunctionalTarget(OpType op) {
  switch (op) {
    case OpType::kMatmul:
      return "torch.matmul";
    case OpType::kAdd:
      return "_operator.add";
    case OpType::kMul:
      return "_operator.mul";
    case OpType::kPermute:
      return "torch.permute";
    case OpType::kReshape:
      return "torch.reshape";
    default:
      return "";
  }
}

// Edge-dialect op of a portable kernel: "convolution.out" ->
// "aten.convolution.default"; the binary ops keep their Tensor overload
// ("aten.add.Tensor"), as edge programs show them.
std::string EdgeOpOf(KernelOp op) {
  const std::string kernel = KernelOpName(op);
  const std::string base = kernel.substr(0, kernel.find('.'));
  const bool tensor_overload = op == KernelOp::kAdd || op == KernelOp::kMul;
  return "aten." + base + (tensor_overload ? ".Tensor" : ".default");
}

// Python traceback frame of the node's YAML line, as torch.export records
// the line of model code an op came from.
std::string StackTraceOf(const Model& model, const Node& node) {
  if (node.location.line <= 0) return "";
  std::string trace = "  File \"" + model.source_path + "\", line " +
                      std::to_string(node.location.line) + ", in " + node.name +
                      "\n";
  if (!node.source_line.empty()) trace += "    " + node.source_line + "\n";
  return trace;
}

std::vector<SourceFn> SourceFnStackOf(const Node& node) {
  std::string target = OpModuleClass(node.op);
  if (target.empty()) target = FunctionalTarget(node.op);
  // The stack's encoding has no escapes; leave it out rather than fail.
  if (target.empty() || node.name.empty() ||
      node.name.find_first_of(",;") != std::string::npos) {
    return {};
  }
  return {SourceFn{node.name, target}};
}

// Type of every module of the model (each prefix of each node's module
// path), by the rules of ModuleTypeOf.
std::map<std::string, std::string> ModuleTypes(const Model& model) {
  std::map<std::string, std::string> declared = model.module_types;
  // Per module: the torch.nn class of its nodes' ops, "" when they disagree.
  std::map<std::string, std::string> derived;
  for (const Node& node : model.nodes) {
    if (node.module.empty()) continue;
    if (!node.module_type.empty()) {
      declared.emplace(node.module, node.module_type);
    }
    const std::string type = OpModuleClass(node.op);
    const auto [it, inserted] = derived.emplace(node.module, type);
    if (!inserted && it->second != type) it->second.clear();
  }
  std::map<std::string, std::string> types;
  for (const Node& node : model.nodes) {
    const std::string& path = node.module;
    if (path.empty()) continue;
    for (std::size_t end = path.find('.');; end = path.find('.', end + 1)) {
      const std::string prefix = path.substr(0, end);
      if (types.count(prefix) == 0) {
        std::string type = kGenericModuleType;
        if (auto d = declared.find(prefix); d != declared.end()) {
          type = d->second;
        } else if (auto o = derived.find(prefix);
                   o != derived.end() && !o->second.empty()) {
          type = o->second;
        }
        types.emplace(prefix, std::move(type));
      }
      if (end == std::string::npos) break;
    }
  }
  return types;
}

std::vector<ModuleFrame> FramesOf(
    const Node& node, const std::map<std::string, std::string>& types) {
  const std::string& path = node.module;
  if (path.empty()) return {};
  std::vector<std::string> frame_types;
  for (std::size_t end = path.find('.');; end = path.find('.', end + 1)) {
    frame_types.push_back(types.at(path.substr(0, end)));
    if (end == std::string::npos) break;
  }
  return ModuleFramesForPath(path, frame_types);
}

class SpecBuilder {
 public:
  explicit SpecBuilder(const Model& model)
      : model_(model),
        program_(LowerModel(model, {})),
        module_types_(ModuleTypes(model)) {}

  EtrecordSpec Build();

 private:
  void AddGraphNodes(std::size_t index);
  void AddDelegateCallNode(std::size_t partition);
  void AddEdgeNode(std::size_t index, const std::string& name,
                   const std::string& op_type, std::vector<std::string> inputs,
                   std::vector<int64_t> sizes);
  // `base`, or base_1, base_2, ... when a tensor already has that name.
  std::string UniqueName(const std::string& base);
  void MapInstructions();

  const Model& model_;
  const Program program_;
  const std::map<std::string, std::string> module_types_;
  EtrecordSpec spec_;
  std::set<std::string> names_;
  // Per model node: its edge nodes' handles, in order.
  std::vector<std::vector<int64_t>> handles_;
  // Per partition: the handle of its executorch_call_delegate node.
  std::vector<int64_t> call_handles_;
  int64_t next_handle_ = 1;
};

EtrecordSpec SpecBuilder::Build() {
  for (const TensorSpec& input : model_.inputs) {
    spec_.graph_inputs.push_back(input.name);
    names_.insert(input.name);
  }
  for (const Node& node : model_.nodes) names_.insert(node.name);
  spec_.graph_outputs = model_.outputs;
  handles_.resize(model_.nodes.size());
  for (std::size_t i = 0; i < model_.nodes.size(); ++i) {
    AddGraphNodes(i);
    for (std::size_t p = 0; p < program_.partitions.size(); ++p) {
      if (static_cast<std::size_t>(program_.partitions[p].nodes.back()) == i) {
        AddDelegateCallNode(p);
      }
    }
  }
  MapInstructions();
  return std::move(spec_);
}

void SpecBuilder::AddGraphNodes(std::size_t index) {
  const Node& node = model_.nodes[index];
  const NodeLowering& lowering = program_.lowering[index];
  if (lowering.calls.empty()) {  // a view: no instruction
    AddEdgeNode(index, node.name, "aten.view_copy.default", node.inputs,
                node.output_shape);
    return;
  }
  if (!node.delegate.empty()) {
    const std::string op = node.op == OpType::kLinear
                               ? "aten.linear.default"
                               : EdgeOpOf(lowering.calls.front().op);
    AddEdgeNode(index, node.name, op, node.inputs, node.output_shape);
    return;
  }
  // One edge node per kernel call; the last one produces the node's value
  // and carries its name.
  std::string previous;
  for (std::size_t k = 0; k < lowering.calls.size(); ++k) {
    const KernelCall& call = lowering.calls[k];
    const std::string op = EdgeOpOf(call.op);
    const bool last = k + 1 == lowering.calls.size();
    const std::string name =
        last ? node.name
             : UniqueName(node.name + "_" + op.substr(5, op.rfind('.') - 5));
    std::vector<std::string> inputs;
    if (node.op == OpType::kLinear) {
      // permute_copy reads the weight (a parameter); addmm reads x and it.
      if (last) inputs = {node.inputs[0], previous};
    } else {
      inputs = node.inputs;
    }
    AddEdgeNode(index, name, op, std::move(inputs), call.out_shape);
    previous = name;
  }
}

void SpecBuilder::AddEdgeNode(std::size_t index, const std::string& name,
                              const std::string& op_type,
                              std::vector<std::string> inputs,
                              std::vector<int64_t> sizes) {
  const Node& node = model_.nodes[index];
  EtrecordNodeSpec edge;
  edge.name = name;
  edge.target = EdgeDialectTarget(op_type);
  edge.debug_handles = {next_handle_};
  edge.stack_trace = StackTraceOf(model_, node);
  edge.module_stack = FramesOf(node, module_types_);
  edge.source_fn_stack = SourceFnStackOf(node);
  edge.inputs = std::move(inputs);
  edge.output_sizes = std::move(sizes);
  spec_.nodes.push_back(std::move(edge));
  handles_[index].push_back(next_handle_++);
}

void SpecBuilder::AddDelegateCallNode(std::size_t partition) {
  // What to_backend leaves in the program: one call of the lowered module,
  // with a handle of its own and no module or source information.
  const std::vector<int>& nodes = program_.partitions[partition].nodes;
  std::set<std::string> inside;
  EtrecordNodeSpec call;
  call.name = UniqueName("executorch_call_delegate");
  call.target = "torch.ops.higher_order.executorch_call_delegate";
  call.debug_handles = {next_handle_};
  for (int index : nodes) {
    const Node& node = model_.nodes[index];
    for (const std::string& input : node.inputs) {
      if (inside.count(input) == 0 &&
          std::find(call.inputs.begin(), call.inputs.end(), input) ==
              call.inputs.end()) {
        call.inputs.push_back(input);
      }
    }
    inside.insert(node.name);
  }
  spec_.nodes.push_back(std::move(call));
  call_handles_.resize(program_.partitions.size(), 0);
  call_handles_[partition] = next_handle_++;
}

std::string SpecBuilder::UniqueName(const std::string& base) {
  std::string name = base;
  for (int suffix = 1; names_.count(name) != 0; ++suffix) {
    name = base + "_" + std::to_string(suffix);
  }
  names_.insert(name);
  return name;
}

void SpecBuilder::MapInstructions() {
  // Kernel instructions of a node are its lowering calls, in order.
  std::vector<std::size_t> calls_seen(model_.nodes.size(), 0);
  for (std::size_t id = 0; id < program_.instructions.size(); ++id) {
    const Instruction& instruction = program_.instructions[id];
    const auto instruction_id = static_cast<int32_t>(id);
    if (instruction.kind == Instruction::Kind::kKernel) {
      const auto node = static_cast<std::size_t>(instruction.node);
      spec_.debug_handle_map[instruction_id] = {
          handles_[node][calls_seen[node]++]};
      continue;
    }
    const Partition& partition = program_.partitions[instruction.partition];
    spec_.debug_handle_map[instruction_id] = {
        call_handles_[static_cast<std::size_t>(instruction.partition)]};
    // The same compilation the runtime runs, hence the same ops and ids.
    const ReferenceDelegate delegate(program_, partition);
    EtrecordDelegateSpec entry;
    entry.backend_name = delegate.spec().backend;
    for (const ReferenceDelegate::Op& op : delegate.ops()) {
      DelegateDebugId debug_id;
      if (delegate.spec().debug_ids == DelegateDebugIdKind::kInt) {
        debug_id = op.debug_id_int;
      } else {
        debug_id = op.debug_id_str;
      }
      std::vector<int64_t> handles;
      for (const std::string& name : op.nodes) {
        const std::vector<int64_t>& node_handles =
            handles_[static_cast<std::size_t>(FindNode(model_, name))];
        handles.insert(handles.end(), node_handles.begin(), node_handles.end());
      }
      entry.handles_by_id.emplace_back(std::move(debug_id), std::move(handles));
    }
    spec_.delegate_map[instruction_id] = std::move(entry);
  }
}

}  // namespace

std::string OpModuleClass(OpType op) {
  switch (op) {
    case OpType::kConv2d:
      return "torch.nn.modules.conv.Conv2d";
    case OpType::kLinear:
      return "torch.nn.modules.linear.Linear";
    case OpType::kRelu:
      return "torch.nn.modules.activation.ReLU";
    case OpType::kRelu6:
      return "torch.nn.modules.activation.ReLU6";
    case OpType::kGelu:
      return "torch.nn.modules.activation.GELU";
    case OpType::kMaxPool2d:
      return "torch.nn.modules.pooling.MaxPool2d";
    case OpType::kAvgPool2d:
      return "torch.nn.modules.pooling.AvgPool2d";
    case OpType::kSoftmax:
      return "torch.nn.modules.activation.Softmax";
    case OpType::kLayerNorm:
      return "torch.nn.modules.normalization.LayerNorm";
    case OpType::kFlatten:
      return "torch.nn.modules.flatten.Flatten";
    case OpType::kMatmul:
    case OpType::kAdd:
    case OpType::kMul:
    case OpType::kPermute:
    case OpType::kReshape:
      return "";
  }
  return "";
}

std::string ModuleTypeOf(const Model& model, const std::string& path) {
  const std::map<std::string, std::string> types = ModuleTypes(model);
  const auto it = types.find(path);
  return it == types.end() ? kGenericModuleType : it->second;
}

std::vector<ModuleFrame> NodeModuleFrames(const Model& model,
                                          std::size_t index) {
  return FramesOf(model.nodes.at(index), ModuleTypes(model));
}

Result<EtrecordSpec> BuildModelEtrecord(const Model& model) {
  if (model.nodes.empty()) {
    return InputError("model '" + model.name + "' has no nodes");
  }
  return SpecBuilder(model).Build();
}

Status WriteModelEtrecord(const Model& model, const std::string& path) {
  auto spec = BuildModelEtrecord(model);
  if (!spec) {
    return Error{spec.error().code, path + ": " + spec.error().message};
  }
  return WriteEtrecord(*spec, path);
}

}  // namespace etbench::runtime
