#pragma once
// What each model op takes (inputs, attributes), what it produces (shape
// inference), and which ExecuTorch kernels it lowers to.

#include <string>
#include <string_view>
#include <vector>

#include "etbench/runtime/model.h"

namespace etbench::runtime {

struct OpSchema {
  OpType op;
  const char* name;
  int min_inputs;
  int max_inputs;
  /// Attribute keys the op accepts (besides the common node keys).
  std::vector<std::string> attributes;
  /// Attribute keys that must be present.
  std::vector<std::string> required;
};

/// The schema of a model-file op name, or null when unknown.
const OpSchema* FindOpSchema(std::string_view name);
const OpSchema& SchemaOf(OpType op);

/// Comma-separated list of every op name (for error messages).
std::string KnownOpNames();

/// Fills the spatial window of a conv or pool kernel call (kernels::
/// Conv2dParams or Pool2dParams): input H×W from the [N, C, H, W] shape `x`,
/// kernel, stride and padding from the node's attributes.
template <typename WindowParams>
void SetWindow(const OpAttributes& a, const std::vector<int64_t>& x, WindowParams* p) {
  p->in_h = x[2];
  p->in_w = x[3];
  p->kernel_h = a.kernel_h;
  p->kernel_w = a.kernel_w;
  p->stride_h = a.stride_h;
  p->stride_w = a.stride_w;
  p->pad_h = a.pad_h;
  p->pad_w = a.pad_w;
}

/// Infers the output shape of `node` from its input shapes. On failure
/// returns false and sets `error` to a message without location, e.g.
/// "input 'pool1' has 6 channels but in_channels is 8".
bool InferOutputShape(const Node& node,
                      const std::vector<std::vector<int64_t>>& input_shapes,
                      std::vector<int64_t>* output_shape, std::string* error);

/// ExecuTorch kernel names ("convolution.out", ...) the node lowers to on
/// the portable path, in instruction order; empty for views (reshape,
/// flatten), which lower to no instruction.
std::vector<std::string> KernelNames(const Node& node);

/// True when a slowdown target names this node: its name, its op type, or
/// one of its kernel names (with or without ".out" / "native_call_").
bool SlowdownMatchesNode(const std::string& target, const Node& node);

/// Largest tensor (elements) a model may declare or produce: 2^28 floats,
/// 1 GiB. Bounds memory and keeps every size computation far from overflow.
inline constexpr int64_t kMaxTensorElements = int64_t{1} << 28;

/// True when every size is positive and the product is at most
/// kMaxTensorElements.
bool ShapeWithinLimits(const std::vector<int64_t>& shape);

/// "[1, 3, 32, 32]".
std::string FormatShape(const std::vector<int64_t>& shape);

}  // namespace etbench::runtime
