#include <gtest/gtest.h>

#include <filesystem>

#include "cli_test_util.h"
#include "etbench/compare/baseline_store.h"
#include "etbench/compare/comparison_json.h"
#include "etbench/compare/thresholds.h"
#include "etbench/reports/row_reason.h"
#include "etbench/reports/warning_text.h"
#include "etbench/results/results.h"
#include "reports/report_test_data.h"
#include "reports/xml_check.h"
#include "support/compare_test_util.h"
#include "support/memory_disk.h"
#include "support/test_support.h"

namespace etbench {
namespace {

using testing::RunCli;

class ReportCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    comparison_ = dir_.File("comparison.json");
    results_ = dir_.File("results.json");
    testing::WriteTextFile(
        comparison_,
        ComparisonToJson(testing::SampleComparison(), reports::RowReason,
                         reports::WarningText));
    ASSERT_TRUE(results::WriteResultsFile(results_, testing::SampleResults()).ok());
  }
  testing::TempDir dir_;
  std::string comparison_;
  std::string results_;
};

TEST_F(ReportCommandTest, TerminalByDefaultWithoutColourOffATerminal) {
  const auto r = RunCli({"report", comparison_});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("\u2717 REGRESSION: 2 regressions", 0), 0u) << r.out;
  EXPECT_EQ(r.out.find('\033'), std::string::npos);
  const auto colored = RunCli({"report", comparison_, "--color", "always"});
  EXPECT_NE(colored.out.find("\033[31m"), std::string::npos);
}

TEST_F(ReportCommandTest, MarkdownMatchesGolden) {
  const auto r = RunCli({"report", comparison_, "--format", "markdown", "--title", "toy suite"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  testing::ExpectMatchesGolden(r.out, "cli_comparison.md");
}

TEST_F(ReportCommandTest, SeveralReportsInOneCall) {
  const auto r = RunCli({"report", comparison_, "--format", "junit", "--output", dir_.File("j.xml"),
                         "--report", "html=" + dir_.File("r.html"), "--report",
                         "csv=" + dir_.File("c.csv")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(testing::XmlWellFormednessError(testing::ReadTextFile(dir_.File("j.xml"))), "");
  EXPECT_NE(testing::ReadTextFile(dir_.File("r.html")).find("<svg class=\"bar-chart\""),
            std::string::npos);
  EXPECT_EQ(testing::ReadTextFile(dir_.File("c.csv")).rfind("model,block,kind,", 0), 0u);
}

TEST_F(ReportCommandTest, JsonOfAComparisonFileIsTheSameJson) {
  const auto r = RunCli({"report", comparison_, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, testing::ReadTextFile(comparison_) + "\n");
}

TEST_F(ReportCommandTest, ResultsFiles) {
  const auto r = RunCli({"report", results_});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("toy_cnn  Execute (5 runs)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("broken  failed: runner exited with status 3"), std::string::npos);
  const auto tsv = RunCli({"report", results_, "--format", "tsv"});
  ASSERT_EQ(tsv.exit_code, 0);
  EXPECT_EQ(tsv.out, testing::ReadTextFile(testing::SourcePath("tests/reports/golden/results.tsv")));
}

TEST_F(ReportCommandTest, SamplesFromBaselineAndCandidateFilesFeedTheDistributions) {
  const testing::MetricSetPair sets = testing::SampleMetricSets();
  auto c = testing::CheckedCompare(sets.baseline, sets.candidate, DefaultThresholds());
  ASSERT_TRUE(c.ok());
  testing::WriteTextFile(
      dir_.File("engine.json"),
      ComparisonToJson(c.value(), reports::RowReason, reports::WarningText));
  Baseline baseline{"b", "2025-01-01T00:00:00Z", sets.baseline};
  Baseline candidate{"c", "2025-01-02T00:00:00Z", sets.candidate};
  ASSERT_TRUE(SaveBaseline(dir_.File("b.json"), baseline, false).ok());
  ASSERT_TRUE(SaveBaseline(dir_.File("c.json"), candidate, false).ok());
  const auto without = RunCli({"report", dir_.File("engine.json"), "--format", "html"});
  ASSERT_EQ(without.exit_code, 0) << without.err;
  EXPECT_EQ(without.out.find("<svg class=\"box-plot\""), std::string::npos);
  const auto with = RunCli({"report", dir_.File("engine.json"), "--format", "html", "--baseline",
                            dir_.File("b.json"), "--candidate", dir_.File("c.json")});
  ASSERT_EQ(with.exit_code, 0) << with.err;
  EXPECT_NE(with.out.find("<svg class=\"box-plot\""), std::string::npos);
}

TEST_F(ReportCommandTest, UsageAndInputErrors) {
  auto format = RunCli({"report", comparison_, "--format", "pdf"});
  EXPECT_EQ(format.exit_code, 2);
  EXPECT_NE(format.err.find("etbench report: unknown report format 'pdf'"), std::string::npos);
  auto missing = RunCli({"report", dir_.File("nope.json")});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("nope.json"), std::string::npos);
  testing::WriteTextFile(dir_.File("other.json"), "{\"x\": 1}");
  EXPECT_EQ(RunCli({"report", dir_.File("other.json")}).exit_code, 2);
  auto samples = RunCli({"report", results_, "--baseline", results_});
  EXPECT_EQ(samples.exit_code, 2);
  EXPECT_NE(samples.err.find("only apply to a comparison file"), std::string::npos);
  EXPECT_EQ(RunCli({"report", comparison_, "--color", "sometimes"}).exit_code, 2);
  EXPECT_EQ(RunCli({"report", comparison_, "--report", "markdown"}).exit_code, 2);  // two to stdout
  EXPECT_EQ(RunCli({"report"}).exit_code, 2);
  EXPECT_EQ(RunCli({"report", "--help"}).exit_code, 0);
}

// The command reads its input and writes its reports through the injected
// disk (CliDeps::disk), wrapped in the command's guard: nothing of it
// touches the filesystem, and an input is refused as an output as on a
// real disk.
TEST(ReportCommandDiskTest, ReadsAndWritesOnlyTheInjectedDisk) {
  testing::MemoryDisk disk;
  disk.AddFile("/mem/comparison.json",
               ComparisonToJson(testing::SampleComparison(), reports::RowReason,
                                reports::WarningText));
  const auto env = MakeSystemEnvironment();
  CliDeps deps;
  deps.env = env.get();
  deps.disk = &disk;
  auto r = testing::RunCliWith({"report", "/mem/comparison.json", "--format", "markdown",
                                "--output", "/mem/out/report.md", "--report", "json=/mem/c2.json"},
                               deps);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(disk.Files(), (std::vector<std::string>{"/mem/c2.json", "/mem/comparison.json",
                                                    "/mem/out/report.md"}));
  EXPECT_NE(disk.Text("/mem/out/report.md").find("**REGRESSION**"), std::string::npos)
      << disk.Text("/mem/out/report.md");
  EXPECT_FALSE(std::filesystem::exists("/mem"));

  const std::string before = disk.Text("/mem/comparison.json");
  r = testing::RunCliWith({"report", "/mem/comparison.json", "--format", "json", "--output",
                           "/mem/comparison.json"},
                          deps);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "etbench report: /mem/comparison.json: is an input of this command; refusing "
                   "to overwrite it\n");
  EXPECT_EQ(disk.Text("/mem/comparison.json"), before);
  // The next command starts with no inputs: what one read does not bind it.
  r = testing::RunCliWith({"report", "/mem/c2.json", "--format", "json", "--output",
                           "/mem/comparison.json"},
                          deps);
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

}  // namespace
}  // namespace etbench
