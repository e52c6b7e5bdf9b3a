#include "etbench/compare/comparison_json_reader.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "etbench/compare/comparison_json.h"
#include "etbench/compare/thresholds.h"
#include "etbench/reports/json_report.h"
#include "etbench/reports/row_reason.h"
#include "etbench/reports/warning_text.h"
#include "report_test_data.h"
#include "support/compare_test_util.h"

namespace etbench::reports {
namespace {

std::string SampleJson() {
  return ComparisonToJson(testing::SampleComparison(), reports::RowReason,
                          reports::WarningText);
}

TEST(ComparisonJsonReaderTest, HandBuiltComparisonRoundTrips) {
  Comparison c = testing::SampleComparison();
  c.rows[3].ci_low = NAN;  // not computed → null → NaN
  c.rows[3].ci_high = NAN;
  const std::string json =
      ComparisonToJson(c, reports::RowReason, reports::WarningText);
  auto parsed = ParseComparisonJson(json, "c.json");
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  EXPECT_EQ(ComparisonToJson(parsed.value(), reports::RowReason,
                             reports::WarningText),
            json);
  EXPECT_TRUE(std::isnan(parsed->rows[3].ci_low));
  EXPECT_EQ(parsed->rows[3].iterations_needed, 140);
  ASSERT_EQ(parsed->attributions.size(), 1u);
  ASSERT_TRUE(parsed->attributions[0].items[0].key.has_value());
  EXPECT_EQ(*parsed->attributions[0].items[0].key, c.rows[2].key);
  EXPECT_FALSE(parsed->attributions[0].items[2].key.has_value());
}

TEST(ComparisonJsonReaderTest, EngineComparisonRoundTrips) {
  const testing::MetricSetPair sets = testing::SampleMetricSets();
  auto c = testing::CheckedCompare(sets.baseline, sets.candidate, DefaultThresholds());
  ASSERT_TRUE(c.ok()) << c.error().message;
  const std::string json = RenderJsonComparison(c.value());
  EXPECT_EQ(nlohmann::json::parse(json)["schema_version"], kComparisonSchemaVersion);
  auto parsed = ParseComparisonJson(json, "c.json");
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  EXPECT_EQ(RenderJsonComparison(parsed.value()), json);
  EXPECT_EQ(parsed->outcome, c->outcome);
  EXPECT_EQ(parsed->rows.size(), c->rows.size());
}

TEST(ComparisonJsonReaderTest, AttributionKeysFallBackToTheLabel) {
  Comparison c = testing::SampleComparison();
  MetricKey key;
  key.model = "m";
  key.block = "Execute";
  key.name = "native_call_x.out";
  key.instruction_id = 9;
  key.occurrence = 1;
  c.attributions[0].items[0].key = key;  // a key that no row has
  auto parsed = ParseComparisonJson(
      ComparisonToJson(c, reports::RowReason, reports::WarningText), "c.json");
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(*parsed->attributions[0].items[0].key, key);
}

// A night the gate did not judge: no rows, and why (null when judged).
TEST(ComparisonJsonReaderTest, NotJudgedIsWrittenAndReadBack) {
  Comparison c;
  c.not_judged = NotJudged{"history_too_short", 2, 5, "history too short: 2 of 5 nights"};
  const std::string json = ComparisonToJson(c, reports::RowReason, reports::WarningText);
  const nlohmann::json doc = nlohmann::json::parse(json);
  EXPECT_EQ(doc["not_judged"],
            nlohmann::json::parse(R"({"reason": "history_too_short", "nights": 2,
                                      "nights_needed": 5,
                                      "message": "history too short: 2 of 5 nights"})"));
  EXPECT_TRUE(doc["metrics"].empty());
  auto parsed = ParseComparisonJson(json, "c.json");
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  ASSERT_TRUE(parsed->not_judged.has_value());
  EXPECT_EQ(parsed->not_judged->reason, "history_too_short");
  EXPECT_EQ(parsed->not_judged->nights, 2u);
  EXPECT_EQ(parsed->not_judged->nights_needed, 5u);
  EXPECT_EQ(parsed->not_judged->message, "history too short: 2 of 5 nights");

  nlohmann::json judged = nlohmann::json::parse(SampleJson());
  EXPECT_TRUE(judged["not_judged"].is_null());
  auto back = ParseComparisonJson(judged.dump(), "c.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_FALSE(back->not_judged.has_value());
  judged.erase("not_judged");  // a file written before the key
  back = ParseComparisonJson(judged.dump(), "c.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_FALSE(back->not_judged.has_value());
}

TEST(ComparisonJsonReaderTest, JsonReportMatchesGolden) {
  testing::ExpectMatchesGolden(RenderJsonComparison(testing::SampleComparison()), "comparison.json");
}

TEST(ComparisonJsonReaderTest, ErrorsNameThePath) {
  nlohmann::json j = nlohmann::json::parse(SampleJson());
  j["metrics"][3]["verdict"] = "worse";
  auto bad_verdict = ParseComparisonJson(j.dump(), "c.json");
  ASSERT_FALSE(bad_verdict.ok());
  EXPECT_EQ(bad_verdict.error().message,
            "c.json: metrics[3].verdict: unknown value 'worse' (expected regression, improvement, "
            "unchanged, inconclusive)");

  j = nlohmann::json::parse(SampleJson());
  j["schema_version"] = 2;
  auto version = ParseComparisonJson(j.dump(), "c.json");
  ASSERT_FALSE(version.ok());
  EXPECT_EQ(version.error().message,
            "c.json: schema_version: unsupported schema_version 2 (this etbench reads 1)");

  j = nlohmann::json::parse(SampleJson());
  j["settings"].erase("alpha");
  auto missing = ParseComparisonJson(j.dump(), "c.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message, "c.json: settings.alpha: missing");

  auto not_json = ParseComparisonJson("{\"outcome\": ", "c.json");
  ASSERT_FALSE(not_json.ok());
  EXPECT_NE(not_json.error().message.find("c.json: not valid JSON at byte"), std::string::npos);
}

}  // namespace
}  // namespace etbench::reports
