// What may be compared at all: never PASS with nothing compared, never a
// NaN that the rank test cannot order.
#include "etbench/compare/compare_guards.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "support/compare_test_util.h"
#include "etbench/compare/comparison.h"
#include "etbench/compare/thresholds.h"

namespace etbench {
namespace {

using ::testing::HasSubstr;

MetricSet Set(std::vector<double> samples) {
  MetricSet set;
  set.context = {{"suite", "s"}, {"time_source", "ns"}, {"model_status:toy", "ok"}};
  set.metrics.push_back(testing::EventMetric("native_call_add.out", 0, std::move(samples)));
  return set;
}

TEST(CompareGuardsTest, ACandidateWithNoMetricsIsAnErrorNotAPass) {
  MetricSet failed;
  failed.context = {{"model_status:toy", "failed"}, {"model_status:mlp", "interrupted"}};
  std::vector<std::string> warnings;
  Status s = CheckComparable(Set({1, 2, 3}), failed, warnings);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message,
            "the candidate has no metrics: no model finished (mlp interrupted, toy failed); "
            "nothing to compare");
  auto comparison = Compare(Set({1, 2, 3}), MetricSet{}, DefaultThresholds());
  ASSERT_FALSE(comparison.ok());
  EXPECT_EQ(comparison.error().message,
            "the candidate has no metrics: no model ran; nothing to compare");
}

TEST(CompareGuardsTest, NanSamplesAreRefusedBeforeTheRankTest) {
  // MannWhitneyU never finished on a NaN (it never equals itself).
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto comparison = Compare(Set({1, 2, 3, 4, 5}), Set({1, nan, 3, 4, 5}), DefaultThresholds());
  ASSERT_FALSE(comparison.ok());
  EXPECT_THAT(comparison.error().message,
              HasSubstr("the candidate's metric toy/Execute/native_call_add.out"));
  EXPECT_THAT(comparison.error().message, HasSubstr("(not a number)"));
  EXPECT_FALSE(Compare(Set({1, 2, -3}), Set({1, 2, 3}), DefaultThresholds()).ok());
}

TEST(CompareGuardsTest, ZeroSizeRepetitionGroupsAreRefused) {
  MetricSet set = Set({1, 2, 3});
  set.metrics[0].group_sizes = {3, 0};
  Status s = CheckMetricSetUsable(set, "baseline");
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.error().message, HasSubstr("repetition 1 has 0 samples"));
}

TEST(CompareGuardsTest, ImplausibleValuesAreWarnedAbout) {
  std::vector<std::string> warnings;
  ASSERT_TRUE(CheckComparable(Set({1, 2, 3}), Set({1, 2, 1e12}), warnings).ok());
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_THAT(warnings[0], HasSubstr("implausible values in the candidate"));
  EXPECT_THAT(warnings[0], HasSubstr("longer than a day"));
  MetricSet tax = Set({1, 2, 3});
  tax.metrics[0].key.kind = MetricKind::kFrameworkTax;
  tax.metrics[0].unit = "percent";
  tax.metrics[0].samples = {5, -4e14};
  warnings.clear();
  ASSERT_TRUE(CheckComparable(tax, tax, warnings).ok());
  EXPECT_EQ(warnings.size(), 2u);
  warnings.clear();
  ASSERT_TRUE(CheckComparable(Set({1, 2, 3}), Set({1, 2, 3}), warnings).ok());
  EXPECT_TRUE(warnings.empty());
}

}  // namespace
}  // namespace etbench
