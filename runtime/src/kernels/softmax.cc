// _softmax.out: numerically stable (max-subtracted) softmax.

#include <algorithm>
#include <cmath>

#include "etbench/runtime/kernels.h"

namespace etbench::runtime::kernels {

void Softmax(const float* input, int64_t outer, int64_t dim_size,
             int64_t inner, float* out) {
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      const float* in = input + o * dim_size * inner + i;
      float* dst = out + o * dim_size * inner + i;
      float max_value = in[0];
      for (int64_t d = 1; d < dim_size; ++d) {
        max_value = std::max(max_value, in[d * inner]);
      }
      float sum = 0.0f;
      for (int64_t d = 0; d < dim_size; ++d) {
        const float e = std::exp(in[d * inner] - max_value);
        dst[d * inner] = e;
        sum += e;
      }
      const float scale = 1.0f / sum;
      for (int64_t d = 0; d < dim_size; ++d) dst[d * inner] *= scale;
    }
  }
}

}  // namespace etbench::runtime::kernels
