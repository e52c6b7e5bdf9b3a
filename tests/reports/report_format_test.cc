#include "etbench/reports/report_format.h"

#include <gtest/gtest.h>

#include <sstream>

#include "etbench/reports/reports.h"
#include "etbench/reports/terminal_color.h"
#include "report_test_data.h"
#include "support/test_support.h"

namespace etbench::reports {
namespace {

TEST(ReportFormatTest, ParsesFormatAndFile) {
  auto r = ParseReportRequest("markdown=out/summary.md");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->format, ReportFormat::kMarkdown);
  EXPECT_EQ(r->path, "out/summary.md");
  auto plain = ParseReportRequest("junit");
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->path, "");
  EXPECT_EQ(ParseReportRequest("md")->format, ReportFormat::kMarkdown);
  auto bad = ParseReportRequest("pdf=x.pdf");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message,
            "unknown report format 'pdf' in 'pdf=x.pdf' (expected terminal, markdown, junit, json, "
            "csv, tsv, html, optionally followed by =FILE)");
  EXPECT_FALSE(ParseReportRequest("html=").ok());
}

TEST(ReportFormatTest, AtMostOneReportToTheStream) {
  EXPECT_TRUE(ParseReportRequests({"terminal", "json=a.json"}).ok());
  EXPECT_FALSE(ParseReportRequests({"terminal", "markdown"}).ok());
}

TEST(ReportFormatTest, WriteReportsWritesFilesWithoutColourAndTheStreamWithIt) {
  testing::TempDir dir;
  const Comparison c = testing::SampleComparison();
  ReportInput input;
  input.comparison = &c;
  ReportOptions options;
  options.color = true;
  std::ostringstream out;
  auto requests = ParseReportRequests({"terminal", "terminal=" + dir.File("sub/t.txt"),
                                       "junit=" + dir.File("j.xml"), "html=" + dir.File("r.html")});
  ASSERT_TRUE(requests.ok());
  Status s = WriteReports(requests.value(), input, options, out);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_NE(out.str().find('\033'), std::string::npos);
  const std::string file = testing::ReadTextFile(dir.File("sub/t.txt"));
  EXPECT_EQ(file.find('\033'), std::string::npos);
  EXPECT_NE(file.find("REGRESSION"), std::string::npos);
  EXPECT_NE(testing::ReadTextFile(dir.File("j.xml")).find("<testsuites"), std::string::npos);
  EXPECT_NE(testing::ReadTextFile(dir.File("r.html")).find("<!DOCTYPE html>"), std::string::npos);
}

TEST(ReportFormatTest, EveryFormatRendersResultsAndComparisons) {
  const Comparison c = testing::SampleComparison();
  const results::RunResults results = testing::SampleResults();
  for (ReportFormat f : {ReportFormat::kTerminal, ReportFormat::kMarkdown, ReportFormat::kJunit,
                         ReportFormat::kJson, ReportFormat::kCsv, ReportFormat::kTsv,
                         ReportFormat::kHtml}) {
    ReportInput comparison;
    comparison.comparison = &c;
    auto a = RenderReport(f, comparison);
    ASSERT_TRUE(a.ok()) << ReportFormatName(f);
    EXPECT_FALSE(a->empty());
    ReportInput run;
    run.results = &results;
    auto b = RenderReport(f, run);
    ASSERT_TRUE(b.ok()) << ReportFormatName(f);
    EXPECT_FALSE(b->empty());
  }
  EXPECT_FALSE(RenderReport(ReportFormat::kJson, ReportInput{}).ok());
}

TEST(ReportFormatTest, ColourFollowsTheTerminalAndNoColor) {
  MapEnvironment env(std::map<std::string, std::string>{{"TERM", "xterm-256color"}});
  EXPECT_TRUE(UseColor(ColorMode::kAuto, true, env));
  EXPECT_FALSE(UseColor(ColorMode::kAuto, false, env));
  EXPECT_TRUE(UseColor(ColorMode::kAlways, false, env));
  env.Set("NO_COLOR", "1");
  EXPECT_FALSE(UseColor(ColorMode::kAuto, true, env));
  env.Set("NO_COLOR", "");  // empty means unset (no-color.org)
  EXPECT_TRUE(UseColor(ColorMode::kAuto, true, env));
  env.Set("TERM", "dumb");
  EXPECT_FALSE(UseColor(ColorMode::kAuto, true, env));
  EXPECT_FALSE(ParseColorMode("sometimes").ok());
  std::ostringstream not_a_tty;
  EXPECT_FALSE(StreamIsTerminal(not_a_tty));
  MapEnvironment columns(std::map<std::string, std::string>{{"COLUMNS", "91"}});
  EXPECT_EQ(TerminalWidth(not_a_tty, columns), 91u);
  EXPECT_EQ(TerminalWidth(not_a_tty, MapEnvironment{}), 120u);
}

}  // namespace
}  // namespace etbench::reports
