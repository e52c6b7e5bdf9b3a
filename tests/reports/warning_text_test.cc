#include "etbench/reports/warning_text.h"

#include <gtest/gtest.h>

#include "etbench/compare/comparison.h"
#include "etbench/compare/comparison_json.h"
#include "etbench/compare/comparison_json_reader.h"
#include "etbench/compare/thresholds.h"
#include "etbench/reports/row_reason.h"
#include "report_test_data.h"
#include "support/compare_test_util.h"

namespace etbench::reports {
namespace {

// The sentences below are the ones compare wrote before the warnings became
// data: the comparison JSON, the reports and stderr keep every byte.

TEST(WarningTextTest, ImplausibleValuesNameTheSideTheMetricAndTheRange) {
  MetricKey key;
  key.model = "toy";
  key.block = "Execute";
  key.name = "native_call_add.out";
  EXPECT_EQ(WarningText(ImplausibleValuesWarning{"candidate", key,
                                                 ImplausibleValue::kLongerThanADay, 1, 1e12,
                                                 "ns"}),
            "implausible values in the candidate: toy/Execute/native_call_add.out has a sample "
            "longer than a day (1..1e+12 ns); is the file corrupt?");
  key.kind = MetricKind::kFrameworkTax;
  key.name = "framework_tax";
  EXPECT_EQ(WarningText(ImplausibleValuesWarning{"baseline", key, ImplausibleValue::kTaxOutOfRange,
                                                 -4e14, 5, "percent"}),
            "implausible values in the baseline: " + MetricLabel(key) +
                " has a framework tax outside -100%..100% (-4e+14..5 percent); is the file "
                "corrupt?");
}

TEST(WarningTextTest, ContextTickRateAndModelFileDifferences) {
  EXPECT_EQ(WarningText(ContextDiffersWarning{"device", "host", "phone"}),
            "different device: 'host' (baseline) vs 'phone' (candidate)");
  EXPECT_EQ(WarningText(TickRateDiffersWarning{1e9, 2.9e9}),
            "different tick rate: 1000000000 Hz (baseline) vs 2900000000 Hz (candidate); times "
            "in ticks are not comparable");
  EXPECT_EQ(WarningText(ModelFileChangedWarning{"toy", "aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb"}),
            "model file of 'toy' changed (sha256 aaaaaaaaaaaa\u2026 vs bbbbbbbbbbbb\u2026)");
}

TEST(WarningTextTest, MinDeltaAndDroppedBlocksStateTheirNumbers) {
  EXPECT_EQ(WarningText(MinDeltaUnitWarning{1, "us", "default", "cycles"}),
            "min_delta 1.000000us of default does not apply to metrics in cycles (set a rule "
            "with a min_delta in that unit)");
  EXPECT_EQ(WarningText(DroppedBlocksWarning{3, 5, 0.10}),
            "3 block(s) of a model left out: its run was hit by interference (Method::execute "
            "more than max(5 MAD, 10%) from its side's median)");
}

TEST(WarningTextTest, BaselineWarningsAreLoud) {
  EXPECT_EQ(WarningText(BaselineDeviceWarning{"host", "phone"}),
            "WARNING: baseline was recorded on device 'host', this run is on 'phone'");
  EXPECT_EQ(WarningText(BaselineTickRateWarning{2.9e9, 1e9}),
            "WARNING: baseline tick rate 2900000000 Hz differs from this run's 1000000000 Hz");
}

TEST(WarningTextTest, ADisturbedModelSaysWhatWasSlowAndWhatDecidesInstead) {
  EXPECT_EQ(WarningText(DisturbedModelWarning{"mlp", 0.326, 0.201}),
            "'mlp' was slower tonight as a whole process (load path +32.6%, Method::execute "
            "+20.1%): one night cannot tell its code from its process, so its regressions are "
            "listed, not counted, and the night is no pass; a change that lasts fails the "
            "sustained look or history detect on the nights after");
}

TEST(WarningTextTest, AStoredWarningReadsBackAsTheTextItWasWrittenAs) {
  // An engine's warning, written to JSON and read back, is the same words.
  testing::MetricSetPair sets = testing::SampleMetricSets(10);
  sets.candidate.context["cpu"] = "arm";
  sets.baseline.context["cpu"] = "x86";
  auto c = testing::CheckedCompare(sets.baseline, sets.candidate, DefaultThresholds());
  ASSERT_TRUE(c.ok()) << c.error().message;
  ASSERT_EQ(c->warnings.size(), 1u);
  const std::string json = ComparisonToJson(c.value(), RowReason, WarningText);
  auto parsed = ParseComparisonJson(json, "c.json");
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  ASSERT_EQ(parsed->warnings.size(), c->warnings.size());
  for (std::size_t i = 0; i < c->warnings.size(); ++i) {
    const auto* text = std::get_if<TextWarning>(&parsed->warnings[i]);
    ASSERT_NE(text, nullptr);
    EXPECT_EQ(text->text, WarningText(c->warnings[i]));
  }
  EXPECT_EQ(WarningText(parsed->warnings.back()),
            "different cpu: 'x86' (baseline) vs 'arm' (candidate)");
}

}  // namespace
}  // namespace etbench::reports
