#include "etbench/compare/verdict.h"

#include <gtest/gtest.h>

namespace etbench {
namespace {

TEST(VerdictTest, NamesAreStable) {
  EXPECT_STREQ(VerdictName(Verdict::kRegression), "regression");
  EXPECT_STREQ(VerdictName(Verdict::kImprovement), "improvement");
  EXPECT_STREQ(VerdictName(Verdict::kUnchanged), "unchanged");
  EXPECT_STREQ(VerdictName(Verdict::kInconclusive), "inconclusive");
}

TEST(VerdictTest, TooFewSamplesOnEitherSide) {
  EXPECT_FALSE(TooFewSamples(50, 5, 5));
  EXPECT_TRUE(TooFewSamples(50, 4, 5));
  EXPECT_TRUE(TooFewSamples(4, 50, 5));
  EXPECT_TRUE(TooFewSamples(0, 3, 0));  // an empty side is never enough
}

}  // namespace
}  // namespace etbench
