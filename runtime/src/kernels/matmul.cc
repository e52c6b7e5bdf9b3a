// addmm.out / mm.out / bmm.out and permute_copy.out.
//
// Matrix products use the i-k-j order: the innermost loop is an axpy over a
// contiguous row of b and of out, which vectorizes; b's rows stream through
// cache once per row of a.

#include <algorithm>

#include "etbench/runtime/kernels.h"

namespace etbench::runtime::kernels {
namespace {

void MatmulAccumulate(int64_t m, int64_t k, int64_t n,
                      const float* __restrict a, const float* __restrict b,
                      float* __restrict out) {
  for (int64_t i = 0; i < m; ++i) {
    float* __restrict out_row = out + i * n;
    const float* a_row = a + i * k;
    for (int64_t kk = 0; kk < k; ++kk) {
      const float av = a_row[kk];
      const float* __restrict b_row = b + kk * n;
      for (int64_t j = 0; j < n; ++j) out_row[j] += av * b_row[j];
    }
  }
}

}  // namespace

int64_t NumElements(const Shape& shape) {
  int64_t n = 1;
  for (int64_t size : shape) n *= size;
  return n;
}

void Addmm(int64_t m, int64_t k, int64_t n, const float* bias, const float* a,
           const float* b, float* out) {
  for (int64_t i = 0; i < m; ++i) {
    float* row = out + i * n;
    if (bias != nullptr) {
      std::copy(bias, bias + n, row);
    } else {
      std::fill(row, row + n, 0.0f);
    }
  }
  MatmulAccumulate(m, k, n, a, b, out);
}

void Bmm(int64_t batch, int64_t m, int64_t k, int64_t n, const float* a,
         const float* b, float* out) {
  for (int64_t i = 0; i < batch; ++i) {
    Addmm(m, k, n, nullptr, a + i * m * k, b + i * k * n, out + i * m * n);
  }
}

void PermuteCopy(const float* input, const Shape& sizes,
                 const std::vector<int64_t>& dims, float* out) {
  const auto rank = static_cast<int64_t>(sizes.size());
  if (rank == 0) {
    out[0] = input[0];
    return;
  }
  // Input strides, then the input stride of each output dimension.
  std::vector<int64_t> in_strides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d) {
    in_strides[d] = in_strides[d + 1] * sizes[d + 1];
  }
  std::vector<int64_t> out_sizes(rank);
  std::vector<int64_t> strides(rank);
  for (int64_t d = 0; d < rank; ++d) {
    out_sizes[d] = sizes[dims[d]];
    strides[d] = in_strides[dims[d]];
  }
  const int64_t total = NumElements(sizes);
  if (total == 0) return;
  // Odometer over all but the last output dimension; the last one is a
  // strided gather, the only per-element work.
  const int64_t inner = out_sizes[rank - 1];
  const int64_t inner_stride = strides[rank - 1];
  std::vector<int64_t> index(rank, 0);
  int64_t in_offset = 0;
  for (int64_t written = 0; written < total; written += inner) {
    const float* __restrict src = input + in_offset;
    float* __restrict dst = out + written;
    for (int64_t j = 0; j < inner; ++j) dst[j] = src[j * inner_stride];
    for (int64_t d = rank - 2; d >= 0; --d) {
      in_offset += strides[d];
      if (++index[d] < out_sizes[d]) break;
      in_offset -= strides[d] * out_sizes[d];
      index[d] = 0;
    }
  }
}

}  // namespace etbench::runtime::kernels
