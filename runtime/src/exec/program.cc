#include "exec/program.h"

#include <cmath>
#include <map>

#include "model/op_schema.h"

namespace etbench::runtime {
namespace {

int64_t Product(const std::vector<int64_t>& shape, std::size_t begin,
                std::size_t end) {
  int64_t product = 1;
  for (std::size_t i = begin; i < end; ++i) product *= shape[i];
  return product;
}

class Lowerer {
 public:
  explicit Lowerer(Program* program) : p_(*program) {}

  void Lower();

 private:
  int AddValue(std::string name, std::vector<int64_t> shape, ValueKind kind) {
    Value value;
    value.name = std::move(name);
    value.shape = std::move(shape);
    value.kind = kind;
    p_.values.push_back(std::move(value));
    return static_cast<int>(p_.values.size()) - 1;
  }
  int AddWeight(const std::string& name, std::vector<int64_t> shape,
                float offset, float bound) {
    const int id = AddValue(name, std::move(shape), ValueKind::kWeight);
    p_.values[id].init_offset = offset;
    p_.values[id].init_bound = bound;
    return id;
  }
  int In(const Node& node, std::size_t i) { return value_of_.at(node.inputs[i]); }
  // By value: adding values reallocates the table.
  std::vector<int64_t> InShape(const Node& node, std::size_t i) {
    return p_.values[In(node, i)].shape;
  }

  NodeLowering LowerNode(const Node& node);
  void LowerConv(const Node& node, NodeLowering* out);
  void LowerLinear(const Node& node, NodeLowering* out);
  void BuildInstructions();

