#include "etbench/reports/html_report.h"

#include <gtest/gtest.h>

#include <regex>

#include "etbench/compare/thresholds.h"
#include "report_test_data.h"
#include "support/test_support.h"
#include "support/compare_test_util.h"

namespace etbench::reports {
namespace {

using testing::Count;

// Everything a browser could fetch: src/href attributes, url(), @import.
void ExpectSelfContained(const std::string& html) {
  EXPECT_EQ(html.find(" src="), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("url("), std::string::npos);
  EXPECT_EQ(html.find("@import"), std::string::npos);
  const std::regex href("href=\"([^\"]*)\"");
  for (auto it = std::sregex_iterator(html.begin(), html.end(), href); it != std::sregex_iterator(); ++it) {
    EXPECT_EQ((*it)[1].str().rfind("#", 0), 0u) << "non-local link " << (*it)[1].str();
  }
  // The only URL is the SVG namespace name (an identifier, never fetched).
  std::string stripped = std::regex_replace(html, std::regex("xmlns=\"http://www.w3.org/2000/svg\""), "");
  EXPECT_EQ(stripped.find("http://"), std::string::npos);
  EXPECT_EQ(stripped.find("https://"), std::string::npos);
}

TEST(HtmlReportTest, ComparisonWithSamplesHasEveryChart) {
  const testing::MetricSetPair sets = testing::SampleMetricSets();
  auto c = testing::CheckedCompare(sets.baseline, sets.candidate, DefaultThresholds());
  ASSERT_TRUE(c.ok()) << c.error().message;
  ReportInput input;
  input.comparison = &c.value();
  input.baseline = &sets.baseline;
  input.candidate = &sets.candidate;
  const std::string html = RenderHtmlComparison(input, {});
  ExpectSelfContained(html);
  EXPECT_EQ(Count(html, "<svg class=\"bar-chart\""), 1u);
  EXPECT_EQ(Count(html, "<g class=\"bar-group\">"), 8u);  // the 8 kernel calls
  EXPECT_EQ(Count(html, "<svg class=\"box-plot\""), 1u + 4u);  // execute + top 4 changed ops
  EXPECT_EQ(Count(html, "<svg class=\"run-chart\""), 1u);
  EXPECT_NE(html.find("<table class=\"sortable\" id=\"verdicts-0-toy_cnn\">"), std::string::npos);
  EXPECT_EQ(Count(html, "<tr class=\"v-"), c->rows.size());
}

TEST(HtmlReportTest, WithoutSamplesItSaysWhatIsMissing) {
  const Comparison c = testing::SampleComparison();
  ReportInput input;
  input.comparison = &c;
  const std::string html = RenderHtmlComparison(input, {});
  ExpectSelfContained(html);
  EXPECT_NE(html.find("Distributions need the raw samples"), std::string::npos);
  EXPECT_EQ(Count(html, "<svg class=\"box-plot\""), 0u);
  // Bars still come from the p50 rows.
  EXPECT_EQ(Count(html, "<svg class=\"bar-chart\""), 2u);
  EXPECT_NE(html.find("id=\"structure\""), std::string::npos);
}

TEST(HtmlReportTest, NamesAreEscaped) {
  Comparison c = testing::SampleComparison();
  c.rows[2].label = "toy_cnn/Execute/<script>alert(1)</script>#3";
  c.warnings.push_back(ContextDiffersWarning{"device", "<img onerror=x>", "pixel-8"});
  ReportInput input;
  input.comparison = &c;
  const std::string html = RenderHtmlComparison(input, {});
  EXPECT_EQ(html.find("<script>alert"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_EQ(Count(html, "<script>"), 1u);  // the sorting script only
}

TEST(HtmlReportTest, ResultsHaveChartsPerModelAndTheFailure) {
  const std::string html = RenderHtmlResults(testing::SampleResults(), {});
  ExpectSelfContained(html);
  EXPECT_EQ(Count(html, "<svg class=\"bar-chart\""), 1u);
  EXPECT_EQ(Count(html, "<svg class=\"box-plot\""), 1u + 3u);  // execute + the 3 ops
  EXPECT_EQ(Count(html, "<svg class=\"run-chart\""), 1u);
  EXPECT_NE(html.find("<p class=\"failed\">failed: runner exited with status 3</p>"),
            std::string::npos);
  EXPECT_NE(html.find("id=\"events-0-toy_cnn\""), std::string::npos);
}


TEST(HtmlReportTest, ResultsSayInTheBannerWhyTheRunWasNotJudged) {
  ReportOptions options;
  options.results_note = "not judged: history too short: 2 of 5 nights <b>";
  const std::string html = RenderHtmlResults(testing::SampleResults(), options);
  ExpectSelfContained(html);
  const std::size_t note =
      html.find("<p class=\"note\">not judged: history too short: 2 of 5 nights &lt;b&gt;</p>");
  ASSERT_NE(note, std::string::npos) << html;
  EXPECT_LT(note, html.find("</header>"));
  EXPECT_EQ(RenderHtmlResults(testing::SampleResults(), {}).find("not judged"), std::string::npos);
}

TEST(HtmlReportTest, HeaderSaysWhatTheIntervalsAreAndNamesNoBootstrap) {
  const Comparison c = testing::SampleComparison();
  ReportInput input;
  input.comparison = &c;
  const std::string html = RenderHtmlComparison(input, {});
  EXPECT_EQ(html.find("bootstrap"), std::string::npos);
  EXPECT_NE(html.find("95% intervals (Hodges\u2013Lehmann shift, rank-test bounds"),
            std::string::npos);
  EXPECT_NE(html.find("<p class=\"note legend\">baseline, candidate: each side&#39;s statistic"),
            std::string::npos)
      << html.substr(0, 4000);
}

// A long run (issue #32: a 60 s ab, 526,316 executions per side) gives a
// page whose size follows the metrics, not the executions: the framework
// tax is drawn per group of runs, the box plots keep at most 300 points.
TEST(HtmlReportTest, PageSizeDoesNotGrowWithTheNumberOfExecutions) {
  auto page_for = [](std::size_t executions) {
    const testing::MetricSetPair sets = testing::LongRunMetricSets(executions);
    // The comparison from the 40-sample sets: the engine's cost is not what
    // is measured here, the page is.
    const testing::MetricSetPair small = testing::SampleMetricSets();
    auto c = testing::CheckedCompare(small.baseline, small.candidate, DefaultThresholds());
    EXPECT_TRUE(c.ok());
    ReportInput input;
    input.comparison = &c.value();
    input.baseline = &sets.baseline;
    input.candidate = &sets.candidate;
    return RenderHtmlComparison(input, {});
  };
  const std::string medium = page_for(2000);
  const std::string long_run = page_for(200000);
  // 100 times the executions, the same page within 5%, and small.
  EXPECT_LT(long_run.size(), medium.size() + medium.size() / 20)
      << medium.size() << " bytes for 2,000 executions, " << long_run.size() << " for 200,000";
  EXPECT_LT(long_run.size(), 300000u);
  EXPECT_EQ(Count(long_run, "<svg class=\"run-chart\""), 1u);
  EXPECT_NE(long_run.find(">1667 runs per point</text>"), std::string::npos);
  EXPECT_NE(long_run.find(">run 200000</text>"), std::string::npos);
  EXPECT_EQ(long_run.find(">run 0</text>"), std::string::npos) << "runs count from 1";
  EXPECT_EQ(Count(long_run, "<polygon class=\"band\""), 2u);  // one per side
}

}  // namespace
}  // namespace etbench::reports
