#include "etbench/stats/paired_blocks.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>

namespace etbench {
namespace {

// P(T+ ≤ t) by enumerating every sign pattern.
double BruteForceCdf(std::size_t n, int t) {
  std::size_t count = 0;
  for (uint32_t mask = 0; mask < (1u << n); ++mask) {
    int sum = 0;
    for (std::size_t i = 0; i < n; ++i) sum += (mask >> i & 1u) ? static_cast<int>(i + 1) : 0;
    count += sum <= t;
  }
  return static_cast<double>(count) / static_cast<double>(1u << n);
}

TEST(SignedRankDistributionTest, ExactMatchesEnumeration) {
  for (std::size_t n = 1; n <= 12; ++n) {
    const SignedRankDistribution null(n);
    const int max_t = static_cast<int>(n * (n + 1) / 2);
    for (int t = -1; t <= max_t + 1; ++t) {
      EXPECT_NEAR(null.Cdf(t), BruteForceCdf(n, t), 1e-12) << "n=" << n << " t=" << t;
    }
  }
}

TEST(SignedRankDistributionTest, NormalApproximationBeyondTheExactRangeIsClose) {
  const std::size_t n = kSignedRankExactMax;
  const SignedRankDistribution exact(n), approximate(n + 1);
  // One more pair moves the mean by (n+1)/2: compare at the same z.
  const double mean = n * (n + 1) / 4.0, sd = std::sqrt(n * (n + 1) * (2.0 * n + 1) / 24);
  const double mean1 = (n + 1) * (n + 2) / 4.0,
               sd1 = std::sqrt((n + 1) * (n + 2) * (2.0 * n + 3) / 24);
  for (double z : {-3.0, -2.0, -1.0, 0.0, 1.5}) {
    EXPECT_NEAR(exact.Cdf(std::floor(mean + z * sd)), approximate.Cdf(std::floor(mean1 + z * sd1)),
                2e-3);
  }
}

TEST(SignedRankTest, AllPositiveDifferencesGiveTheSmallestP) {
  const std::vector<double> d{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8};
  const auto w = SortedWalshAverages(d);
  EXPECT_EQ(w.size(), 36u);
  const SignedRankDistribution null(d.size());
  const SignedRankInference r = SignedRank(w, null);
  EXPECT_DOUBLE_EQ(r.p_value, 2.0 / 256);
  EXPECT_DOUBLE_EQ(r.estimate, 0.45);  // median of the Walsh averages
}

TEST(SignedRankTest, ZerosCountAgainstTheEvidence) {
  const SignedRankDistribution null(6);
  EXPECT_EQ(SignedRank(SortedWalshAverages({0, 0, 0, 0, 0, 0}), null).p_value, 1.0);
}

// The contract the reports rely on: at every level and weight, the interval
// excludes 0 exactly when p / weight ≤ a.
TEST(SignedRankTest, IntervalExcludesZeroExactlyWhenPIsAtMostTheLevel) {
  std::mt19937_64 rng(3);
  std::normal_distribution<double> noise(0, 1);
  int excluded = 0, total = 0;
  for (std::size_t n : {3u, 6u, 7u, 10u, 15u, 30u}) {
    const SignedRankDistribution null(n);
    for (int trial = 0; trial < 200; ++trial) {
      std::vector<double> d(n);
      const double shift = 0.3 * (trial % 5);
      for (double& x : d) x = shift + noise(rng);
      if (trial % 7 == 0) d[0] = 0;  // a tie at zero
      const auto w = SortedWalshAverages(d);
      const double p = SignedRank(w, null).p_value;
      for (double a : {0.5, 0.1, 0.05, 0.01, 0.001, 2.0 / 64, 1.0 / 3}) {
        for (double weight : {1.0, 1.0 / 3, 0.25}) {
          const auto ci = SignedRankInterval(w, null, a, weight);
          const bool excludes = ci.first > 0 || ci.second < 0;
          EXPECT_EQ(excludes, p / weight <= a) << "n=" << n << " a=" << a << " p=" << p;
          EXPECT_LE(ci.first, ci.second);
          excluded += excludes;
          ++total;
        }
      }
    }
  }
  EXPECT_GT(excluded, total / 10);  // both cases were exercised
}

TEST(SignedRankTest, IntervalCoversTheShiftAtItsLevel) {
  std::mt19937_64 rng(11);
  std::student_t_distribution<double> heavy(3);
  const SignedRankDistribution null(12);
  int covered = 0;
  const int trials = 2000;
  for (int t = 0; t < trials; ++t) {
    std::vector<double> d(12);
    for (double& x : d) x = 0.05 + 0.02 * heavy(rng);
    const auto ci = SignedRankInterval(SortedWalshAverages(d), null, 0.1);
    covered += ci.first <= 0.05 && 0.05 <= ci.second;
  }
  // At least 90% (the discrete interval is conservative), within MC error.
  EXPECT_GE(covered, static_cast<int>(0.88 * trials));
}

}  // namespace
}  // namespace etbench
