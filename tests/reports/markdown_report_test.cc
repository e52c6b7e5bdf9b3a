#include "etbench/reports/markdown_report.h"

#include <gtest/gtest.h>

#include "report_test_data.h"

namespace etbench::reports {
namespace {

std::string Render(const Comparison& c, ReportOptions options = {}) {
  options.generator = "etbench test";
  ReportInput input;
  input.comparison = &c;
  input.title = "toy suite";
  return RenderMarkdownComparison(input, options);
}

TEST(MarkdownReportTest, ComparisonMatchesGolden) {
  testing::ExpectMatchesGolden(Render(testing::SampleComparison()), "comparison.md");
}

TEST(MarkdownReportTest, ResultsMatchGolden) {
  ReportOptions options;
  options.generator = "etbench test";
  testing::ExpectMatchesGolden(RenderMarkdownResults(testing::SampleResults(), options),
                               "results.md");
}

TEST(MarkdownReportTest, ResultsSayUnderTheHeadingWhyTheRunWasNotJudged) {
  // The gate's first nights (history too short) write the run's report: a
  // CI reader saw only "✅ etbench results" and took it for a pass.
  ReportOptions options;
  options.generator = "etbench test";
  const std::string plain = RenderMarkdownResults(testing::SampleResults(), options);
  options.results_note = "not judged: history too short: 2 of 5 nights | <b>";
  const std::string md = RenderMarkdownResults(testing::SampleResults(), options);
  const std::size_t heading_end = md.find("\n\n") + 2;
  EXPECT_EQ(md.substr(heading_end, md.find('\n', heading_end) - heading_end),
            "> not judged: history too short: 2 of 5 nights \\| <b>");
  // Nothing else changes.
  EXPECT_EQ(md.substr(0, heading_end) + md.substr(md.find('\n', heading_end) + 2), plain);
}

TEST(MarkdownReportTest, VerdictLineComesFirst) {
  const std::string md = Render(testing::SampleComparison());
  EXPECT_EQ(md.rfind("### \u274C toy suite: **REGRESSION** \u2014 2 regressions, 1 improvement", 0), 0u)
      << md.substr(0, 200);
}

TEST(MarkdownReportTest, PipesInNamesAreEscaped) {
  Comparison c = testing::SampleComparison();
  c.rows[2].label = "toy_cnn/Execute/weird|name#3";
  const std::string md = Render(c);
  EXPECT_NE(md.find("weird\\|name#3"), std::string::npos);
}

TEST(MarkdownReportTest, HugeComparisonsFitGitHubsCommentLimit) {
  Comparison c = testing::SampleComparison();
  const MetricComparison model_row = c.rows[2];
  for (int i = 0; i < 5000; ++i) {
    MetricComparison r = model_row;
    r.key.instruction_id = 100 + i;
    r.label = MetricLabel(r.key);
    r.verdict = i % 2 == 0 ? Verdict::kRegression : Verdict::kUnchanged;
    c.rows.push_back(r);
  }
  ReportOptions options;
  options.max_rows = 0;  // every regression would be listed if it fitted
  const std::string md = Render(c, options);
  EXPECT_LE(md.size(), 60000u);
  EXPECT_LT(md.size(), 65536u);
  EXPECT_NE(md.find("more rows not shown: GitHub's comment size limit"), std::string::npos);
  // The document is still closed properly.
  EXPECT_NE(md.find("<sub>etbench test</sub>"), std::string::npos);
  std::size_t open = 0, close = 0;
  for (std::size_t at = 0; (at = md.find("<details>", at)) != std::string::npos; ++at) ++open;
  for (std::size_t at = 0; (at = md.find("</details>", at)) != std::string::npos; ++at) ++close;
  EXPECT_EQ(open, close);
}

TEST(MarkdownReportTest, SmallBudgetStillStartsWithTheVerdict) {
  ReportOptions options;
  options.markdown_max_chars = 1500;
  const std::string md = Render(testing::SampleComparison(), options);
  EXPECT_LE(md.size(), 1500u);
  EXPECT_EQ(md.rfind("### ", 0), 0u);
}

TEST(MarkdownReportTest, PassWithNothingChanged) {
  Comparison c = testing::SampleComparison();
  for (MetricComparison& r : c.rows) r.verdict = Verdict::kUnchanged;
  c.outcome = GateOutcome::kPass;
  c.counts = {0, 0, 8, 0};
  const std::string md = Render(c);
  EXPECT_EQ(md.rfind("### \u2705 toy suite: **PASS**", 0), 0u);
  EXPECT_NE(md.find("No metric changed beyond its threshold."), std::string::npos);
}

}  // namespace
}  // namespace etbench::reports
