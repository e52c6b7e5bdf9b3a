#include "etbench/inspector/debug_value.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace etbench {
namespace {

TEST(TensorByteSizeTest, MultipliesSizesAndElementSize) {
  EXPECT_EQ(TensorByteSize({2, 3}, 4).value(), 24u);
  EXPECT_EQ(TensorByteSize({}, 8).value(), 8u);  // a scalar tensor
  EXPECT_EQ(TensorByteSize({int64_t{1} << 30, 4}, 2).value(), uint64_t{1} << 33);
}

TEST(TensorByteSizeTest, AnyZeroDimensionIsEmptyEvenBesideHugeOnes) {
  const int64_t huge = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(TensorByteSize({0}, 4).value(), 0u);
  EXPECT_EQ(TensorByteSize({huge, huge, 0}, 8).value(), 0u);
}

TEST(TensorByteSizeTest, OverflowIsAnErrorNotAWrap) {
  const int64_t two_32 = int64_t{1} << 32;
  // Unchecked, 2^32 * 2^32 wraps to exactly 0.
  auto wrapped = TensorByteSize({two_32, two_32}, 1);
  ASSERT_FALSE(wrapped.ok());
  EXPECT_NE(wrapped.error().message.find("overflows 64 bits"), std::string::npos);
  EXPECT_NE(wrapped.error().message.find("dimension 1"), std::string::npos);
  // The element size is part of the product: 2^62 floats are 2^64 bytes.
  EXPECT_FALSE(TensorByteSize({int64_t{1} << 62}, 4).ok());
  // The largest representable size is fine.
  EXPECT_EQ(TensorByteSize({int64_t{1} << 61}, 4).value(), uint64_t{1} << 63);
}

TEST(TensorByteSizeTest, NegativeSizeIsAnErrorNamingTheDimension) {
  auto r = TensorByteSize({2, -3}, 4);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("negative tensor size -3 in dimension 1"), std::string::npos)
      << r.error().message;
}

}  // namespace
}  // namespace etbench
