#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "etbench/runtime/kernels.h"
#include "kernels/random_tensor.h"

namespace etbench::runtime::kernels {
namespace {

using testing::ExpectNear;
using testing::RandomTensor;

Pool2dParams Params(int64_t channels, int64_t h, int64_t w, int64_t k,
                    int64_t stride, int64_t pad) {
  Pool2dParams p;
  p.batch = 2;
  p.channels = channels;
  p.in_h = h;
  p.in_w = w;
  p.kernel_h = p.kernel_w = k;
  p.stride_h = p.stride_w = stride;
  p.pad_h = p.pad_w = pad;
  return p;
}

void NaivePools(const Pool2dParams& p, const std::vector<float>& in,
                std::vector<float>* max_out, std::vector<int64_t>* max_index,
                std::vector<float>* avg_out) {
  for (int64_t plane = 0; plane < p.batch * p.channels; ++plane) {
    for (int64_t oh = 0; oh < p.out_h(); ++oh) {
      for (int64_t ow = 0; ow < p.out_w(); ++ow) {
        float best = -std::numeric_limits<float>::infinity();
        int64_t best_index = -1;
        double sum = 0;
        int64_t count = 0;
        for (int64_t kh = 0; kh < p.kernel_h; ++kh) {
          for (int64_t kw = 0; kw < p.kernel_w; ++kw) {
            const int64_t h = oh * p.stride_h - p.pad_h + kh;
            const int64_t w = ow * p.stride_w - p.pad_w + kw;
            // count_include_pad: cells inside the padded input count.
            if (h < p.in_h + p.pad_h && w < p.in_w + p.pad_w) ++count;
            if (h < 0 || h >= p.in_h || w < 0 || w >= p.in_w) continue;
            const float v = in[(plane * p.in_h + h) * p.in_w + w];
            sum += v;
            if (v > best) {
              best = v;
              best_index = h * p.in_w + w;
            }
          }
        }
        max_out->push_back(best);
        max_index->push_back(best_index);
        avg_out->push_back(static_cast<float>(sum / count));
      }
    }
  }
}

void CheckAgainstNaive(const Pool2dParams& p) {
  const auto in = RandomTensor(p.batch * p.channels * p.in_h * p.in_w, 11);
  std::vector<float> want_max, want_avg;
  std::vector<int64_t> want_index;
  NaivePools(p, in, &want_max, &want_index, &want_avg);
  std::vector<float> max_out(want_max.size()), avg_out(want_avg.size());
  std::vector<int64_t> index(want_index.size());
  MaxPool2dWithIndices(p, in.data(), max_out.data(), index.data());
  AvgPool2d(p, in.data(), avg_out.data());
  EXPECT_EQ(want_max, max_out);
  EXPECT_EQ(want_index, index);
  ExpectNear(want_avg, avg_out, 1e-5);
}

TEST(RuntimePoolTest, NonOverlappingWindowsMatchNaive) {
  CheckAgainstNaive(Params(3, 8, 6, 2, 2, 0));
}

TEST(RuntimePoolTest, OverlappingPaddedWindowsMatchNaive) {
  CheckAgainstNaive(Params(2, 7, 9, 3, 2, 1));
  CheckAgainstNaive(Params(1, 5, 5, 3, 1, 1));
}

TEST(RuntimePoolTest, OddSizeDropsTheIncompleteWindow) {
  const Pool2dParams p = Params(1, 5, 5, 2, 2, 0);
  EXPECT_EQ(p.out_h(), 2);
  CheckAgainstNaive(p);
}

TEST(RuntimePoolTest, MaxPoolPropagatesNan) {
  Pool2dParams p = Params(1, 2, 2, 2, 2, 0);
  p.batch = 1;
  const std::vector<float> in = {1.0f, std::nanf(""), 3.0f, 2.0f};
  float out = 0;
  int64_t index = 0;
  MaxPool2dWithIndices(p, in.data(), &out, &index);
  EXPECT_TRUE(std::isnan(out));
  EXPECT_EQ(index, 1);
}

}  // namespace
}  // namespace etbench::runtime::kernels
