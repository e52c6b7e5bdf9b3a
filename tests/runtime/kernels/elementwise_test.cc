#include <cmath>

#include <gtest/gtest.h>

#include "etbench/runtime/kernels.h"
#include "kernels/random_tensor.h"

namespace etbench::runtime::kernels {
namespace {

using testing::ExpectNear;
using testing::RandomTensor;

std::vector<float> Scaled(std::vector<float> v, float factor) {
  for (float& x : v) x *= factor;
  return v;
}

TEST(RuntimeElementwiseTest, ReluAndHardtanhClampLikeTheReference) {
  const auto in = Scaled(RandomTensor(257, 1), 10.0f);
  std::vector<float> relu(in.size()), relu6(in.size());
  Relu(in.data(), relu.data(), 257);
  Hardtanh(in.data(), relu6.data(), 257, 0.0f, 6.0f);
  for (std::size_t i = 0; i < in.size(); ++i) {
    EXPECT_EQ(relu[i], in[i] > 0 ? in[i] : 0.0f);
    EXPECT_EQ(relu6[i], std::fmin(std::fmax(in[i], 0.0f), 6.0f));
  }
}

TEST(RuntimeElementwiseTest, ReluWorksInPlace) {
  std::vector<float> data = {-1.0f, 2.0f, -3.0f};
  Relu(data.data(), data.data(), 3);
  EXPECT_EQ(data, (std::vector<float>{0.0f, 2.0f, 0.0f}));
}

TEST(RuntimeElementwiseTest, GeluMatchesBothDefinitions) {
  const auto in = Scaled(RandomTensor(100, 2), 4.0f);
  std::vector<float> exact(in.size()), tanh_approx(in.size());
  Gelu(in.data(), exact.data(), 100, GeluApproximation::kNone);
  Gelu(in.data(), tanh_approx.data(), 100, GeluApproximation::kTanh);
  std::vector<float> want_exact, want_tanh;
  for (float x : in) {
    const double v = x;
    want_exact.push_back(
        static_cast<float>(0.5 * v * (1.0 + std::erf(v / std::sqrt(2.0)))));
    constexpr double kPi = 3.14159265358979323846;
    const double inner = std::sqrt(2.0 / kPi) * (v + 0.044715 * v * v * v);
    want_tanh.push_back(static_cast<float>(0.5 * v * (1.0 + std::tanh(inner))));
  }
  ExpectNear(want_exact, exact, 1e-5);
  ExpectNear(want_tanh, tanh_approx, 1e-5);
}

TEST(RuntimeElementwiseTest, BroadcastShapesFollowsNumpyRules) {
  Shape out;
  ASSERT_TRUE(BroadcastShapes({2, 1, 4}, {3, 1}, &out));
  EXPECT_EQ(out, (Shape{2, 3, 4}));
  ASSERT_TRUE(BroadcastShapes({5}, {}, &out));
  EXPECT_EQ(out, (Shape{5}));
  EXPECT_FALSE(BroadcastShapes({2, 3}, {4}, &out));
}

// out[i,j,k] = a[...] op b[...] with size-1 dims repeated.
template <typename Op>
std::vector<float> NaiveBroadcast(const std::vector<float>& a, const Shape& as,
                                  const std::vector<float>& b, const Shape& bs,
                                  const Shape& os, Op op) {
  const std::size_t rank = os.size();
  std::vector<float> out;
  std::vector<int64_t> index(rank, 0);
  auto offset = [&](const Shape& shape) {
    int64_t flat = 0;
    const std::size_t lead = rank - shape.size();
    for (std::size_t d = 0; d < shape.size(); ++d) {
      flat = flat * shape[d] + (shape[d] == 1 ? 0 : index[lead + d]);
    }
    return flat;
  };
  for (int64_t n = 0; n < NumElements(os); ++n) {
    out.push_back(op(a[offset(as)], b[offset(bs)]));
    for (int d = static_cast<int>(rank) - 1; d >= 0; --d) {
      if (++index[d] < os[d]) break;
      index[d] = 0;
    }
  }
  return out;
}

TEST(RuntimeElementwiseTest, AddAndMulBroadcastLikeNumpy) {
  const std::vector<std::pair<Shape, Shape>> cases = {
      {{2, 3, 4}, {2, 3, 4}}, {{2, 3, 4}, {4}},    {{2, 1, 4}, {3, 1}},
      {{1, 5}, {3, 1}},       {{3, 1, 2}, {1}},    {{1}, {2, 2}},
  };
  for (const auto& [as, bs] : cases) {
    Shape os;
    ASSERT_TRUE(BroadcastShapes(as, bs, &os));
    const auto a = RandomTensor(NumElements(as), 3);
    const auto b = RandomTensor(NumElements(bs), 4);
    std::vector<float> sum(NumElements(os)), product(NumElements(os));
    Add(a.data(), as, b.data(), bs, sum.data(), os);
    Mul(a.data(), as, b.data(), bs, product.data(), os);
    EXPECT_EQ(NaiveBroadcast(a, as, b, bs, os,
                             [](float x, float y) { return x + y; }),
              sum);
    EXPECT_EQ(NaiveBroadcast(a, as, b, bs, os,
                             [](float x, float y) { return x * y; }),
              product);
  }
}

}  // namespace
}  // namespace etbench::runtime::kernels
