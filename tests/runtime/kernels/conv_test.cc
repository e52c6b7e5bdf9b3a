#include <gtest/gtest.h>

#include "etbench/runtime/kernels.h"
#include "kernels/random_tensor.h"

namespace etbench::runtime::kernels {
namespace {

using testing::ExpectNear;
using testing::RandomTensor;

// The textbook definition, one output element at a time, in double.
std::vector<float> NaiveConv2d(const Conv2dParams& p,
                               const std::vector<float>& in,
                               const std::vector<float>& w,
                               const std::vector<float>* bias) {
  const int64_t oh_n = p.out_h();
  const int64_t ow_n = p.out_w();
  const int64_t cin_g = p.in_channels / p.groups;
  const int64_t cout_g = p.out_channels / p.groups;
  std::vector<float> out(p.batch * p.out_channels * oh_n * ow_n);
  for (int64_t n = 0; n < p.batch; ++n) {
    for (int64_t oc = 0; oc < p.out_channels; ++oc) {
      const int64_t g = oc / cout_g;
      for (int64_t oh = 0; oh < oh_n; ++oh) {
        for (int64_t ow = 0; ow < ow_n; ++ow) {
          double sum = bias != nullptr ? (*bias)[oc] : 0.0;
          for (int64_t icg = 0; icg < cin_g; ++icg) {
            const int64_t ic = g * cin_g + icg;
            for (int64_t kh = 0; kh < p.kernel_h; ++kh) {
              for (int64_t kw = 0; kw < p.kernel_w; ++kw) {
                const int64_t ih = oh * p.stride_h - p.pad_h + kh;
                const int64_t iw = ow * p.stride_w - p.pad_w + kw;
                if (ih < 0 || ih >= p.in_h || iw < 0 || iw >= p.in_w) continue;
                sum += static_cast<double>(
                           in[((n * p.in_channels + ic) * p.in_h + ih) * p.in_w +
                              iw]) *
                       w[((oc * cin_g + icg) * p.kernel_h + kh) * p.kernel_w +
                         kw];
              }
            }
          }
          out[((n * p.out_channels + oc) * oh_n + oh) * ow_n + ow] =
              static_cast<float>(sum);
        }
      }
    }
  }
  return out;
}

void CheckAgainstNaive(const Conv2dParams& p, bool with_bias) {
  const auto in = RandomTensor(p.batch * p.in_channels * p.in_h * p.in_w, 1);
  const auto w = RandomTensor(p.out_channels * (p.in_channels / p.groups) *
                                  p.kernel_h * p.kernel_w,
                              2);
  const auto bias = RandomTensor(p.out_channels, 3);
  std::vector<float> out(p.batch * p.out_channels * p.out_h() * p.out_w(),
                         123.0f);  // garbage: the kernel must overwrite it
  std::vector<float> scratch(static_cast<std::size_t>(Conv2dScratchFloats(p)));
  Conv2d(p, in.data(), w.data(), with_bias ? bias.data() : nullptr, out.data(),
         scratch.data());
  ExpectNear(NaiveConv2d(p, in, w, with_bias ? &bias : nullptr), out);
}

Conv2dParams Params(int64_t batch, int64_t cin, int64_t h, int64_t w,
                    int64_t cout, int64_t kh, int64_t kw, int64_t stride_h,
                    int64_t stride_w, int64_t pad_h, int64_t pad_w,
                    int64_t groups) {
  Conv2dParams p;
  p.batch = batch;
  p.in_channels = cin;
  p.in_h = h;
  p.in_w = w;
  p.out_channels = cout;
  p.kernel_h = kh;
  p.kernel_w = kw;
  p.stride_h = stride_h;
  p.stride_w = stride_w;
  p.pad_h = pad_h;
  p.pad_w = pad_w;
  p.groups = groups;
  return p;
}

TEST(RuntimeConv2dTest, DenseUnpaddedMatchesNaive) {
  CheckAgainstNaive(Params(1, 3, 9, 8, 4, 3, 3, 1, 1, 0, 0, 1), true);
}

TEST(RuntimeConv2dTest, StridedPaddedNonSquareMatchesNaive) {
  CheckAgainstNaive(Params(2, 3, 11, 7, 5, 3, 2, 2, 3, 1, 1, 1), true);
  CheckAgainstNaive(Params(1, 2, 6, 6, 3, 5, 5, 1, 1, 2, 2, 1), false);
}

TEST(RuntimeConv2dTest, DepthwiseWithPaddingMatchesNaive) {
  CheckAgainstNaive(Params(1, 6, 7, 9, 6, 3, 3, 1, 1, 1, 1, 6), false);
  CheckAgainstNaive(Params(1, 4, 8, 8, 4, 3, 3, 2, 2, 1, 1, 4), true);
}

TEST(RuntimeConv2dTest, DepthwiseWithChannelMultiplierMatchesNaive) {
  CheckAgainstNaive(Params(1, 3, 5, 5, 6, 3, 3, 1, 1, 1, 1, 3), true);
}

TEST(RuntimeConv2dTest, GroupedMatchesNaive) {
  CheckAgainstNaive(Params(2, 4, 6, 5, 6, 3, 1, 1, 1, 1, 0, 2), true);
}

TEST(RuntimeConv2dTest, PointwiseMatchesNaive) {
  CheckAgainstNaive(Params(2, 5, 4, 3, 7, 1, 1, 1, 1, 0, 0, 1), true);
}

TEST(RuntimeConv2dTest, KernelReachingOnlyPaddingGivesBias) {
  // A 1x1 input with padding 2 and kernel 3: most taps see only padding.
  CheckAgainstNaive(Params(1, 1, 1, 1, 2, 3, 3, 1, 1, 2, 2, 1), true);
}

TEST(RuntimeConv2dTest, OnlyDenseNonPointwiseNeedsScratch) {
  EXPECT_GT(Conv2dScratchFloats(Params(1, 3, 8, 8, 4, 3, 3, 1, 1, 0, 0, 1)), 0);
  EXPECT_EQ(Conv2dScratchFloats(Params(1, 4, 8, 8, 4, 3, 3, 1, 1, 0, 0, 4)), 0);
  EXPECT_EQ(Conv2dScratchFloats(Params(1, 4, 8, 8, 4, 1, 1, 1, 1, 0, 0, 1)), 0);
}

}  // namespace
}  // namespace etbench::runtime::kernels
