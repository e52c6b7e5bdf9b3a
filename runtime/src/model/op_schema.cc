#include "model/op_schema.h"

#include <algorithm>
#include <sstream>

#include "etbench/runtime/kernels.h"

namespace etbench::runtime {
namespace {

using ShapeList = std::vector<std::vector<int64_t>>;

const std::vector<OpSchema>& AllSchemas() {
  static const std::vector<OpSchema> schemas = {
      {OpType::kConv2d, "conv2d", 1, 1,
       {"in_channels", "out_channels", "kernel_size", "stride", "padding",
        "groups", "bias"},
       {"out_channels", "kernel_size"}},
      {OpType::kLinear, "linear", 1, 1,
       {"in_features", "out_features", "bias"}, {"out_features"}},
      {OpType::kMatmul, "matmul", 2, 2, {}, {}},
      {OpType::kRelu, "relu", 1, 1, {}, {}},
      {OpType::kRelu6, "relu6", 1, 1, {}, {}},
      {OpType::kGelu, "gelu", 1, 1, {"approximate"}, {}},
      {OpType::kMaxPool2d, "max_pool2d", 1, 1,
       {"kernel_size", "stride", "padding"}, {"kernel_size"}},
      {OpType::kAvgPool2d, "avg_pool2d", 1, 1,
       {"kernel_size", "stride", "padding"}, {"kernel_size"}},
      {OpType::kAdd, "add", 1, 2, {"scalar"}, {}},
      {OpType::kMul, "mul", 1, 2, {"scalar"}, {}},
      {OpType::kSoftmax, "softmax", 1, 1, {"dim"}, {}},
      {OpType::kLayerNorm, "layer_norm", 1, 1, {"eps"}, {}},
      {OpType::kPermute, "permute", 1, 1, {"dims"}, {"dims"}},
      {OpType::kReshape, "reshape", 1, 1, {"sizes"}, {"sizes"}},
      {OpType::kFlatten, "flatten", 1, 1, {"start_dim", "end_dim"}, {}},
  };
  return schemas;
}

std::string Str(int64_t v) { return std::to_string(v); }

// Normalizes a possibly negative dimension; false when out of range.
bool NormalizeDim(int64_t dim, int64_t rank, int64_t* out) {
  if (dim < -rank || dim >= rank) return false;
  *out = dim < 0 ? dim + rank : dim;
  return true;
}

bool Fail(std::string* error, std::string message) {
  *error = std::move(message);
  return false;
}

// The kernel must fit in the padded H×W of the [N, C, H, W] input `x`.
bool WindowFits(const OpAttributes& a, const std::vector<int64_t>& x, std::string* error) {
  if (x[2] + 2 * a.pad_h >= a.kernel_h && x[3] + 2 * a.pad_w >= a.kernel_w) return true;
  return Fail(error, "kernel " + Str(a.kernel_h) + "x" + Str(a.kernel_w) +
                         " is larger than the padded input " + Str(x[2] + 2 * a.pad_h) + "x" +
                         Str(x[3] + 2 * a.pad_w));
}

bool InferConv2d(const Node& node, const ShapeList& in,
                 std::vector<int64_t>* out, std::string* error) {
  const OpAttributes& a = node.attrs;
  const auto& x = in[0];
  if (x.size() != 4) {
    return Fail(error, "input '" + node.inputs[0] + "' has shape " +
                           FormatShape(x) + " but conv2d needs [N, C, H, W]");
  }
  if (a.out_channels <= 0 || a.groups <= 0 || a.kernel_h <= 0 ||
      a.kernel_w <= 0 || a.stride_h <= 0 || a.stride_w <= 0 || a.pad_h < 0 ||
      a.pad_w < 0) {
    return Fail(error,
                "out_channels, groups, kernel_size and stride must be "
                "positive and padding non-negative");
  }
  if (a.in_channels >= 0 && a.in_channels != x[1]) {
    return Fail(error, "input '" + node.inputs[0] + "' has " + Str(x[1]) +
                           " channels but in_channels is " +
                           Str(a.in_channels));
  }
  if (x[1] % a.groups != 0 || a.out_channels % a.groups != 0) {
    return Fail(error, "groups " + Str(a.groups) +
                           " must divide the input channels (" + Str(x[1]) +
                           ") and out_channels (" + Str(a.out_channels) + ")");
  }
  kernels::Conv2dParams p;
  SetWindow(a, x, &p);
  if (!WindowFits(a, x, error)) return false;
  *out = {x[0], a.out_channels, p.out_h(), p.out_w()};
  return true;
}

bool InferPool(const Node& node, const ShapeList& in,
               std::vector<int64_t>* out, std::string* error) {
  const OpAttributes& a = node.attrs;
  const auto& x = in[0];
  if (x.size() != 4) {
    return Fail(error, "input '" + node.inputs[0] + "' has shape " +
                           FormatShape(x) + " but " + OpTypeName(node.op) +
                           " needs [N, C, H, W]");
  }
  if (a.kernel_h <= 0 || a.kernel_w <= 0 || a.stride_h <= 0 ||
      a.stride_w <= 0 || a.pad_h < 0 || a.pad_w < 0) {
    return Fail(error,
                "kernel_size and stride must be positive and padding "
                "non-negative");
  }
  if (2 * a.pad_h > a.kernel_h || 2 * a.pad_w > a.kernel_w) {
    return Fail(error, "padding must be at most half the kernel size");
  }
  kernels::Pool2dParams p;
  SetWindow(a, x, &p);
  if (!WindowFits(a, x, error)) return false;
  *out = {x[0], x[1], p.out_h(), p.out_w()};
  return true;
}

bool InferLinear(const Node& node, const ShapeList& in,
                 std::vector<int64_t>* out, std::string* error) {
  const OpAttributes& a = node.attrs;
  const auto& x = in[0];
  if (x.empty()) {
    return Fail(error, "input '" + node.inputs[0] + "' is a scalar");
  }
  if (a.out_features <= 0) return Fail(error, "out_features must be positive");
  if (a.in_features >= 0 && a.in_features != x.back()) {
    return Fail(error, "input '" + node.inputs[0] + "' has shape " +
                           FormatShape(x) + " (last dimension " +
                           Str(x.back()) + ") but in_features is " +
                           Str(a.in_features));
  }
  *out = x;
  out->back() = a.out_features;
  return true;
}

bool InferMatmul(const Node& node, const ShapeList& in,
                 std::vector<int64_t>* out, std::string* error) {
  const auto& a = in[0];
  const auto& b = in[1];
  const std::string shapes = "'" + node.inputs[0] + "' " + FormatShape(a) +
                             " and '" + node.inputs[1] + "' " + FormatShape(b);
  if (a.size() != b.size() || (a.size() != 2 && a.size() != 3)) {
    return Fail(error, "matmul needs two rank-2 or two rank-3 inputs, got " +
                           shapes);
  }
  if (a.size() == 3 && a[0] != b[0]) {
    return Fail(error, "batch sizes differ: " + shapes);
  }
  if (a[a.size() - 1] != b[b.size() - 2]) {
    return Fail(error, "inner dimensions differ: " + shapes);
  }
  *out = a;
  out->back() = b.back();
  return true;
}

bool InferBinary(const Node& node, const ShapeList& in,
                 std::vector<int64_t>* out, std::string* error) {
  const bool has_scalar = node.attrs.scalar.has_value();
  if (in.size() == 2 && has_scalar) {
    return Fail(error, "takes either two inputs or one input and 'scalar'");
  }
  if (in.size() == 1) {
    if (!has_scalar) {
      return Fail(error, "needs a second input or a 'scalar' attribute");
    }
    *out = in[0];
    return true;
  }
  if (!kernels::BroadcastShapes(in[0], in[1], out)) {
    return Fail(error, "input shapes do not broadcast: '" + node.inputs[0] +
                           "' " + FormatShape(in[0]) + " and '" +
                           node.inputs[1] + "' " + FormatShape(in[1]));
  }
  return true;
}

bool InferPermute(const Node& node, const ShapeList& in,
                  std::vector<int64_t>* out, std::string* error) {
  const auto& x = in[0];
  const auto rank = static_cast<int64_t>(x.size());
  const auto& dims = node.attrs.dims;
  std::vector<bool> seen(x.size(), false);
  bool valid = static_cast<int64_t>(dims.size()) == rank;
  out->clear();
  for (std::size_t i = 0; valid && i < dims.size(); ++i) {
    int64_t d = 0;
    valid = NormalizeDim(dims[i], rank, &d) && !seen[d];
    if (valid) {
      seen[d] = true;
      out->push_back(x[d]);
    }
  }
  if (!valid) {
    return Fail(error, "dims " + FormatShape(dims) +
                           " is not a permutation of the dimensions of "
                           "input '" + node.inputs[0] + "' " + FormatShape(x));
  }
  return true;
}

bool InferReshape(const Node& node, const ShapeList& in,
                  std::vector<int64_t>* out, std::string* error) {
  const int64_t total = kernels::NumElements(in[0]);
  *out = node.attrs.sizes;
  int64_t known = 1;
  int inferred = -1;
  for (std::size_t i = 0; i < out->size(); ++i) {
    const int64_t s = (*out)[i];
    if (s == -1 && inferred < 0) {
      inferred = static_cast<int>(i);
    } else if (s <= 0 || s > kMaxTensorElements / known) {
      return Fail(error, "sizes " + FormatShape(node.attrs.sizes) +
                             " may hold one -1 and otherwise positive sizes "
                             "within the tensor size limit");
    } else {
      known *= s;
    }
  }
  if (inferred >= 0 && total % known == 0) (*out)[inferred] = total / known;
  if (kernels::NumElements(*out) != total) {
    return Fail(error, "cannot reshape input '" + node.inputs[0] + "' " +
                           FormatShape(in[0]) + " (" + Str(total) +
                           " elements) to " + FormatShape(node.attrs.sizes));
  }
  return true;
}

bool InferFlatten(const Node& node, const ShapeList& in,
                  std::vector<int64_t>* out, std::string* error) {
  const auto& x = in[0];
  const auto rank = static_cast<int64_t>(x.size());
  int64_t start = 0;
  int64_t end = 0;
  if (!NormalizeDim(node.attrs.start_dim, rank, &start) ||
      !NormalizeDim(node.attrs.end_dim, rank, &end) || start > end) {
    return Fail(error, "start_dim " + Str(node.attrs.start_dim) +
                           " and end_dim " + Str(node.attrs.end_dim) +
                           " do not fit input '" + node.inputs[0] + "' " +
                           FormatShape(x));
  }
  out->assign(x.begin(), x.begin() + start);
  int64_t merged = 1;
  for (int64_t d = start; d <= end; ++d) merged *= x[d];
  out->push_back(merged);
  out->insert(out->end(), x.begin() + end + 1, x.end());
  return true;
}

bool InferChecked(const Node& node, const ShapeList& in,
                  std::vector<int64_t>* out, std::string* error);

}  // namespace

bool ShapeWithinLimits(const std::vector<int64_t>& shape) {
  int64_t product = 1;
  for (int64_t size : shape) {
    if (size <= 0 || size > kMaxTensorElements / product) return false;
    product *= size;
  }
  return true;
}

const OpSchema* FindOpSchema(std::string_view name) {
  for (const OpSchema& schema : AllSchemas()) {
    if (name == schema.name) return &schema;
  }
  return nullptr;
}

const OpSchema& SchemaOf(OpType op) {
  for (const OpSchema& schema : AllSchemas()) {
    if (schema.op == op) return schema;
  }
  return AllSchemas().front();  // unreachable: every OpType has a schema
}

std::string KnownOpNames() {
  std::string names;
  for (const OpSchema& schema : AllSchemas()) {
    if (!names.empty()) names += ", ";
    names += schema.name;
  }
  return names;
}

const char* OpTypeName(OpType op) { return SchemaOf(op).name; }

bool InferOutputShape(const Node& node, const ShapeList& input_shapes,
                      std::vector<int64_t>* output_shape, std::string* error) {
  for (const auto& shape : input_shapes) {
    if (!ShapeWithinLimits(shape)) {
      return Fail(error, "input sizes must be positive and at most " +
                             Str(kMaxTensorElements) + " elements");
    }
  }
  if (!InferChecked(node, input_shapes, output_shape, error)) return false;
  // Parameters too: conv and linear weights grow with their attributes.
  const OpAttributes& a = node.attrs;
  std::vector<int64_t> weight;
  if (node.op == OpType::kConv2d) {
    weight = {a.out_channels, input_shapes[0][1] / a.groups, a.kernel_h,
              a.kernel_w};
  } else if (node.op == OpType::kLinear) {
    weight = {a.out_features, input_shapes[0].back()};
  }
  if (!ShapeWithinLimits(*output_shape) || !ShapeWithinLimits(weight)) {
    return Fail(error, "the output " + FormatShape(*output_shape) +
                           " or the weights exceed " +
                           Str(kMaxTensorElements) + " elements");
  }
  return true;
}

namespace {

bool InferChecked(const Node& node, const ShapeList& input_shapes,
                  std::vector<int64_t>* output_shape, std::string* error) {
  switch (node.op) {
    case OpType::kConv2d:
      return InferConv2d(node, input_shapes, output_shape, error);
    case OpType::kLinear:
      return InferLinear(node, input_shapes, output_shape, error);
    case OpType::kMatmul:
      return InferMatmul(node, input_shapes, output_shape, error);
    case OpType::kRelu:
    case OpType::kRelu6:
    case OpType::kLayerNorm:
      if (input_shapes[0].empty() && node.op == OpType::kLayerNorm) {
        return Fail(error, "input '" + node.inputs[0] + "' is a scalar");
      }
      *output_shape = input_shapes[0];
      return true;
    case OpType::kGelu:
      if (node.attrs.approximate != "none" &&
          node.attrs.approximate != "tanh") {
        return Fail(error, "approximate must be 'none' or 'tanh', not '" +
                               node.attrs.approximate + "'");
      }
      *output_shape = input_shapes[0];
      return true;
    case OpType::kMaxPool2d:
    case OpType::kAvgPool2d:
      return InferPool(node, input_shapes, output_shape, error);
    case OpType::kAdd:
    case OpType::kMul:
      return InferBinary(node, input_shapes, output_shape, error);
    case OpType::kSoftmax: {
      int64_t dim = 0;
      const auto rank = static_cast<int64_t>(input_shapes[0].size());
      if (!NormalizeDim(node.attrs.dim, rank, &dim)) {
        return Fail(error, "dim " + Str(node.attrs.dim) +
                               " is out of range for input '" +
                               node.inputs[0] + "' " +
                               FormatShape(input_shapes[0]));
      }
      *output_shape = input_shapes[0];
      return true;
    }
    case OpType::kPermute:
      return InferPermute(node, input_shapes, output_shape, error);
    case OpType::kReshape:
      return InferReshape(node, input_shapes, output_shape, error);
    case OpType::kFlatten:
      return InferFlatten(node, input_shapes, output_shape, error);
  }
  return Fail(error, "unsupported op");
}

}  // namespace

std::vector<std::string> KernelNames(const Node& node) {
  switch (node.op) {
    case OpType::kConv2d:
      return {"convolution.out"};
    case OpType::kLinear:
      // ExecuTorch lowers linear to a transpose of the weight and addmm (mm
      // without bias), as the tutorial model's ETDump shows.
      return {"permute_copy.out", node.attrs.bias ? "addmm.out" : "mm.out"};
    case OpType::kMatmul:
      return {node.output_shape.size() == 3 ? "bmm.out" : "mm.out"};
    case OpType::kRelu:
      return {"relu.out"};
    case OpType::kRelu6:
      return {"hardtanh.out"};
    case OpType::kGelu:
      return {"gelu.out"};
    case OpType::kMaxPool2d:
      return {"max_pool2d_with_indices.out"};
    case OpType::kAvgPool2d:
      return {"avg_pool2d.out"};
    case OpType::kAdd:
      return {"add.out"};
    case OpType::kMul:
      return {"mul.out"};
    case OpType::kSoftmax:
      return {"_softmax.out"};
    case OpType::kLayerNorm:
      return {"native_layer_norm.out"};
    case OpType::kPermute:
      return {"permute_copy.out"};
    case OpType::kReshape:
    case OpType::kFlatten:
      return {};
  }
  return {};
}

bool SlowdownMatchesNode(const std::string& target, const Node& node) {
  if (target == node.name || target == OpTypeName(node.op)) return true;
  for (const std::string& kernel : KernelNames(node)) {
    const std::string base = kernel.substr(0, kernel.find('.'));
    if (target == kernel || target == base ||
        target == "native_call_" + kernel) {
      return true;
    }
  }
  return false;
}

std::string FormatShape(const std::vector<int64_t>& shape) {
  std::ostringstream out;
  out << '[';
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) out << ", ";
    out << shape[i];
  }
  out << ']';
  return out.str();
}

}  // namespace etbench::runtime
