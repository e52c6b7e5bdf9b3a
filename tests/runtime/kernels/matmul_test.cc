#include <gtest/gtest.h>

#include "etbench/runtime/kernels.h"
#include "kernels/random_tensor.h"

namespace etbench::runtime::kernels {
namespace {

using testing::ExpectNear;
using testing::RandomTensor;

std::vector<float> NaiveAddmm(int64_t m, int64_t k, int64_t n,
                              const std::vector<float>* bias,
                              const std::vector<float>& a,
                              const std::vector<float>& b) {
  std::vector<float> out(m * n);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double sum = bias != nullptr ? (*bias)[j] : 0.0;
      for (int64_t kk = 0; kk < k; ++kk) {
        sum += static_cast<double>(a[i * k + kk]) * b[kk * n + j];
      }
      out[i * n + j] = static_cast<float>(sum);
    }
  }
  return out;
}

TEST(RuntimeMatmulTest, AddmmWithBiasMatchesNaive) {
  const int64_t m = 5, k = 17, n = 9;
  const auto a = RandomTensor(m * k, 1);
  const auto b = RandomTensor(k * n, 2);
  const auto bias = RandomTensor(n, 3);
  std::vector<float> out(m * n, 7.0f);
  Addmm(m, k, n, bias.data(), a.data(), b.data(), out.data());
  ExpectNear(NaiveAddmm(m, k, n, &bias, a, b), out);
}

TEST(RuntimeMatmulTest, MmWithoutBiasMatchesNaive) {
  const int64_t m = 1, k = 33, n = 3;
  const auto a = RandomTensor(m * k, 4);
  const auto b = RandomTensor(k * n, 5);
  std::vector<float> out(m * n, 7.0f);
  Addmm(m, k, n, nullptr, a.data(), b.data(), out.data());
  ExpectNear(NaiveAddmm(m, k, n, nullptr, a, b), out);
}

TEST(RuntimeMatmulTest, BmmMultipliesEachBatchIndependently) {
  const int64_t batch = 3, m = 4, k = 6, n = 5;
  const auto a = RandomTensor(batch * m * k, 6);
  const auto b = RandomTensor(batch * k * n, 7);
  std::vector<float> out(batch * m * n);
  Bmm(batch, m, k, n, a.data(), b.data(), out.data());
  for (int64_t i = 0; i < batch; ++i) {
    const std::vector<float> ai(a.begin() + i * m * k, a.begin() + (i + 1) * m * k);
    const std::vector<float> bi(b.begin() + i * k * n, b.begin() + (i + 1) * k * n);
    const std::vector<float> oi(out.begin() + i * m * n,
                                out.begin() + (i + 1) * m * n);
    ExpectNear(NaiveAddmm(m, k, n, nullptr, ai, bi), oi);
  }
}

// out[j0..jr] = in[i_dims[0]..] with out index j and input index i related
// by i[dims[d]] = j[d].
std::vector<float> NaivePermute(const std::vector<float>& in, const Shape& sizes,
                                const std::vector<int64_t>& dims) {
  const std::size_t rank = sizes.size();
  Shape out_sizes(rank);
  for (std::size_t d = 0; d < rank; ++d) out_sizes[d] = sizes[dims[d]];
  std::vector<float> out(in.size());
  std::vector<int64_t> j(rank, 0);
  for (std::size_t flat = 0; flat < out.size(); ++flat) {
    std::vector<int64_t> i(rank);
    for (std::size_t d = 0; d < rank; ++d) i[dims[d]] = j[d];
    int64_t offset = 0;
    for (std::size_t d = 0; d < rank; ++d) offset = offset * sizes[d] + i[d];
    out[flat] = in[offset];
    for (int d = static_cast<int>(rank) - 1; d >= 0; --d) {
      if (++j[d] < out_sizes[d]) break;
      j[d] = 0;
    }
  }
  return out;
}

TEST(RuntimeMatmulTest, PermuteCopyMatchesNaiveForRanks2To4) {
  const std::vector<std::pair<Shape, std::vector<int64_t>>> cases = {
      {{3, 5}, {1, 0}},
      {{2, 3, 4}, {0, 2, 1}},
      {{2, 3, 4}, {2, 0, 1}},
      {{2, 3, 4, 5}, {0, 2, 3, 1}},
      {{2, 3, 4, 5}, {3, 2, 1, 0}},
      {{4, 6}, {0, 1}},
  };
  for (const auto& [sizes, dims] : cases) {
    const auto in = RandomTensor(NumElements(sizes), 8);
    std::vector<float> out(in.size());
    PermuteCopy(in.data(), sizes, dims, out.data());
    EXPECT_EQ(NaivePermute(in, sizes, dims), out);
  }
}

}  // namespace
}  // namespace etbench::runtime::kernels
