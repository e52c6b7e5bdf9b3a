#include "etbench/compare/machine_level.h"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

namespace etbench {
namespace {

TEST(MachineLevelTest, TheMedianLogRatioFollowsTheMachineNotOneMetric) {
  // Run 2 is 2× slower for every metric but one, which is 8× faster there.
  RunSeries a{{1, 1, 2, 1}, {0, 1, 2, 3}}, b{{4, 4, 8, 4}, {0, 1, 2, 3}},
      c{{3, 3, 0.375, 3}, {0, 1, 2, 3}};
  const std::vector<double> level = MachineLevel({&a, &b, &c}, 4, 3);
  EXPECT_NEAR(level[2], std::log(2.0), 1e-12);
  EXPECT_NEAR(level[0], 0, 1e-12);
  EXPECT_TRUE(std::isnan(MachineLevel({&a, &b}, 4, 3)[2]));  // too few metrics
}

TEST(MachineLevelTest, LevelsWithinTheReferenceRunsNoiseAreNoShift) {
  // Reference runs 0..5 wobble by ~1% (median 0.2%, 1.4826·MAD ≈ 1.1%);
  // run 6 moves by 0.5% (noise), run 7 by 12% (a shift).
  const std::vector<double> level = {0.01, -0.01, 0.0, 0.012, -0.008, 0.004, 0.005, 0.12,
                                     std::nan("")};
  EXPECT_TRUE(WithinLevelNoise(level, 6, 6));
  EXPECT_FALSE(WithinLevelNoise(level, 6, 7));
  EXPECT_TRUE(WithinLevelNoise(level, 6, 7, 20));  // a larger k calls less a shift
  EXPECT_FALSE(WithinLevelNoise(level, 6, 8));     // no level
  EXPECT_FALSE(WithinLevelNoise(level, 6, 9));     // no run
  EXPECT_FALSE(WithinLevelNoise(level, 2, 6));     // 2 reference runs cannot say
}

TEST(MachineLevelTest, MedianOfEvenAndOddCounts) {
  EXPECT_EQ(MedianOf({3, 1, 2}), 2);
  EXPECT_EQ(MedianOf({4, 1, 3, 2}), 2.5);
}

}  // namespace
}  // namespace etbench
