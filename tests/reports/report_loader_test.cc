#include "etbench/reports/report_loader.h"

#include <gtest/gtest.h>

#include "etbench/compare/comparison_json.h"
#include "etbench/results/results.h"
#include "report_test_data.h"
#include "support/test_support.h"

namespace etbench::reports {
namespace {

TEST(ReportLoaderTest, RecognisesComparisonAndResultsFiles) {
  testing::TempDir dir;
  testing::WriteTextFile(dir.File("c.json"), ComparisonToJson(testing::SampleComparison()));
  ASSERT_TRUE(results::WriteResultsFile(dir.File("r.json"), testing::SampleResults()).ok());
  auto c = LoadReportFile(dir.File("c.json"));
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_TRUE(c->comparison.has_value());
  EXPECT_FALSE(c->results.has_value());
  auto r = LoadReportFile(dir.File("r.json"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_TRUE(r->results.has_value());
  EXPECT_EQ(r->results->models.size(), 2u);
  const ReportInput input = r->Input("t");
  EXPECT_EQ(input.results, &*r->results);
  EXPECT_EQ(input.comparison, nullptr);
}

TEST(ReportLoaderTest, OtherJsonIsAnErrorNamingTheFile) {
  auto kind = DetectReportFileKind("{\"a\": 1}", "x.json");
  ASSERT_FALSE(kind.ok());
  EXPECT_EQ(kind.error().message,
            "x.json: neither a results file (keys metadata, models) nor a comparison file (keys "
            "outcome, metrics)");
  EXPECT_FALSE(DetectReportFileKind("not json", "x.json").ok());
  auto baseline = DetectReportFileKind("{\"format\": \"etbench-baseline\"}", "b.json");
  ASSERT_FALSE(baseline.ok());
  EXPECT_NE(baseline.error().message.find("a baseline file"), std::string::npos);
  EXPECT_FALSE(LoadReportFile("/nonexistent.json").ok());
}

TEST(ReportLoaderTest, SamplesComeFromResultsFiles) {
  testing::TempDir dir;
  ASSERT_TRUE(results::WriteResultsFile(dir.File("r.json"), testing::SampleResults()).ok());
  auto set = LoadSamplesFile(dir.File("r.json"));
  ASSERT_TRUE(set.ok()) << set.error().message;
  EXPECT_FALSE(set->metrics.empty());
}

}  // namespace
}  // namespace etbench::reports
