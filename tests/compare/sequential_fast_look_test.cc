#include "etbench/compare/sequential_fast_look.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "etbench/compare/sequential.h"

namespace etbench {
namespace {

// One block from its four runs' log values in run order (ABBA or BAAB).
BlockContrast Block(bool a_first, double r1, double r2, double r3, double r4) {
  const double a1 = a_first ? r1 : r2, a2 = a_first ? r4 : r3;
  const double b1 = a_first ? r2 : r1, b2 = a_first ? r3 : r4;
  BlockContrast c;
  c.difference = 0.5 * (b1 + b2) - 0.5 * (a1 + a2);
  c.within_a = a1 - a2;
  c.within_b = b1 - b2;
  c.a_first = a_first;
  return c;
}

// Simulated blocks: run noise `sigma`, B shifted by `effect`, and
// `position(p)` added to the run at position p of its block.
std::vector<BlockContrast> Simulate(std::mt19937_64& rng, std::size_t blocks, double sigma,
                                    double effect, double (*position)(int)) {
  std::normal_distribution<double> noise(0, sigma);
  std::bernoulli_distribution coin(0.5);
  std::vector<BlockContrast> out;
  for (std::size_t k = 0; k < blocks; ++k) {
    const bool a_first = coin(rng);
    double r[4];
    for (int p = 0; p < 4; ++p) {
      const bool is_b = (p == 0 || p == 3) != a_first;
      r[p] = noise(rng) + position(p) + (is_b ? effect : 0);
    }
    out.push_back(Block(a_first, r[0], r[1], r[2], r[3]));
  }
  return out;
}

// The blocks up to the fast look as AbSequence takes it: the first prefix
// of at least kFastLookBlocks with each order twice (all of them if none).
std::vector<BlockContrast> UpToTheFastLook(const std::vector<BlockContrast>& blocks) {
  std::vector<bool> orders;
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    orders.push_back(blocks[k].a_first);
    if (k + 1 >= kFastLookBlocks && FastLookOrdersBalanced(orders)) {
      return {blocks.begin(), blocks.begin() + static_cast<std::ptrdiff_t>(k + 1)};
    }
  }
  return blocks;
}

double NoPosition(int) { return 0; }
double FirstRunSlower(int p) { return p == 0 ? std::log(1.05) : 0; }
double OuterRunsSlower(int p) { return p == 0 || p == 3 ? std::log(1.05) : 0; }

TEST(OrderBalancedTTest, NeedsEachOrderTwice) {
  const std::vector<BlockContrast> same = {Block(true, 0, 0.3, 0.31, 0.01),
                                           Block(true, 0.01, 0.3, 0.3, 0),
                                           Block(true, 0, 0.29, 0.3, 0.01)};
  EXPECT_FALSE(OrderBalancedT(same).usable);
  EXPECT_EQ(OrderBalancedT(same).p_value, 1);
  const std::vector<BlockContrast> two = {Block(true, 0, 0.3, 0.31, 0.01),
                                          Block(false, 0.3, 0.01, 0, 0.3)};
  EXPECT_FALSE(OrderBalancedT(two).usable);
  // Three of one order and one of the other: the lone block would be its
  // order's whole mean.
  const std::vector<BlockContrast> lone = {Block(true, 0, 0.3, 0.31, 0.01),
                                           Block(true, 0.01, 0.3, 0.3, 0),
                                           Block(true, 0, 0.29, 0.3, 0.01),
                                           Block(false, 0.3, 0.01, 0, 0.3)};
  EXPECT_FALSE(OrderBalancedT(lone).usable);
  std::vector<BlockContrast> balanced = lone;
  balanced.push_back(Block(false, 0.31, 0, 0.01, 0.3));
  EXPECT_TRUE(OrderBalancedT(balanced).usable);
  EXPECT_LT(OrderBalancedT(balanced).p_value, 1e-6);
}

// A first run 5% slower makes every ABBA block say "B faster" and every
// BAAB block "B slower" by the same amount: with no noise a plain t-test
// over three ABBA blocks would see identical differences; the balanced
// estimate cancels the position exactly.
TEST(OrderBalancedTTest, APositionEffectCancels) {
  const double first = std::log(1.05);
  std::vector<BlockContrast> blocks;
  for (bool a_first : {true, true, true, false, false}) {
    blocks.push_back(Block(a_first, first, 0.0001, -0.0001, 0));
  }
  const StudentizedLook look = OrderBalancedT(blocks);
  EXPECT_NEAR(look.estimate, 0, 1e-12);
  EXPECT_GT(look.p_value, 0.05);
}

TEST(OrderBalancedTTest, ALargeChangeIsDecidedWithItsInterval) {
  std::mt19937_64 rng(7);
  const std::vector<BlockContrast> blocks =
      UpToTheFastLook(Simulate(rng, 8, 0.01, std::log(1.3), FirstRunSlower));
  const StudentizedLook look = OrderBalancedT(blocks);
  ASSERT_TRUE(look.usable);
  EXPECT_LT(look.p_value, 1e-4);
  const auto ci = StudentizedInterval(look, 0.01, 0.25);
  EXPECT_GT(ci.first, 0);
  EXPECT_LT(ci.first, std::log(1.3));
  EXPECT_GT(ci.second, std::log(1.3));
}

// The guard: a block whose difference, corrected for its order, has the
// other sign makes the look test nothing, however large the mean.
TEST(OrderBalancedTTest, ABlockOfTheOtherSignStopsTheLook) {
  std::vector<BlockContrast> blocks = {Block(true, 0, 0.3, 0.3, 0), Block(false, 0.3, 0, 0, 0.3),
                                       Block(true, 0, 0.31, 0.29, 0),
                                       Block(false, 0, 0.3, 0.3, 0)};
  EXPECT_LT(blocks[3].difference, 0);
  const StudentizedLook look = OrderBalancedT(blocks);
  EXPECT_FALSE(look.usable);
  EXPECT_EQ(look.p_value, 1);
  const auto ci = StudentizedInterval(look, 0.05);
  EXPECT_TRUE(std::isinf(ci.first) && std::isinf(ci.second));
}

TEST(OrderBalancedTTest, IntervalExcludesZeroExactlyWhenPIsBelowTheLevel) {
  std::mt19937_64 rng(11);
  int checked = 0;
  for (int i = 0; i < 3000; ++i) {
    const auto blocks = UpToTheFastLook(Simulate(rng, 8, 0.01, 0.01 * (i % 7), NoPosition));
    const StudentizedLook look = OrderBalancedT(blocks);
    if (!look.usable) continue;
    for (double a : {0.05, 0.01, 0.001}) {
      const auto ci = StudentizedInterval(look, a, 1.0 / 7);
      EXPECT_EQ(ci.first > 0 || ci.second < 0, look.p_value * 7 <= a);
      ++checked;
    }
  }
  EXPECT_GT(checked, 1000);
}

// The guards on fixed seeds: under nulls that make every block difference
// look alike (a first run +5%; first and last runs +5%, which the pairs
// within a side cannot see), the look rejects at most at its level. The
// full evaluation (a million looks per null, the 95% upper bounds) is
// gate_quality --fast-look-nulls.
TEST(OrderBalancedTTest, PositionNullsStayWithinTheLevelOnFixedSeeds) {
  for (double (*position)(int) : {FirstRunSlower, OuterRunsSlower}) {
    for (uint64_t seed : {1u, 2u, 3u}) {
      std::mt19937_64 rng(seed);
      const int trials = 4000;
      int fast = 0, plain = 0;
      for (int t = 0; t < trials; ++t) {
        const auto all = Simulate(rng, 8, 0.005, 0, position);
        fast += OrderBalancedT(UpToTheFastLook(all)).p_value <= 0.05;
        // A plain t-test's view of the first 4 blocks, whatever their
        // orders: count the looks where all differences share a sign.
        bool pos = true, neg = true;
        for (std::size_t k = 0; k < kFastLookBlocks; ++k) {
          const BlockContrast& b = all[k];
          pos = pos && b.difference > 0;
          neg = neg && b.difference < 0;
        }
        plain += pos || neg;
      }
      // 5% of 4000 = 200, plus three binomial standard deviations.
      EXPECT_LE(fast, 241) << "seed " << seed;
      EXPECT_GT(plain, 400) << "the null did not bite, seed " << seed;
    }
  }
}

TEST(OrderBalancedTTest, TheFastLookIsTheFirstLookOfASequentialInference) {
  std::mt19937_64 rng(5);
  const auto blocks = Simulate(rng, 20, 0.01, std::log(1.3), NoPosition);
  std::vector<double> d;
  for (const auto& b : blocks) d.push_back(b.difference);
  SequentialDesign design;
  design.planned_looks = 3;
  design.fast_blocks = kFastLookBlocks;
  design.AddLook(kFastLookBlocks, false);
  const std::vector<BlockContrast> first = UpToTheFastLook(blocks);
  const StudentizedLook look = OrderBalancedT(first);
  ASSERT_TRUE(look.usable);
  design.fast_blocks = first.size();
  design.looks.clear();
  design.AddLook(first.size(), false);
  const SequentialSignedRank with(d, design, &blocks);
  EXPECT_DOUBLE_EQ(with.p_value(), std::min(1.0, look.p_value * 3));
  EXPECT_DOUBLE_EQ(with.estimate(), look.estimate);
  // Without contrasts the fast look tests nothing.
  const SequentialSignedRank without(d, design);
  EXPECT_EQ(without.p_value(), 1);
}

}  // namespace
}  // namespace etbench
