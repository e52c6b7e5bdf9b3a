#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "etbench/compare/comparison.h"
#include "etbench/compare/comparison_json.h"
#include "etbench/reports/comparison_text.h"
#include "etbench/reports/row_reason.h"
#include "etbench/reports/warning_text.h"
#include "support/compare_test_util.h"

namespace etbench {
namespace {

using testing::EventMetric;
using testing::LogNormalSamples;

Comparison Example() {
  MetricSet b, c;
  b.metrics = {EventMetric("Method::execute", 0, LogNormalSamples(40, 2.0, 0.01, 1), true),
               EventMetric("native_call_convolution.out", 0, LogNormalSamples(40, 1.0, 0.02, 2)),
               EventMetric("native_call_relu.out", 1, LogNormalSamples(40, 0.1, 0.02, 3)),
               EventMetric("native_call_mm.out", 2, LogNormalSamples(3, 0.1, 0.02, 4))};
  c.metrics = {EventMetric("Method::execute", 0, LogNormalSamples(40, 2.2, 0.01, 5), true),
               EventMetric("native_call_convolution.out", 0, LogNormalSamples(40, 1.2, 0.02, 6)),
               EventMetric("native_call_gelu.out", 1, LogNormalSamples(40, 0.1, 0.02, 7)),
               EventMetric("native_call_mm.out", 2, LogNormalSamples(3, 0.1, 0.02, 8))};
  return *testing::CheckedCompare(b, c, DefaultThresholds());
}

TEST(ComparisonRenderTest, TextStartsWithTheVerdictLine) {
  const std::string text = RenderComparisonText(Example());
  EXPECT_EQ(text.rfind("REGRESSION: 2 regressions, 0 improvements, 1 inconclusive, 0 unchanged", 0),
            0u)
      << text;
  EXPECT_NE(text.find("\nRegressions (2):\n"), std::string::npos);
  EXPECT_NE(text.find("toy/Execute/native_call_convolution.out#0  p50"), std::string::npos)
      << text;
  EXPECT_NE(text.find("too few samples (3 vs 3; need 5 per side)"), std::string::npos);
  // The change in a unit scaled for people (it read "+0.2 ms").
  EXPECT_NE(text.find("toy/Execute: +2"), std::string::npos) << text;
  EXPECT_NE(text.find(" us: +"), std::string::npos) << text;
  EXPECT_NE(text.find("from native_call_convolution.out #0"), std::string::npos);
  EXPECT_NE(text.find("renamed: toy/Execute/native_call_relu.out#1 -> native_call_gelu.out"),
            std::string::npos);
}

TEST(ComparisonRenderTest, JsonHasTheDocumentedSchema) {
  const auto j = nlohmann::json::parse(
      ComparisonToJson(Example(), reports::RowReason, reports::WarningText));
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_EQ(j["outcome"], "regression");
  EXPECT_EQ(j["counts"]["regressions"], 2);
  EXPECT_EQ(j["settings"]["family_size"], 1);
  ASSERT_EQ(j["metrics"].size(), 3u);
  const auto& conv = j["metrics"][1];
  for (const char* key :
       {"label", "model", "block", "kind", "name", "instruction_id", "delegate_id", "occurrence",
        "unit", "end_to_end", "statistic", "n_baseline", "n_candidate", "baseline", "candidate",
        "delta", "scale", "change", "ci", "p_value", "p_adjusted", "level", "prob_superiority",
        "threshold", "mde", "iterations_needed", "verdict", "reason", "rule", "direction",
        "gated"}) {
    EXPECT_TRUE(conv.contains(key)) << key;
  }
  EXPECT_EQ(conv["name"], "native_call_convolution.out");
  EXPECT_EQ(conv["verdict"], "regression");
  EXPECT_EQ(conv["scale"], "relative");
  EXPECT_TRUE(j["metrics"][2]["ci"][0].is_null());  // too few samples
  EXPECT_EQ(j["attribution"][0]["items"][0]["label"], "native_call_convolution.out #0");
  EXPECT_EQ(j["structure_changes"][0]["kind"], "renamed");
}

}  // namespace
}  // namespace etbench
