#include "exec/prng.h"

#include <vector>

#include <gtest/gtest.h>

namespace etbench::runtime {
namespace {

TEST(RuntimePrngTest, SplitMix64MatchesTheReferenceSequence) {
  // Published outputs of SplitMix64 seeded with 0.
  SplitMix64 rng(0);
  EXPECT_EQ(rng.Next(), 0xE220A8397B1DCDAFull);
  EXPECT_EQ(rng.Next(), 0x6E789E6AA1B965F4ull);
  EXPECT_EQ(rng.Next(), 0x06C45D188009454Full);
}

TEST(RuntimePrngTest, FillUniformIsDeterministicBoundedAndSeedDependent) {
  std::vector<float> a(1000), b(1000), c(1000), d(1000);
  FillUniform(7, "conv1.weight", 0.0f, 0.5f, a.data(), 1000);
  FillUniform(7, "conv1.weight", 0.0f, 0.5f, b.data(), 1000);
  FillUniform(8, "conv1.weight", 0.0f, 0.5f, c.data(), 1000);
  FillUniform(7, "conv2.weight", 0.0f, 0.5f, d.data(), 1000);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_NE(a, d);
  double sum = 0;
  for (float v : a) {
    EXPECT_GE(v, -0.5f);
    EXPECT_LT(v, 0.5f);
    sum += v;
  }
  EXPECT_NEAR(sum / 1000, 0.0, 0.05);
}

TEST(RuntimePrngTest, FillUniformHonoursTheOffset) {
  std::vector<float> a(100);
  FillUniform(1, "ln.weight", 1.0f, 0.1f, a.data(), 100);
  for (float v : a) {
    EXPECT_GE(v, 0.9f);
    EXPECT_LT(v, 1.1f);
  }
}

TEST(RuntimePrngTest, HashNameIsFnv1a) {
  EXPECT_EQ(HashName(""), 0xCBF29CE484222325ull);
  EXPECT_EQ(HashName("a"), 0xAF63DC4C8601EC8Cull);
}

}  // namespace
}  // namespace etbench::runtime
