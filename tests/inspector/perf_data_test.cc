#include "etbench/inspector/perf_data.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace etbench {
namespace {

// Expected values worked out by hand with numpy's linear rule:
// v = (n-1)q, i = floor(v), g = v-i, lerp between x[i] and x[i+1].
TEST(PerfDataTest, PercentilesOddCount) {
  // sorted: 1 2 3 4 5; p10: v=0.4 → 1 + 1*0.4 = 1.4; p50: v=2 → 3;
  // p90: v=3.6, g>=0.5 → 5 - 1*(1-0.6) = 4.6
  PerfData p = PerfData::FromRaw({5, 1, 4, 2, 3});
  EXPECT_DOUBLE_EQ(p.p10, 1.4);
  EXPECT_EQ(p.p50, 3.0);
  EXPECT_DOUBLE_EQ(p.p90, 4.6);
  EXPECT_EQ(p.min, 1.0);
  EXPECT_EQ(p.max, 5.0);
  EXPECT_EQ(p.avg, 3.0);
  EXPECT_EQ(p.count, 5u);
  EXPECT_DOUBLE_EQ(p.stddev, std::sqrt(2.5));
  // raw stays in run order
  EXPECT_EQ(p.raw, (std::vector<double>{5, 1, 4, 2, 3}));
}

TEST(PerfDataTest, PercentilesEvenCount) {
  // sorted: 10 20 30 40; p10: v=0.3 → 13; p50: v=1.5 (g=0.5 → b-(b-a)*0.5) → 25;
  // p90: v=2.7 → 40 - 10*0.3 = 37
  PerfData p = PerfData::FromRaw({40, 10, 30, 20});
  EXPECT_DOUBLE_EQ(p.p10, 13.0);
  EXPECT_DOUBLE_EQ(p.p50, 25.0);
  EXPECT_DOUBLE_EQ(p.p90, 37.0);
  EXPECT_EQ(p.avg, 25.0);
}

TEST(PerfDataTest, SingleSample) {
  PerfData p = PerfData::FromRaw({0.125});
  EXPECT_EQ(p.p10, 0.125);
  EXPECT_EQ(p.p50, 0.125);
  EXPECT_EQ(p.p90, 0.125);
  EXPECT_EQ(p.avg, 0.125);
  EXPECT_EQ(p.stddev, 0.0);
}

TEST(PerfDataTest, PercentileBitExactLerpBranches) {
  // g < 0.5 uses a + (b-a)g; g >= 0.5 uses b - (b-a)(1-g): the two forms
  // differ in the last bit for these values.
  std::vector<double> sorted{0.1, 0.7};
  const double v90 = 1 * 0.9;  // g = 0.9
  EXPECT_EQ(Percentile(sorted, 90), 0.7 - (0.7 - 0.1) * (1 - v90));
  EXPECT_EQ(Percentile(sorted, 10), 0.1 + (0.7 - 0.1) * 0.1);
}

TEST(PerfDataTest, MeanUsesNumpyPairwiseSummation) {
  // 9 values: eight accumulators then one tail element, combined as
  // ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)) + x8.
  std::vector<double> x{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1e-17};
  const double expected =
      (((x[0] + x[1]) + (x[2] + x[3])) + ((x[4] + x[5]) + (x[6] + x[7]))) + x[8];
  EXPECT_EQ(NumpySum(x.data(), x.size()), expected);
  // Fewer than 8: a plain left-to-right loop from 0.
  std::vector<double> y{0.1, 0.2, 0.3};
  EXPECT_EQ(NumpySum(y.data(), y.size()), ((0.0 + 0.1) + 0.2) + 0.3);
  EXPECT_EQ(NumpyMean(y.data(), y.size()), (((0.0 + 0.1) + 0.2) + 0.3) / 3);
}

TEST(PerfDataTest, PairwiseSplitAboveBlockSize) {
  // 200 values: split at n2 = 100 - 100 % 8 = 96.
  std::vector<double> x(200);
  for (int i = 0; i < 200; ++i) x[i] = 1.0 / (i + 3);
  auto block = [](const double* a, std::size_t n) {
    double r[8];
    for (int k = 0; k < 8; ++k) r[k] = a[k];
    std::size_t i = 8;
    for (; i < n - n % 8; i += 8)
      for (int k = 0; k < 8; ++k) r[k] += a[i + k];
    double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res += a[i];
    return res;
  };
  const double expected = 0.0 + (block(x.data(), 96) + block(x.data() + 96, 104));
  EXPECT_EQ(NumpySum(x.data(), x.size()), expected);
}

}  // namespace
}  // namespace etbench

