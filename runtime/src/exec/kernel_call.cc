#include "exec/kernel_call.h"

#include "exec/arena.h"

namespace etbench::runtime {

const char* KernelOpName(KernelOp op) {
  switch (op) {
    case KernelOp::kConvolution:
      return "convolution.out";
    case KernelOp::kPermuteCopy:
      return "permute_copy.out";
    case KernelOp::kAddmm:
      return "addmm.out";
    case KernelOp::kMm:
      return "mm.out";
    case KernelOp::kBmm:
      return "bmm.out";
    case KernelOp::kRelu:
      return "relu.out";
    case KernelOp::kHardtanh:
      return "hardtanh.out";
    case KernelOp::kGelu:
      return "gelu.out";
    case KernelOp::kMaxPool2dWithIndices:
      return "max_pool2d_with_indices.out";
    case KernelOp::kAvgPool2d:
      return "avg_pool2d.out";
    case KernelOp::kAdd:
      return "add.out";
    case KernelOp::kMul:
      return "mul.out";
    case KernelOp::kSoftmax:
      return "_softmax.out";
    case KernelOp::kNativeLayerNorm:
      return "native_layer_norm.out";
  }
  return "unknown.out";
}

std::size_t KernelCall::TempBytes() const {
  switch (op) {
    case KernelOp::kMaxPool2dWithIndices:
      // The indices output, which the model never reads.
      return Arena::RoundUp(static_cast<std::size_t>(
          pool.batch * pool.channels * pool.out_h() * pool.out_w() * 8));
    case KernelOp::kConvolution:
      return Arena::RoundUp(
          static_cast<std::size_t>(kernels::Conv2dScratchFloats(conv)) * 4);
    case KernelOp::kNativeLayerNorm:
      // The mean and rstd outputs.
      return 2 * Arena::RoundUp(static_cast<std::size_t>(m) * 4);
    default:
      return 0;
  }
}

uint64_t KernelCall::Flops() const {
  switch (op) {
    case KernelOp::kConvolution: {
      const int64_t outputs =
          conv.batch * conv.out_channels * conv.out_h() * conv.out_w();
      return static_cast<uint64_t>(2 * outputs * (conv.in_channels / conv.groups) *
                                   conv.kernel_h * conv.kernel_w);
    }
    case KernelOp::kAddmm:
    case KernelOp::kMm:
    case KernelOp::kBmm:
      return static_cast<uint64_t>(2 * batch * m * k * n);
    case KernelOp::kMaxPool2dWithIndices:
    case KernelOp::kAvgPool2d:
      return static_cast<uint64_t>(pool.batch * pool.channels * pool.out_h() *
                                   pool.out_w() * pool.kernel_h *
                                   pool.kernel_w);
    case KernelOp::kSoftmax:
    case KernelOp::kNativeLayerNorm:
      return static_cast<uint64_t>(5 * kernels::NumElements(out_shape));
    default:
      return static_cast<uint64_t>(kernels::NumElements(out_shape));
  }
}

void RunKernelCall(const KernelCall& call, float* const* data, Arena& temp) {
  auto in = [&](std::size_t i) -> const float* {
    return i < call.inputs.size() && call.inputs[i] >= 0
               ? data[call.inputs[i]]
               : nullptr;
  };
  float* out = data[call.output];
  switch (call.op) {
    case KernelOp::kConvolution:
    {
      const int64_t scratch = kernels::Conv2dScratchFloats(call.conv);
      kernels::Conv2d(call.conv, in(0), in(1), in(2), out,
                      scratch > 0 ? temp.AllocateFloats(scratch) : nullptr);
      return;
    }
    case KernelOp::kPermuteCopy:
      kernels::PermuteCopy(in(0), call.a_shape, call.dims, out);
      return;
    case KernelOp::kAddmm:
      kernels::Addmm(call.m, call.k, call.n, in(0), in(1), in(2), out);
      return;
    case KernelOp::kMm:
      kernels::Addmm(call.m, call.k, call.n, nullptr, in(0), in(1), out);
      return;
    case KernelOp::kBmm:
      kernels::Bmm(call.batch, call.m, call.k, call.n, in(0), in(1), out);
      return;
    case KernelOp::kRelu:
      kernels::Relu(in(0), out, call.n);
      return;
    case KernelOp::kHardtanh:
      kernels::Hardtanh(in(0), out, call.n, call.min_value, call.max_value);
      return;
    case KernelOp::kGelu:
      kernels::Gelu(in(0), out, call.n, call.gelu);
      return;
    case KernelOp::kMaxPool2dWithIndices: {
      auto* indices = static_cast<int64_t*>(temp.Allocate(call.TempBytes()));
      kernels::MaxPool2dWithIndices(call.pool, in(0), out, indices);
      return;
    }
    case KernelOp::kAvgPool2d:
      kernels::AvgPool2d(call.pool, in(0), out);
      return;
    case KernelOp::kAdd:
    case KernelOp::kMul: {
      const float* b = in(1);
      const kernels::Shape scalar_shape;
      if (call.has_scalar) b = &call.scalar;
      const kernels::Shape& b_shape = call.has_scalar ? scalar_shape : call.b_shape;
      if (call.op == KernelOp::kAdd) {
        kernels::Add(in(0), call.a_shape, b, b_shape, out, call.out_shape);
      } else {
        kernels::Mul(in(0), call.a_shape, b, b_shape, out, call.out_shape);
      }
      return;
    }
    case KernelOp::kSoftmax:
      kernels::Softmax(in(0), call.m, call.k, call.inner, out);
      return;
    case KernelOp::kNativeLayerNorm: {
      float* mean = temp.AllocateFloats(call.m);
      float* rstd = temp.AllocateFloats(call.m);
      kernels::NativeLayerNorm(in(0), call.m, call.k, in(1), in(2), call.eps,
                               out, mean, rstd);
      return;
    }
  }
}

}  // namespace etbench::runtime
