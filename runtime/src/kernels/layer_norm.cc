// native_layer_norm.out over the last dimension.

#include <cmath>

#include "etbench/runtime/kernels.h"

namespace etbench::runtime::kernels {

void NativeLayerNorm(const float* input, int64_t rows, int64_t cols,
                     const float* weight, const float* bias, float eps,
                     float* out, float* mean, float* rstd) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* in = input + r * cols;
    float* dst = out + r * cols;
    // Two passes in double: cheap at these sizes and free of cancellation.
    double sum = 0.0;
    for (int64_t c = 0; c < cols; ++c) sum += in[c];
    const double mu = sum / static_cast<double>(cols);
    double squares = 0.0;
    for (int64_t c = 0; c < cols; ++c) {
      const double d = in[c] - mu;
      squares += d * d;
    }
    const double variance = squares / static_cast<double>(cols);
    const auto inv_std = static_cast<float>(1.0 / std::sqrt(variance + eps));
    const auto mu_f = static_cast<float>(mu);
    for (int64_t c = 0; c < cols; ++c) {
      float v = (in[c] - mu_f) * inv_std;
      if (weight != nullptr) v *= weight[c];
      if (bias != nullptr) v += bias[c];
      dst[c] = v;
    }
    mean[r] = mu_f;
    rstd[r] = inv_std;
  }
}

}  // namespace etbench::runtime::kernels
