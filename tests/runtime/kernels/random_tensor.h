#pragma once
// Deterministic test data for kernel tests (no std distributions: their
// output differs between standard libraries).

#include <cmath>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

namespace etbench::runtime::testing {

/// `n` floats uniform in [-1, 1) from a fixed-seed xorshift.
inline std::vector<float> RandomTensor(int64_t n, uint64_t seed) {
  std::vector<float> data(static_cast<std::size_t>(n));
  uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
  for (float& value : data) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    value = static_cast<float>(state >> 40) / 8388608.0f - 1.0f;
  }
  return data;
}

/// Element-wise comparison with an absolute + relative tolerance.
inline void ExpectNear(const std::vector<float>& expected,
                       const std::vector<float>& actual,
                       double tolerance = 1e-4) {
  ASSERT_EQ(expected.size(), actual.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const double bound = tolerance * (1.0 + std::fabs(expected[i]));
    ASSERT_NEAR(expected[i], actual[i], bound) << "at element " << i;
  }
}

}  // namespace etbench::runtime::testing
