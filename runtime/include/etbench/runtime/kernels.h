#pragma once
// Float32 kernels of the reference runtime, single-threaded, on contiguous
// row-major (NCHW for images) buffers. Named after the ExecuTorch portable
// kernels they stand for (convolution.out, addmm.out, ...).
//
// Contract for every kernel: sizes are valid (checked when the model is
// loaded, not here), `out` does not alias an input unless stated, and
// nothing is allocated.

#include <cstdint>
#include <vector>

namespace etbench::runtime::kernels {

using Shape = std::vector<int64_t>;

/// Number of elements of a shape (1 for a scalar shape []).
int64_t NumElements(const Shape& shape);

/// Shape of a 2-D convolution, PyTorch semantics (no dilation).
/// Weight is [out_channels, in_channels / groups, kernel_h, kernel_w].
struct Conv2dParams {
  int64_t batch = 1;
  int64_t in_channels = 1;
  int64_t in_h = 1;
  int64_t in_w = 1;
  int64_t out_channels = 1;
  int64_t kernel_h = 1;
  int64_t kernel_w = 1;
  int64_t stride_h = 1;
  int64_t stride_w = 1;
  int64_t pad_h = 0;
  int64_t pad_w = 0;
  int64_t groups = 1;

  int64_t out_h() const { return (in_h + 2 * pad_h - kernel_h) / stride_h + 1; }
  int64_t out_w() const { return (in_w + 2 * pad_w - kernel_w) / stride_w + 1; }
};

/// Floats of scratch Conv2d uses for `p` (0 when it needs none). Dense
/// (groups == 1) convolutions other than 1x1/stride 1 are lowered to
/// im2col + matrix product, which needs a [C·kh·kw, out_h·out_w] buffer.
int64_t Conv2dScratchFloats(const Conv2dParams& p);

/// convolution.out: output [batch, out_channels, out_h, out_w]. `bias` may
/// be null. Grouped and depthwise (groups == in_channels) included.
/// `scratch` holds Conv2dScratchFloats(p) floats (may be null when that is
/// 0).
void Conv2d(const Conv2dParams& p, const float* input, const float* weight,
            const float* bias, float* output, float* scratch);

/// addmm.out: out[m,n] = bias[n] + a[m,k] · b[k,n]. `bias` may be null
/// (that is mm.out).
void Addmm(int64_t m, int64_t k, int64_t n, const float* bias, const float* a,
           const float* b, float* out);

/// bmm.out: out[i] = a[i] · b[i] for `batch` pairs of [m,k]·[k,n].
void Bmm(int64_t batch, int64_t m, int64_t k, int64_t n, const float* a,
         const float* b, float* out);

/// permute_copy.out: out = input.permute(dims), materialized contiguously.
/// `dims` is a permutation of 0..rank-1.
void PermuteCopy(const float* input, const Shape& sizes,
                 const std::vector<int64_t>& dims, float* out);

/// relu.out. `out` may alias `input`.
void Relu(const float* input, float* out, int64_t n);

/// hardtanh.out: clamp to [min_value, max_value] (relu6 is [0, 6]). `out`
/// may alias `input`.
void Hardtanh(const float* input, float* out, int64_t n, float min_value,
              float max_value);

enum class GeluApproximation { kNone, kTanh };

/// gelu.out, exact (erf) or tanh approximation. `out` may alias `input`.
void Gelu(const float* input, float* out, int64_t n,
          GeluApproximation approximation);

/// Shape of a 2-D pooling window over [batch, channels, in_h, in_w].
struct Pool2dParams {
  int64_t batch = 1;
  int64_t channels = 1;
  int64_t in_h = 1;
  int64_t in_w = 1;
  int64_t kernel_h = 1;
  int64_t kernel_w = 1;
  int64_t stride_h = 1;
  int64_t stride_w = 1;
  int64_t pad_h = 0;
  int64_t pad_w = 0;

  int64_t out_h() const { return (in_h + 2 * pad_h - kernel_h) / stride_h + 1; }
  int64_t out_w() const { return (in_w + 2 * pad_w - kernel_w) / stride_w + 1; }
};

/// max_pool2d_with_indices.out: padding counts as -inf; `indices` receives
/// the flat h*in_w+w index of each maximum within its plane (like PyTorch).
void MaxPool2dWithIndices(const Pool2dParams& p, const float* input,
                          float* out, int64_t* indices);

/// avg_pool2d.out with count_include_pad = true (PyTorch's default).
void AvgPool2d(const Pool2dParams& p, const float* input, float* out);

/// Numpy-style broadcast of two shapes; false when incompatible.
bool BroadcastShapes(const Shape& a, const Shape& b, Shape* out);

/// add.out / mul.out with numpy broadcasting to `out_shape` (which must be
/// BroadcastShapes(a_shape, b_shape)). `out` may alias an input of the same
/// shape as out_shape.
void Add(const float* a, const Shape& a_shape, const float* b,
         const Shape& b_shape, float* out, const Shape& out_shape);
void Mul(const float* a, const Shape& a_shape, const float* b,
         const Shape& b_shape, float* out, const Shape& out_shape);

/// _softmax.out over one dimension of a tensor viewed as
/// [outer, dim_size, inner].
void Softmax(const float* input, int64_t outer, int64_t dim_size,
             int64_t inner, float* out);

/// native_layer_norm.out over the last `cols` elements of each of `rows`
/// rows. `weight` and `bias` ([cols]) may be null; `mean` and `rstd`
/// ([rows]) receive the statistics, as the ATen op returns them.
void NativeLayerNorm(const float* input, int64_t rows, int64_t cols,
                     const float* weight, const float* bias, float eps,
                     float* out, float* mean, float* rstd);

}  // namespace etbench::runtime::kernels
