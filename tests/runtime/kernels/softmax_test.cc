#include <cmath>

#include <gtest/gtest.h>

#include "etbench/runtime/kernels.h"
#include "kernels/random_tensor.h"

namespace etbench::runtime::kernels {
namespace {

using testing::ExpectNear;
using testing::RandomTensor;

std::vector<float> NaiveSoftmax(const std::vector<float>& in, int64_t outer,
                                int64_t dim, int64_t inner) {
  std::vector<float> out(in.size());
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      double sum = 0;
      for (int64_t d = 0; d < dim; ++d) {
        sum += std::exp(static_cast<double>(in[(o * dim + d) * inner + i]));
      }
      for (int64_t d = 0; d < dim; ++d) {
        const int64_t at = (o * dim + d) * inner + i;
        out[at] = static_cast<float>(std::exp(static_cast<double>(in[at])) / sum);
      }
    }
  }
  return out;
}

TEST(RuntimeSoftmaxTest, LastDimensionMatchesNaive) {
  const auto in = RandomTensor(4 * 7, 1);
  std::vector<float> out(in.size());
  Softmax(in.data(), 4, 7, 1, out.data());
  ExpectNear(NaiveSoftmax(in, 4, 7, 1), out, 1e-5);
}

TEST(RuntimeSoftmaxTest, MiddleDimensionMatchesNaive) {
  const auto in = RandomTensor(3 * 5 * 4, 2);
  std::vector<float> out(in.size());
  Softmax(in.data(), 3, 5, 4, out.data());
  ExpectNear(NaiveSoftmax(in, 3, 5, 4), out, 1e-5);
}

TEST(RuntimeSoftmaxTest, LargeInputsDoNotOverflow) {
  const std::vector<float> in = {1000.0f, 1001.0f, 999.0f};
  std::vector<float> out(3);
  Softmax(in.data(), 1, 3, 1, out.data());
  for (float v : out) EXPECT_TRUE(std::isfinite(v));
  EXPECT_NEAR(out[0] + out[1] + out[2], 1.0f, 1e-6);
  EXPECT_GT(out[1], out[0]);
}

}  // namespace
}  // namespace etbench::runtime::kernels