namespace etbench {
namespace {

// FromRaw selects instead of sorting and scans only parts of the selected
// array for min, max and each x[i+1]: for every size and many ties its
// numbers must equal those read from the fully sorted samples.
TEST(PerfDataTest, SelectedStatisticsEqualThoseOfTheSortedSamples) {
  std::mt19937_64 random(29);
  for (std::size_t n = 1; n <= 400; n += (n < 40 ? 1 : 17)) {
    for (int distinct : {1, 3, 50, 100000}) {
      std::vector<double> raw(n);
      for (double& x : raw) x = static_cast<double>(random() % distinct) / 7.0;
      std::vector<double> sorted = raw;
      std::sort(sorted.begin(), sorted.end());
      const PerfData p = PerfData::FromRaw(raw);
      EXPECT_EQ(p.min, sorted.front()) << n;
      EXPECT_EQ(p.max, sorted.back()) << n;
      EXPECT_EQ(p.p10, Percentile(sorted, 10)) << n << " " << distinct;
      EXPECT_EQ(p.p50, Percentile(sorted, 50)) << n << " " << distinct;
      EXPECT_EQ(p.p90, Percentile(sorted, 90)) << n << " " << distinct;
      EXPECT_EQ(p.raw, raw);
    }
  }
}

// From 8,192 samples the percentiles come from one pass guided by a sorted
// sample (or, when a rank falls outside the range the sample predicts, from
// the selections): exact either way, for random, sorted, reversed and
// periodic orders, with few or many distinct values.
TEST(PerfDataTest, ManySamplesGiveTheSortedSamplesStatisticsInEveryOrder) {
  std::mt19937_64 random(30);
  for (std::size_t n : {8192u, 9001u, 28600u}) {
    for (int distinct : {1, 3, 320, 1000000}) {
      for (int order = 0; order < 4; ++order) {
        std::vector<double> raw(n);
        for (std::size_t j = 0; j < n; ++j) {
          // order 3: a sawtooth whose period is the sampling stride.
          const uint64_t x = order == 3 ? (j % (n / 1024 + 1)) * 7919 % distinct
                                        : random() % distinct;
          raw[j] = static_cast<double>(x) / 1e6;
        }
        if (order == 1) std::sort(raw.begin(), raw.end());
        if (order == 2) std::sort(raw.rbegin(), raw.rend());
        std::vector<double> sorted = raw;
        std::sort(sorted.begin(), sorted.end());
        const PerfData p = PerfData::FromRaw(raw);
        const std::string where = std::to_string(n) + " samples, " + std::to_string(distinct) +
                                  " values, order " + std::to_string(order);
        EXPECT_EQ(p.min, sorted.front()) << where;
        EXPECT_EQ(p.max, sorted.back()) << where;
        EXPECT_EQ(p.p10, Percentile(sorted, 10)) << where;
        EXPECT_EQ(p.p50, Percentile(sorted, 50)) << where;
        EXPECT_EQ(p.p90, Percentile(sorted, 90)) << where;
        EXPECT_EQ(p.avg, NumpyMean(raw.data(), n)) << where;
      }
    }
  }
}

}  // namespace
}  // namespace etbench
