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

TEST(MachineLevelTest, MedianOfEvenAndOddCounts) {
  EXPECT_EQ(MedianOf({3, 1, 2}), 2);
  EXPECT_EQ(MedianOf({4, 1, 3, 2}), 2.5);
}

}  // namespace
}  // namespace etbench
