#include <cmath>

#include <gtest/gtest.h>

#include "etbench/runtime/kernels.h"
#include "kernels/random_tensor.h"

namespace etbench::runtime::kernels {
namespace {

using testing::ExpectNear;
using testing::RandomTensor;

TEST(RuntimeLayerNormTest, MatchesNaiveWithAffineParameters) {
  const int64_t rows = 5, cols = 33;
  auto in = RandomTensor(rows * cols, 1);
  for (float& v : in) v = 3.0f + 2.0f * v;  // a non-zero mean
  const auto weight = RandomTensor(cols, 2);
  const auto bias = RandomTensor(cols, 3);
  const float eps = 1e-5f;
  std::vector<float> out(in.size()), mean(rows), rstd(rows);
  NativeLayerNorm(in.data(), rows, cols, weight.data(), bias.data(), eps,
                  out.data(), mean.data(), rstd.data());
  std::vector<float> want, want_mean, want_rstd;
  for (int64_t r = 0; r < rows; ++r) {
    double mu = 0, var = 0;
    for (int64_t c = 0; c < cols; ++c) mu += in[r * cols + c];
    mu /= cols;
    for (int64_t c = 0; c < cols; ++c) {
      var += (in[r * cols + c] - mu) * (in[r * cols + c] - mu);
    }
    var /= cols;
    const double inv = 1.0 / std::sqrt(var + eps);
    for (int64_t c = 0; c < cols; ++c) {
      want.push_back(static_cast<float>((in[r * cols + c] - mu) * inv *
                                            weight[c] +
                                        bias[c]));
    }
    want_mean.push_back(static_cast<float>(mu));
    want_rstd.push_back(static_cast<float>(inv));
  }
  ExpectNear(want, out, 1e-4);
  ExpectNear(want_mean, mean, 1e-6);
  ExpectNear(want_rstd, rstd, 1e-5);
}

TEST(RuntimeLayerNormTest, WithoutAffineRowsHaveZeroMeanUnitVariance) {
  const int64_t rows = 3, cols = 64;
  const auto in = RandomTensor(rows * cols, 4);
  std::vector<float> out(in.size()), mean(rows), rstd(rows);
  NativeLayerNorm(in.data(), rows, cols, nullptr, nullptr, 1e-5f, out.data(),
                  mean.data(), rstd.data());
  for (int64_t r = 0; r < rows; ++r) {
    double sum = 0, squares = 0;
    for (int64_t c = 0; c < cols; ++c) {
      sum += out[r * cols + c];
      squares += out[r * cols + c] * out[r * cols + c];
    }
    EXPECT_NEAR(sum / cols, 0.0, 1e-5);
    EXPECT_NEAR(squares / cols, 1.0, 1e-3);
  }
}

}  // namespace
}  // namespace etbench::runtime::kernels
