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
  std::vector<ComparisonWarning> warnings;
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
  std::vector<ComparisonWarning> warnings;
  ASSERT_TRUE(CheckComparable(Set({1, 2, 3}), Set({1, 2, 1e12}), warnings).ok());
  ASSERT_EQ(warnings.size(), 1u);
  const auto* day = std::get_if<ImplausibleValuesWarning>(&warnings[0]);
  ASSERT_NE(day, nullptr);
  EXPECT_EQ(day->side, "candidate");
  EXPECT_EQ(day->key, Set({1}).metrics[0].key);
  EXPECT_EQ(day->what, ImplausibleValue::kLongerThanADay);
  EXPECT_EQ(day->low, 1);
  EXPECT_EQ(day->high, 1e12);
  EXPECT_EQ(day->unit, Set({1}).metrics[0].unit);
  MetricSet tax = Set({1, 2, 3});
  tax.metrics[0].key.kind = MetricKind::kFrameworkTax;
  tax.metrics[0].unit = "percent";
  tax.metrics[0].samples = {5, -4e14};
  warnings.clear();
  ASSERT_TRUE(CheckComparable(tax, tax, warnings).ok());
  ASSERT_EQ(warnings.size(), 2u);
  for (const char* side : {"baseline", "candidate"}) {
    const auto* w = std::get_if<ImplausibleValuesWarning>(&warnings[side[0] == 'c']);
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(w->side, side);
    EXPECT_EQ(w->what, ImplausibleValue::kTaxOutOfRange);
    EXPECT_EQ(w->low, -4e14);
    EXPECT_EQ(w->high, 5);
  }
  warnings.clear();
  ASSERT_TRUE(CheckComparable(Set({1, 2, 3}), Set({1, 2, 3}), warnings).ok());
  EXPECT_TRUE(warnings.empty());
}

}  // namespace
}  // namespace etbench
