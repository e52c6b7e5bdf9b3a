// relu.out, hardtanh.out, gelu.out, add.out, mul.out.

#include <algorithm>
#include <cmath>

#include "etbench/runtime/kernels.h"

namespace etbench::runtime::kernels {
namespace {

constexpr int kMaxRank = 8;

// Input strides of `shape` broadcast to an output of rank `rank`: 0 along
// broadcast dimensions.
void BroadcastStrides(const Shape& shape, int rank, int64_t* strides) {
  const int offset = rank - static_cast<int>(shape.size());
  int64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    const int src = d - offset;
    if (src < 0 || shape[src] == 1) {
      strides[d] = 0;
    } else {
      strides[d] = stride;
    }
    if (src >= 0) stride *= shape[src];
  }
}

template <typename Op>
void BinaryBroadcast(const float* a, const Shape& a_shape, const float* b,
                     const Shape& b_shape, float* out, const Shape& out_shape,
                     Op op) {
  const int64_t total = NumElements(out_shape);
  if (total == 0) return;
  const int64_t a_total = NumElements(a_shape);
  const int64_t b_total = NumElements(b_shape);
  if (a_total == total && b_total == total) {
    for (int64_t i = 0; i < total; ++i) out[i] = op(a[i], b[i]);
    return;
  }
  if (b_total == 1) {
    const float bv = b[0];
    for (int64_t i = 0; i < total; ++i) out[i] = op(a[i], bv);
    return;
  }
  if (a_total == 1) {
    const float av = a[0];
    for (int64_t i = 0; i < total; ++i) out[i] = op(av, b[i]);
    return;
  }
  const int rank = static_cast<int>(out_shape.size());
  int64_t a_strides[kMaxRank];
  int64_t b_strides[kMaxRank];
  BroadcastStrides(a_shape, rank, a_strides);
  BroadcastStrides(b_shape, rank, b_strides);
  int64_t index[kMaxRank] = {};
  const int64_t inner = out_shape[rank - 1];
  const int64_t a_inner = a_strides[rank - 1];
  const int64_t b_inner = b_strides[rank - 1];
  int64_t a_offset = 0;
  int64_t b_offset = 0;
  for (int64_t written = 0; written < total; written += inner) {
    for (int64_t j = 0; j < inner; ++j) {
      out[written + j] = op(a[a_offset + j * a_inner], b[b_offset + j * b_inner]);
    }
    for (int d = rank - 2; d >= 0; --d) {
      a_offset += a_strides[d];
      b_offset += b_strides[d];
      if (++index[d] < out_shape[d]) break;
      a_offset -= a_strides[d] * out_shape[d];
      b_offset -= b_strides[d] * out_shape[d];
      index[d] = 0;
    }
  }
}

}  // namespace

void Relu(const float* input, float* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = input[i] > 0.0f ? input[i] : 0.0f;
}

void Hardtanh(const float* input, float* out, int64_t n, float min_value,
              float max_value) {
  for (int64_t i = 0; i < n; ++i) {
    out[i] = std::min(std::max(input[i], min_value), max_value);
  }
}

void Gelu(const float* input, float* out, int64_t n,
          GeluApproximation approximation) {
  if (approximation == GeluApproximation::kTanh) {
    constexpr float kBeta = 0.7978845608028654f;  // sqrt(2 / pi)
    constexpr float kKappa = 0.044715f;
    for (int64_t i = 0; i < n; ++i) {
      const float x = input[i];
      out[i] = 0.5f * x * (1.0f + std::tanh(kBeta * (x + kKappa * x * x * x)));
    }
    return;
  }
  constexpr float kInvSqrt2 = 0.7071067811865476f;
  for (int64_t i = 0; i < n; ++i) {
    const float x = input[i];
    out[i] = 0.5f * x * (1.0f + std::erf(x * kInvSqrt2));
  }
}

bool BroadcastShapes(const Shape& a, const Shape& b, Shape* out) {
  const std::size_t rank = std::max(a.size(), b.size());
  if (rank > static_cast<std::size_t>(kMaxRank)) return false;
  Shape result(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) return false;
    result[i] = da == 1 ? db : da;
  }
  *out = std::move(result);
  return true;
}

void Add(const float* a, const Shape& a_shape, const float* b,
         const Shape& b_shape, float* out, const Shape& out_shape) {
  BinaryBroadcast(a, a_shape, b, b_shape, out, out_shape,
                  [](float x, float y) { return x + y; });
}

void Mul(const float* a, const Shape& a_shape, const float* b,
         const Shape& b_shape, float* out, const Shape& out_shape) {
  BinaryBroadcast(a, a_shape, b, b_shape, out, out_shape,
                  [](float x, float y) { return x * y; });
}

}  // namespace etbench::runtime::kernels
