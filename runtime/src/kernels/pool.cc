// max_pool2d_with_indices.out and avg_pool2d.out.

#include <algorithm>
#include <cmath>
#include <limits>

#include "etbench/runtime/kernels.h"

namespace etbench::runtime::kernels {

void MaxPool2dWithIndices(const Pool2dParams& p, const float* input,
                          float* out, int64_t* indices) {
  const int64_t out_h = p.out_h();
  const int64_t out_w = p.out_w();
  const int64_t planes = p.batch * p.channels;
  for (int64_t plane = 0; plane < planes; ++plane) {
    const float* in = input + plane * p.in_h * p.in_w;
    float* o = out + plane * out_h * out_w;
    int64_t* idx = indices + plane * out_h * out_w;
    for (int64_t oh = 0; oh < out_h; ++oh) {
      const int64_t h0 = oh * p.stride_h - p.pad_h;
      const int64_t h_begin = std::max<int64_t>(h0, 0);
      const int64_t h_end = std::min(h0 + p.kernel_h, p.in_h);
      for (int64_t ow = 0; ow < out_w; ++ow) {
        const int64_t w0 = ow * p.stride_w - p.pad_w;
        const int64_t w_begin = std::max<int64_t>(w0, 0);
        const int64_t w_end = std::min(w0 + p.kernel_w, p.in_w);
        float best = -std::numeric_limits<float>::infinity();
        int64_t best_index = h_begin * p.in_w + w_begin;
        for (int64_t h = h_begin; h < h_end; ++h) {
          for (int64_t w = w_begin; w < w_end; ++w) {
            const float v = in[h * p.in_w + w];
            // PyTorch's rule: a NaN wins and then stays. Selects instead of
            // a branch (the data decides, unpredictably).
            const bool take = v > best || std::isnan(v);
            best = take ? v : best;
            best_index = take ? h * p.in_w + w : best_index;
          }
        }
        o[oh * out_w + ow] = best;
        idx[oh * out_w + ow] = best_index;
      }
    }
  }
}

void AvgPool2d(const Pool2dParams& p, const float* input, float* out) {
  const int64_t out_h = p.out_h();
  const int64_t out_w = p.out_w();
  const int64_t planes = p.batch * p.channels;
  for (int64_t plane = 0; plane < planes; ++plane) {
    const float* in = input + plane * p.in_h * p.in_w;
    float* o = out + plane * out_h * out_w;
    for (int64_t oh = 0; oh < out_h; ++oh) {
      const int64_t h0 = oh * p.stride_h - p.pad_h;
      const int64_t h_begin = std::max<int64_t>(h0, 0);
      const int64_t h_end = std::min(h0 + p.kernel_h, p.in_h);
      // count_include_pad: the divisor counts padding cells, but not cells
      // of the window beyond the padded input.
      const int64_t h_span =
          std::min(h0 + p.kernel_h, p.in_h + p.pad_h) - h0;
      for (int64_t ow = 0; ow < out_w; ++ow) {
        const int64_t w0 = ow * p.stride_w - p.pad_w;
        const int64_t w_begin = std::max<int64_t>(w0, 0);
        const int64_t w_end = std::min(w0 + p.kernel_w, p.in_w);
        const int64_t w_span =
            std::min(w0 + p.kernel_w, p.in_w + p.pad_w) - w0;
        float sum = 0.0f;
        for (int64_t h = h_begin; h < h_end; ++h) {
          for (int64_t w = w_begin; w < w_end; ++w) sum += in[h * p.in_w + w];
        }
        o[oh * out_w + ow] = sum / static_cast<float>(h_span * w_span);
      }
    }
  }
}

}  // namespace etbench::runtime::kernels
