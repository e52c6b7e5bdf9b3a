// convolution.out.
//
// Dense convolutions: im2col then a matrix product whose inner loop runs
// over the whole output plane (long, contiguous, vectorized), which beats
// the direct loop when output rows are short.
//
// Grouped, depthwise and pointwise convolutions: direct, one output plane at
// a time. Loop order (oc, ic, kh, kw, oh, ow) keeps the output plane hot in L1 and
// makes the innermost loop a contiguous axpy over an output row, which the
// compiler vectorizes for stride 1. Padding is handled by clipping the ow
// range per tap instead of testing every element.

#include <algorithm>

#include "etbench/runtime/kernels.h"

#ifdef ETBENCH_RUNTIME_CONV_EXTRA_WORK
#include "conv_extra_work.h"
#endif

namespace etbench::runtime::kernels {
namespace {

// First ow whose input column ow*stride - pad + kw is >= 0.
int64_t FirstValidOut(int64_t pad, int64_t k, int64_t stride) {
  const int64_t need = pad - k;  // ow*stride >= need
  if (need <= 0) return 0;
  return (need + stride - 1) / stride;
}

// One past the last ow whose input column is < in_size.
int64_t EndValidOut(int64_t in_size, int64_t pad, int64_t k, int64_t stride,
                    int64_t out_size) {
  const int64_t last = in_size - 1 + pad - k;  // ow*stride <= last
  if (last < 0) return 0;
  return std::min(out_size, last / stride + 1);
}

void AccumulateTap(const Conv2dParams& p, const float* __restrict in,
                   float weight, int64_t kh, int64_t kw, int64_t out_h,
                   int64_t out_w, float* __restrict out) {
  const int64_t ow_begin = FirstValidOut(p.pad_w, kw, p.stride_w);
  const int64_t ow_end = EndValidOut(p.in_w, p.pad_w, kw, p.stride_w, out_w);
  if (ow_begin >= ow_end) return;
  for (int64_t oh = 0; oh < out_h; ++oh) {
    const int64_t ih = oh * p.stride_h - p.pad_h + kh;
    if (ih < 0 || ih >= p.in_h) continue;
    // Index (not pointer) arithmetic: the row base may lie before `in`
    // when the tap reaches into the left padding.
    const int64_t base = ih * p.in_w + kw - p.pad_w;
    float* __restrict out_row = out + oh * out_w;
    if (p.stride_w == 1) {
      for (int64_t ow = ow_begin; ow < ow_end; ++ow) {
        out_row[ow] += weight * in[base + ow];
      }
    } else {
      for (int64_t ow = ow_begin; ow < ow_end; ++ow) {
        out_row[ow] += weight * in[base + ow * p.stride_w];
      }
    }
  }
}

// 1x1, stride 1, no padding: the whole plane is one axpy.
bool IsPointwise(const Conv2dParams& p) {
  return p.kernel_h == 1 && p.kernel_w == 1 && p.stride_h == 1 &&
         p.stride_w == 1 && p.pad_h == 0 && p.pad_w == 0;
}

bool UsesIm2col(const Conv2dParams& p) {
  return p.groups == 1 && !IsPointwise(p);
}

// col[(ic·kh + i)·kw + j][oh·out_w + ow] = input[ic][oh·s − p + i][ow·s − p + j]
// (0 in the padding).
void Im2col(const Conv2dParams& p, const float* __restrict in,
            float* __restrict col) {
  const int64_t out_h = p.out_h();
  const int64_t out_w = p.out_w();
  const int64_t plane = out_h * out_w;
  for (int64_t ic = 0; ic < p.in_channels; ++ic) {
    const float* channel = in + ic * p.in_h * p.in_w;
    for (int64_t kh = 0; kh < p.kernel_h; ++kh) {
      for (int64_t kw = 0; kw < p.kernel_w; ++kw) {
        float* row = col + ((ic * p.kernel_h + kh) * p.kernel_w + kw) * plane;
        const int64_t ow_begin = FirstValidOut(p.pad_w, kw, p.stride_w);
        const int64_t ow_end =
            EndValidOut(p.in_w, p.pad_w, kw, p.stride_w, out_w);
        for (int64_t oh = 0; oh < out_h; ++oh) {
          float* dst = row + oh * out_w;
          const int64_t ih = oh * p.stride_h - p.pad_h + kh;
          if (ih < 0 || ih >= p.in_h || ow_begin >= ow_end) {
            std::fill(dst, dst + out_w, 0.0f);
            continue;
          }
          std::fill(dst, dst + ow_begin, 0.0f);
          const int64_t base = ih * p.in_w + kw - p.pad_w;
          for (int64_t ow = ow_begin; ow < ow_end; ++ow) {
            dst[ow] = channel[base + ow * p.stride_w];
          }
          std::fill(dst + ow_end, dst + out_w, 0.0f);
        }
      }
    }
  }
}

void Conv2dIm2col(const Conv2dParams& p, const float* input,
                  const float* weight, const float* bias, float* output,
                  float* col) {
  const int64_t plane = p.out_h() * p.out_w();
  const int64_t depth = p.in_channels * p.kernel_h * p.kernel_w;
  for (int64_t n = 0; n < p.batch; ++n) {
    Im2col(p, input + n * p.in_channels * p.in_h * p.in_w, col);
    for (int64_t oc = 0; oc < p.out_channels; ++oc) {
      float* __restrict out = output + (n * p.out_channels + oc) * plane;
      std::fill(out, out + plane, bias != nullptr ? bias[oc] : 0.0f);
      const float* w = weight + oc * depth;
      for (int64_t k = 0; k < depth; ++k) {
        const float wv = w[k];
        const float* __restrict src = col + k * plane;
        for (int64_t i = 0; i < plane; ++i) out[i] += wv * src[i];
      }
    }
  }
}

// Grouped, depthwise, pointwise and small dense convolutions: the direct loop.
void ConvDirect(const Conv2dParams& p, const float* input, const float* weight,
                const float* bias, float* output) {
  const int64_t out_h = p.out_h();
  const int64_t out_w = p.out_w();
  const int64_t in_plane = p.in_h * p.in_w;
  const int64_t out_plane = out_h * out_w;
  const int64_t in_per_group = p.in_channels / p.groups;
  const int64_t out_per_group = p.out_channels / p.groups;
  const int64_t taps = p.kernel_h * p.kernel_w;
  const bool pointwise = IsPointwise(p);

  for (int64_t n = 0; n < p.batch; ++n) {
    for (int64_t oc = 0; oc < p.out_channels; ++oc) {
      float* __restrict out = output + (n * p.out_channels + oc) * out_plane;
      std::fill(out, out + out_plane, bias != nullptr ? bias[oc] : 0.0f);
      const int64_t group = oc / out_per_group;
      for (int64_t icg = 0; icg < in_per_group; ++icg) {
        const int64_t ic = group * in_per_group + icg;
        const float* __restrict in =
            input + (n * p.in_channels + ic) * in_plane;
        const float* w = weight + (oc * in_per_group + icg) * taps;
        if (pointwise) {
          const float wv = w[0];
          for (int64_t i = 0; i < out_plane; ++i) out[i] += wv * in[i];
          continue;
        }
        for (int64_t kh = 0; kh < p.kernel_h; ++kh) {
          for (int64_t kw = 0; kw < p.kernel_w; ++kw) {
            AccumulateTap(p, in, w[kh * p.kernel_w + kw], kh, kw, out_h, out_w,
                          out);
          }
        }
      }
    }
  }
}

#ifdef ETBENCH_RUNTIME_CONV_EXTRA_WORK
// The two-builds test's extra work (conv_extra_work.h): the first quarter of
// the output channels computed `passes` times more into the same
// (contiguous, batch 1, ungrouped) output: same values, ~25% more real work
// per pass. Not inlined, and called with 0 passes too, so the kernel's code
// is the same whatever the amount.
[[gnu::noinline]] void RepeatFirstQuarter(const Conv2dParams& p, const float* input,
                                          const float* weight, const float* bias,
                                          float* output, float* scratch, int passes) {
  if (p.batch != 1 || p.groups != 1 || p.out_channels < 4) return;
  Conv2dParams quarter = p;
  quarter.out_channels = p.out_channels / 4;
  for (int pass = 0; pass < passes; ++pass) {
    if (UsesIm2col(quarter)) {
      Conv2dIm2col(quarter, input, weight, bias, output, scratch);
    } else {
      ConvDirect(quarter, input, weight, bias, output);
    }
  }
}
#endif

}  // namespace

int64_t Conv2dScratchFloats(const Conv2dParams& p) {
  if (!UsesIm2col(p)) return 0;
  return p.in_channels * p.kernel_h * p.kernel_w * p.out_h() * p.out_w();
}

void Conv2d(const Conv2dParams& p, const float* input, const float* weight,
            const float* bias, float* output, float* scratch) {
#ifdef ETBENCH_RUNTIME_CONV_EXTRA_WORK
  RepeatFirstQuarter(p, input, weight, bias, output, scratch, kConvExtraQuarterPasses);
#endif
  if (UsesIm2col(p)) {
    Conv2dIm2col(p, input, weight, bias, output, scratch);
    return;
  }
  ConvDirect(p, input, weight, bias, output);
}

}  // namespace etbench::runtime::kernels
