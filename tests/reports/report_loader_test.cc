#include "etbench/reports/report_loader.h"

#include <gtest/gtest.h>

#include "etbench/compare/comparison_json.h"
#include "etbench/results/results.h"
#include "etbench/reports/row_reason.h"
#include "etbench/reports/warning_text.h"
#include "report_test_data.h"
#include "support/memory_disk.h"
#include "support/test_support.h"

namespace etbench::reports {
namespace {

TEST(ReportLoaderTest, RecognisesComparisonAndResultsFiles) {
  testing::TempDir dir;
  testing::WriteTextFile(
      dir.File("c.json"),
      ComparisonToJson(testing::SampleComparison(), reports::RowReason,
                       reports::WarningText));
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

TEST(ReportLoaderTest, ReadsThroughTheDiskItIsGiven) {
  testing::MemoryDisk disk;
  ASSERT_TRUE(disk.CreateDirectories("/mem").ok());
  ASSERT_TRUE(results::WriteResultsFile("/mem/r.json", testing::SampleResults(), disk).ok());
  disk.AddFile("/mem/c.json",
               ComparisonToJson(testing::SampleComparison(), reports::RowReason,
                                reports::WarningText));
  auto r = LoadReportFile("/mem/r.json", disk);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_TRUE(r->results.has_value());
  EXPECT_EQ(r->results->models.size(), 2u);
  auto c = LoadReportFile("/mem/c.json", disk);
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_TRUE(c->comparison.has_value());
  EXPECT_EQ(disk.reads(), 2);
  auto absent = LoadReportFile("/mem/none.json", disk);
  ASSERT_FALSE(absent.ok());
  EXPECT_EQ(absent.error().message, "/mem/none.json: cannot open (No such file or directory)");
}

TEST(ReportLoaderTest, OtherJsonIsAnErrorNamingTheFile) {
  testing::TempDir dir;
  testing::WriteTextFile(dir.File("x.json"), "{\"a\": 1}");
  auto other = LoadReportFile(dir.File("x.json"));
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.error().message.rfind(dir.File("x.json") + ": not a results file", 0), 0u)
      << other.error().message;
  testing::WriteTextFile(dir.File("n.json"), "not json");
  EXPECT_FALSE(LoadReportFile(dir.File("n.json")).ok());
  testing::WriteTextFile(dir.File("b.json"), "{\"format\": \"etbench-baseline\"}");
  auto baseline = LoadReportFile(dir.File("b.json"));
  ASSERT_FALSE(baseline.ok());
  EXPECT_NE(baseline.error().message.find("a baseline file"), std::string::npos);
  EXPECT_FALSE(LoadReportFile("/nonexistent.json").ok());
}

TEST(ReportLoaderTest, GoogleBenchmarkFilesAreRuns) {
  testing::TempDir dir;
  testing::WriteTextFile(dir.File("g.json"), R"({"context": {"executable": "./bm"},
    "benchmarks": [{"name": "BM_A", "run_name": "BM_A", "run_type": "iteration",
                    "iterations": 10, "real_time": 2.5, "cpu_time": 2.4, "time_unit": "us"}]})");
  auto g = LoadReportFile(dir.File("g.json"));
  ASSERT_TRUE(g.ok()) << g.error().message;
  ASSERT_TRUE(g->results.has_value());
  ASSERT_EQ(g->results->models.size(), 1u);
  EXPECT_EQ(g->results->models[0].name, "bm");
  ASSERT_EQ(g->results->models[0].benchmarks.size(), 1u);
  EXPECT_EQ(g->results->models[0].benchmarks[0].perf_data.raw, std::vector<double>{2.5});
}

}  // namespace
}  // namespace etbench::reports
