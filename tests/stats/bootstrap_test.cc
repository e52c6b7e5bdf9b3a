#include "etbench/stats/bootstrap.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

#include "etbench/stats/rng.h"
#include "support/test_support.h"

namespace etbench {
namespace {

// Frequencies of the (lower, upper) order-statistic indices of ordinary
// bootstrap resamples (n draws with replacement, sorted).
std::map<std::pair<uint32_t, uint32_t>, double> NaivePairs(std::size_t n, double q, int draws) {
  const double h = (static_cast<double>(n) - 1) * q;
  const std::size_t k = static_cast<std::size_t>(std::floor(h));
  std::mt19937_64 rng(7);
  std::map<std::pair<uint32_t, uint32_t>, double> freq;
  std::vector<uint32_t> idx(n);
  for (int d = 0; d < draws; ++d) {
    for (auto& i : idx) i = static_cast<uint32_t>(rng() % n);
    std::sort(idx.begin(), idx.end());
    const uint32_t hi = k + 1 < n && h > static_cast<double>(k) ? idx[k + 1] : idx[k];
    freq[{idx[k], hi}] += 1.0 / draws;
  }
  return freq;
}

void ExpectMatchesNaive(std::size_t n, double q) {
  const OrderStatisticSampler sampler(n, q);
  double total = 0;
  std::map<std::pair<uint32_t, uint32_t>, double> exact;
  for (std::size_t i = 0; i < sampler.pairs().size(); ++i) {
    exact[sampler.pairs()[i]] += sampler.probabilities()[i];
    total += sampler.probabilities()[i];
  }
  EXPECT_NEAR(total, 1.0, 1e-12);
  const auto naive = NaivePairs(n, q, 400000);
  for (const auto& [pair, p] : naive) {
    EXPECT_NEAR(exact[pair], p, 0.004) << "n=" << n << " q=" << q << " pair " << pair.first
                                       << "," << pair.second;
  }
  for (const auto& [pair, p] : exact) {
    if (p > 0.004) {
      EXPECT_TRUE(naive.count(pair)) << pair.first << "," << pair.second;
    }
  }
}

TEST(BootstrapTest, OrderStatisticDistributionMatchesOrdinaryResampling) {
  ExpectMatchesNaive(2, 0.5);
  ExpectMatchesNaive(6, 0.5);
  ExpectMatchesNaive(7, 0.5);
  ExpectMatchesNaive(7, 0.1);
  ExpectMatchesNaive(10, 0.9);
  ExpectMatchesNaive(5, 0.0);
  ExpectMatchesNaive(5, 1.0);
}

TEST(BootstrapTest, TwoPointMedianHasTheTextbookDistribution) {
  // Resamples of {x1, x2}: (x1,x1) 1/4, (x1,x2) 1/2, (x2,x2) 1/4.
  const OrderStatisticSampler sampler(2, 0.5);
  std::map<std::pair<uint32_t, uint32_t>, double> exact;
  for (std::size_t i = 0; i < sampler.pairs().size(); ++i) {
    exact[sampler.pairs()[i]] = sampler.probabilities()[i];
  }
  EXPECT_NEAR((exact[{0, 0}]), 0.25, 1e-12);
  EXPECT_NEAR((exact[{0, 1}]), 0.5, 1e-12);
  EXPECT_NEAR((exact[{1, 1}]), 0.25, 1e-12);
}

TEST(BootstrapTest, MinimumHasClosedFormDistribution) {
  // P(min index ≤ a) = 1 − (1 − (a+1)/n)^n.
  const std::size_t n = 8;
  const OrderStatisticSampler sampler(n, 0.0);
  std::vector<double> pmf(n, 0);
  for (std::size_t i = 0; i < sampler.pairs().size(); ++i) {
    pmf[sampler.pairs()[i].first] += sampler.probabilities()[i];
  }
  double cdf = 0;
  for (std::size_t a = 0; a < n; ++a) {
    cdf += pmf[a];
    EXPECT_NEAR(cdf, 1 - std::pow(1 - static_cast<double>(a + 1) / n, n), 1e-12);
  }
}

TEST(BootstrapTest, LargeSamplesBuildQuickly) {
  const OrderStatisticSampler sampler(5000, 0.5);
  double total = 0;
  for (double p : sampler.probabilities()) total += p;
  EXPECT_NEAR(total, 1.0, 1e-9);
  EXPECT_LT(sampler.pairs().size(), 100000u);
}

TEST(BootstrapTest, IntervalIsReproducibleAndCoversTheShift) {
  auto b = testing::LogNormalSamples(100, 1.0, 0.05, 1);
  auto c = testing::LogNormalSamples(100, 1.10, 0.05, 2);
  std::sort(b.begin(), b.end());
  std::sort(c.begin(), c.end());
  BootstrapCache cache;
  const BootstrapSettings settings{2000, 0.95};
  const auto i1 = BootstrapChangeInterval(b, c, Statistic::kP50, ChangeScale::kRelative, settings,
                                          42, cache);
  const auto i2 = BootstrapChangeInterval(b, c, Statistic::kP50, ChangeScale::kRelative, settings,
                                          42, cache);
  EXPECT_EQ(i1.low, i2.low);
  EXPECT_EQ(i1.high, i2.high);
  EXPECT_LT(i1.low, 0.10);
  EXPECT_GT(i1.high, 0.10);
  EXPECT_GT(i1.low, 0.05);
  EXPECT_GT(i1.standard_error, 0);
  // avg uses ordinary resampling; the absolute scale is in the unit.
  const auto avg = BootstrapChangeInterval(b, c, Statistic::kAvg, ChangeScale::kAbsolute,
                                           settings, 42, cache);
  EXPECT_LT(avg.low, 0.10);
  EXPECT_GT(avg.high, 0.10);
}

TEST(BootstrapTest, IntervalEndsAreNumpyPercentilesOfTheReplicates) {
  // With a constant baseline the replicates are the candidate's resampled
  // medians (relative to 1): check the ends against a full sort.
  const std::vector<double> b(9, 1.0);
  std::vector<double> c;
  for (int i = 0; i < 9; ++i) c.push_back(1.0 + 0.01 * i * i);
  BootstrapCache cache;
  const BootstrapSettings settings{1001, 0.9};
  const auto interval = BootstrapChangeInterval(b, c, Statistic::kP50, ChangeScale::kRelative,
                                                settings, 5, cache);
  // Recompute the same replicates with the same seed and samplers.
  internal::Xoshiro256 rng(5);
  std::vector<double> replicates;
  for (int i = 0; i < 1001; ++i) {
    const double rb = cache.Sampler(9, Statistic::kP50).Sample(b, rng.Next());
    const double rc = cache.Sampler(9, Statistic::kP50).Sample(c, rng.Next());
    replicates.push_back((rc - rb) / rb);
  }
  std::sort(replicates.begin(), replicates.end());
  auto percentile = [&](double q) {
    const double h = (replicates.size() - 1) * q;
    const std::size_t k = static_cast<std::size_t>(h);
    return replicates[k] + (h - k) * (replicates[std::min(k + 1, replicates.size() - 1)] - replicates[k]);
  };
  EXPECT_DOUBLE_EQ(interval.low, percentile(0.05));
  EXPECT_DOUBLE_EQ(interval.high, percentile(0.95));
}

TEST(BootstrapTest, ConstantSamplesGiveAPointInterval) {
  const std::vector<double> b(10, 2.0), c(10, 3.0);
  BootstrapCache cache;
  const auto i = BootstrapChangeInterval(b, c, Statistic::kP50, ChangeScale::kRelative,
                                         {500, 0.95}, 1, cache);
  EXPECT_DOUBLE_EQ(i.low, 0.5);
  EXPECT_DOUBLE_EQ(i.high, 0.5);
  EXPECT_DOUBLE_EQ(i.standard_error, 0);
}

}  // namespace
}  // namespace etbench
