#pragma once
// One call of one portable kernel with every size resolved at load time:
// what an ExecuTorch KernelCall instruction holds (kernel + argument list).

#include <cstdint>
#include <vector>

#include "etbench/runtime/kernels.h"

namespace etbench::runtime {

class Arena;

enum class KernelOp {
  kConvolution,
  kPermuteCopy,
  kAddmm,
  kMm,
  kBmm,
  kRelu,
  kHardtanh,
  kGelu,
  kMaxPool2dWithIndices,
  kAvgPool2d,
  kAdd,
  kMul,
  kSoftmax,
  kNativeLayerNorm,
};

/// ExecuTorch's kernel name, e.g. "convolution.out".
const char* KernelOpName(KernelOp op);

struct KernelCall {
  KernelOp op = KernelOp::kRelu;
  /// Value ids of the arguments, in kernel order:
  ///   convolution: input, weight[, bias]   addmm: bias, a, b
  ///   mm, bmm, add, mul: a, b (add/mul: a only with a scalar)
  ///   native_layer_norm: input, weight, bias   others: input
  std::vector<int> inputs;
  int output = -1;

  kernels::Conv2dParams conv;
  kernels::Pool2dParams pool;
  int64_t batch = 1;  // bmm
  int64_t m = 0;      // addmm/mm/bmm rows; layer norm rows
  int64_t k = 0;      // inner dimension; layer norm / softmax dim size
  int64_t n = 0;      // addmm/mm/bmm columns; element count for unary ops
  int64_t inner = 1;  // softmax
  kernels::Shape a_shape;  // permute input sizes; add/mul shapes
  kernels::Shape b_shape;
  kernels::Shape out_shape;
  std::vector<int64_t> dims;  // permute
  float eps = 0;
  float min_value = 0;  // hardtanh
  float max_value = 0;
  bool has_scalar = false;
  float scalar = 0;
  kernels::GeluApproximation gelu = kernels::GeluApproximation::kNone;

  /// Bytes of scratch the call takes from the temp allocator.
  std::size_t TempBytes() const;
  /// Floating-point operations of the call (for delegate metadata).
  uint64_t Flops() const;
};

/// Runs the call on the value buffers `data` (indexed by value id); scratch
/// comes from `temp`, which the caller resets afterwards.
void RunKernelCall(const KernelCall& call, float* const* data, Arena& temp);

}  // namespace etbench::runtime