  Program& p_;
  std::map<std::string, int> value_of_;
};

void Lowerer::Lower() {
  for (const TensorSpec& input : p_.model.inputs) {
    const int id = AddValue(input.name, input.shape, ValueKind::kInput);
    value_of_[input.name] = id;
    p_.input_values.push_back(id);
  }
  for (const Node& node : p_.model.nodes) {
    p_.lowering.push_back(LowerNode(node));
    value_of_[node.name] = p_.lowering.back().output;
  }
  p_.use_count.assign(p_.values.size(), 0);
  for (const Node& node : p_.model.nodes) {
    for (const std::string& input : node.inputs) ++p_.use_count[value_of_[input]];
  }
  for (const std::string& output : p_.model.outputs) {
    p_.output_values.push_back(value_of_[output]);
    ++p_.use_count[value_of_[output]];
  }
  BuildInstructions();
}

NodeLowering Lowerer::LowerNode(const Node& node) {
  NodeLowering result;
  const std::vector<int64_t>& shape = node.output_shape;
  if (node.op == OpType::kReshape || node.op == OpType::kFlatten) {
    // Views cost nothing and lower to no instruction (ExecuTorch's memory
    // planning turns them into aliases, as in the tutorial model's ETDump).
    int source = In(node, 0);
    while (p_.values[source].kind == ValueKind::kView) {
      source = p_.values[source].alias_of;
    }
    result.output = AddValue(node.name, shape, ValueKind::kView);
    p_.values[result.output].alias_of = source;
    return result;
  }
  if (node.op == OpType::kConv2d) {
    LowerConv(node, &result);
    return result;
  }
  if (node.op == OpType::kLinear) {
    LowerLinear(node, &result);
    return result;
  }
  result.output = AddValue(node.name, shape, ValueKind::kActivation);
  KernelCall call;
  call.output = result.output;
  call.out_shape = shape;
  call.n = kernels::NumElements(shape);
  call.inputs = {In(node, 0)};
  const OpAttributes& a = node.attrs;
  switch (node.op) {
    case OpType::kMatmul: {
      const auto& x = InShape(node, 0);
      const auto& y = InShape(node, 1);
      call.op = x.size() == 3 ? KernelOp::kBmm : KernelOp::kMm;
      call.inputs.push_back(In(node, 1));
      call.batch = x.size() == 3 ? x[0] : 1;
      call.m = x[x.size() - 2];
      call.k = x.back();
      call.n = y.back();
      break;
    }
    case OpType::kRelu:
      call.op = KernelOp::kRelu;
      break;
    case OpType::kRelu6:
      call.op = KernelOp::kHardtanh;
      call.min_value = 0.0f;
      call.max_value = 6.0f;
      break;
    case OpType::kGelu:
      call.op = KernelOp::kGelu;
      call.gelu = a.approximate == "tanh" ? kernels::GeluApproximation::kTanh
                                          : kernels::GeluApproximation::kNone;
      break;
    case OpType::kMaxPool2d:
    case OpType::kAvgPool2d: {
      call.op = node.op == OpType::kMaxPool2d ? KernelOp::kMaxPool2dWithIndices
                                              : KernelOp::kAvgPool2d;
      const auto& x = InShape(node, 0);
      call.pool.batch = x[0];
      call.pool.channels = x[1];
      SetWindow(a, x, &call.pool);
      break;
    }
    case OpType::kAdd:
    case OpType::kMul:
      call.op = node.op == OpType::kAdd ? KernelOp::kAdd : KernelOp::kMul;
      call.a_shape = InShape(node, 0);
      if (a.scalar.has_value()) {
        call.has_scalar = true;
        call.scalar = static_cast<float>(*a.scalar);
      } else {
        call.inputs.push_back(In(node, 1));
        call.b_shape = InShape(node, 1);
      }
      break;
    case OpType::kSoftmax: {
      call.op = KernelOp::kSoftmax;
      const auto rank = static_cast<int64_t>(shape.size());
      const auto dim = static_cast<std::size_t>(a.dim < 0 ? a.dim + rank : a.dim);
      call.m = Product(shape, 0, dim);
      call.k = shape[dim];
      call.inner = Product(shape, dim + 1, shape.size());
      break;
    }
    case OpType::kLayerNorm: {
      call.op = KernelOp::kNativeLayerNorm;
      call.k = shape.back();
      call.m = kernels::NumElements(shape) / call.k;
      call.eps = static_cast<float>(a.eps);
      call.inputs.push_back(
          AddWeight(node.name + ".weight", {call.k}, 1.0f, 0.1f));
      call.inputs.push_back(
          AddWeight(node.name + ".bias", {call.k}, 0.0f, 0.1f));
      break;
    }
    case OpType::kPermute: {
      call.op = KernelOp::kPermuteCopy;
      call.a_shape = InShape(node, 0);
      const auto rank = static_cast<int64_t>(call.a_shape.size());
      for (int64_t d : a.dims) call.dims.push_back(d < 0 ? d + rank : d);
      break;
    }
    default:
      break;  // conv2d, linear, views: handled above
  }
  result.calls.push_back(std::move(call));
  return result;
}

void Lowerer::LowerConv(const Node& node, NodeLowering* out) {
  const OpAttributes& a = node.attrs;
  const auto& x = InShape(node, 0);
  KernelCall call;
  call.op = KernelOp::kConvolution;
  call.conv.batch = x[0];
  call.conv.in_channels = x[1];
  call.conv.out_channels = a.out_channels;
  call.conv.groups = a.groups;
  SetWindow(a, x, &call.conv);
  const int64_t fan_in = x[1] / a.groups * a.kernel_h * a.kernel_w;
  const float bound = 1.0f / std::sqrt(static_cast<float>(fan_in));
  const int weight =
      AddWeight(node.name + ".weight",
                {a.out_channels, x[1] / a.groups, a.kernel_h, a.kernel_w}, 0.0f,
                bound);
  call.inputs = {In(node, 0), weight};
  if (a.bias) {
    call.inputs.push_back(
        AddWeight(node.name + ".bias", {a.out_channels}, 0.0f, bound));
  }
  out->output = AddValue(node.name, node.output_shape, ValueKind::kActivation);
  call.output = out->output;
  call.out_shape = node.output_shape;
  out->calls.push_back(std::move(call));
}

void Lowerer::LowerLinear(const Node& node, NodeLowering* out) {
  // linear(x, W, b) = addmm(b, x, permute_copy(W, [1, 0])), as ExecuTorch
  // lowers it; a delegate transposes W once at init instead.
  const OpAttributes& a = node.attrs;
  const auto& x = InShape(node, 0);
  const int64_t k = x.back();
  const int64_t n = a.out_features;
  const float bound = 1.0f / std::sqrt(static_cast<float>(k));
  const int weight = AddWeight(node.name + ".weight", {n, k}, 0.0f, bound);
  const bool delegated = !node.delegate.empty();
  const int transposed =
      AddValue(node.name + ".weight_t", {k, n},
               delegated ? ValueKind::kPackedWeight : ValueKind::kActivation);
  KernelCall permute;
  permute.op = KernelOp::kPermuteCopy;
  permute.inputs = {weight};
  permute.output = transposed;
  permute.a_shape = {n, k};
  permute.dims = {1, 0};
  permute.out_shape = {k, n};
  permute.n = n * k;

  out->output = AddValue(node.name, node.output_shape, ValueKind::kActivation);
  KernelCall mm;
  mm.m = kernels::NumElements(x) / k;
  mm.k = k;
  mm.n = n;
  mm.output = out->output;
  mm.out_shape = node.output_shape;
  if (a.bias) {
    mm.op = KernelOp::kAddmm;
    mm.inputs = {AddWeight(node.name + ".bias", {n}, 0.0f, bound), In(node, 0),
                 transposed};
  } else {
    mm.op = KernelOp::kMm;
    mm.inputs = {In(node, 0), transposed};
  }
  if (delegated) {
    out->init_calls.push_back(std::move(permute));
  } else {
    out->calls.push_back(std::move(permute));
  }
  out->calls.push_back(std::move(mm));
}

void Lowerer::BuildInstructions() {
  const Model& model = p_.model;
  std::map<std::string, int> partition_of;  // delegate name -> partition
  for (std::size_t i = 0; i < model.nodes.size(); ++i) {
    const Node& node = model.nodes[i];
    if (!node.delegate.empty()) {
      auto it = partition_of.find(node.delegate);
      if (it != partition_of.end()) {
        p_.partitions[it->second].nodes.push_back(static_cast<int>(i));
        continue;
      }
      Partition partition;
      for (std::size_t d = 0; d < model.delegates.size(); ++d) {
        if (model.delegates[d].name == node.delegate) {
          partition.delegate = static_cast<int>(d);
        }
      }
      partition.nodes.push_back(static_cast<int>(i));
      partition.instruction = static_cast<int>(p_.instructions.size());
      partition_of[node.delegate] = static_cast<int>(p_.partitions.size());
      p_.partitions.push_back(partition);
      Instruction instruction;
      instruction.kind = Instruction::Kind::kDelegate;
      instruction.event_name = "DELEGATE_CALL";
      instruction.partition = partition_of[node.delegate];
      instruction.node = static_cast<int>(i);
      p_.instructions.push_back(std::move(instruction));
      continue;
    }
    for (const KernelCall& call : p_.lowering[i].calls) {
      Instruction instruction;
      instruction.kind = Instruction::Kind::kKernel;
      instruction.event_name = std::string("native_call_") + KernelOpName(call.op);
      instruction.call = call;
      instruction.node = static_cast<int>(i);
      instruction.outputs = {call.output};
      instruction.slowdown =
          SlowdownFactor(model.slowdowns, node, KernelOpName(call.op));
      p_.instructions.push_back(std::move(instruction));
    }
  }
  // A partition's outputs: results read after it (by later nodes or as
  // model outputs).
  for (Partition& partition : p_.partitions) {
    Instruction& instruction = p_.instructions[partition.instruction];
    for (int n : partition.nodes) {
      const Node& node = model.nodes[n];
      bool used_outside = false;
      for (const std::string& output : model.outputs) {
        used_outside |= output == node.name;
      }
      for (std::size_t j = partition.nodes.back() + 1; j < model.nodes.size();
           ++j) {
        for (const std::string& input : model.nodes[j].inputs) {
          used_outside |= input == node.name;
        }
      }
      if (used_outside) instruction.outputs.push_back(p_.lowering[n].output);
    }
  }
}

}  // namespace

double SlowdownFactor(const std::vector<Slowdown>& slowdowns, const Node& node,
                      const char* kernel_name) {
  double factor = 1.0;
  for (const Slowdown& slowdown : slowdowns) {
    bool matches = false;
    if (kernel_name == nullptr) {
      matches = SlowdownMatchesNode(slowdown.target, node);
    } else {
      const std::string kernel = kernel_name;
      const std::string base = kernel.substr(0, kernel.find('.'));
      matches = slowdown.target == node.name ||
                slowdown.target == OpTypeName(node.op) ||
                slowdown.target == kernel || slowdown.target == base ||
                slowdown.target == "native_call_" + kernel;
    }
    if (matches) factor *= slowdown.factor;
  }
  return factor;
}

Program LowerModel(const Model& model, const std::vector<Slowdown>& slowdowns) {
  Program program;
  program.model = model;
  program.model.slowdowns.insert(program.model.slowdowns.end(),
                                 slowdowns.begin(), slowdowns.end());
  Lowerer(&program).Lower();
  return program;
}

}  // namespace etbench::runtime
