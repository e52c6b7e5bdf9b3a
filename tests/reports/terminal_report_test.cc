#include "etbench/reports/terminal_report.h"

#include <gtest/gtest.h>

#include "report_test_data.h"

namespace etbench::reports {
namespace {

std::string Render(const Comparison& c, ReportOptions options = {}) {
  ReportInput input;
  input.comparison = &c;
  return RenderTerminalComparison(input, options);
}

std::size_t Columns(const std::string& line) {
  std::size_t n = 0;
  for (unsigned char c : line) n += (c & 0xC0) != 0x80;
  return n;
}

TEST(TerminalReportTest, ComparisonMatchesGolden) {
  testing::ExpectMatchesGolden(Render(testing::SampleComparison()), "comparison_terminal.txt");
}

TEST(TerminalReportTest, ResultsMatchGolden) {
  testing::ExpectMatchesGolden(RenderTerminalResults(testing::SampleResults(), {}),
                               "results_terminal.txt");
}

TEST(TerminalReportTest, ColourOnlyWhenAsked) {
  const Comparison c = testing::SampleComparison();
  EXPECT_EQ(Render(c).find('\033'), std::string::npos);
  ReportOptions options;
  options.color = true;
  const std::string colored = Render(c, options);
  EXPECT_NE(colored.find("\033[31m\u2717\033[0m"), std::string::npos);  // red regression symbol
  EXPECT_NE(colored.find("\033[32m"), std::string::npos);
}

TEST(TerminalReportTest, UnitsAreChosenPerColumn) {
  const std::string text = Render(testing::SampleComparison());
  // toy_cnn's largest value is 2.031 ms → the column shows microseconds.
  EXPECT_NE(text.find("2031 us"), std::string::npos) << text;
  EXPECT_NE(text.find("153.5 us"), std::string::npos);
}

TEST(TerminalReportTest, LongNamesAreTruncatedToTheWidth) {
  Comparison c = testing::SampleComparison();
  c.rows[2].label = "toy_cnn/Execute/native_call_an_extraordinarily_long_operator_name_from_a_"
                    "generated_kernel_library.out#3";
  ReportOptions options;
  options.terminal_width = 110;
  const std::string text = Render(c, options);
  EXPECT_NE(text.find("\u2026"), std::string::npos);
  EXPECT_NE(text.find("library.out#3"), std::string::npos);  // the end (op and id) is kept
  std::size_t checked = 0;
  std::size_t start = 0;
  for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) {
    const std::string line = text.substr(start, end - start);
    if (line.find("%  [") == std::string::npos) continue;  // table rows (with an interval)
    EXPECT_LE(Columns(line), 110u) << line;
    ++checked;
  }
  EXPECT_GT(checked, 0u);
}

TEST(TerminalReportTest, ShowUnchangedListsEveryRow) {
  ReportOptions options;
  options.show_unchanged = true;
  const std::string text = Render(testing::SampleComparison(), options);
  EXPECT_NE(text.find("DELEGATE_CALL#2"), std::string::npos);
  EXPECT_EQ(text.find("unchanged not listed"), std::string::npos);
}

TEST(TerminalReportTest, ClusteredRunsSayToAddRepetitions) {
  Comparison c = testing::SampleComparison();
  bool found = false;
  for (MetricComparison& r : c.rows) {
    if (r.verdict != Verdict::kInconclusive || !(r.mde > r.threshold)) continue;
    r.design_effect = 4.25;
    found = true;
    break;
  }
  ASSERT_TRUE(found) << "the sample comparison has a too-noisy row";
  EXPECT_NE(Render(c).find("runs vary together (design effect 4.2): add repetitions (ab: "
                           "blocks), not iterations"),
            std::string::npos);
  // Mostly between sessions: more repetitions of one run would not help.
  for (MetricComparison& r : c.rows) {
    if (r.design_effect == 4.25) {
      r.repetition_correlation = 0.6;
      r.session_correlation = 0.5;
    }
  }
  EXPECT_NE(Render(c).find("the machine drifts between runs (design effect 4.2): compare "
                           "interleaved (etbench ab) or on a quieter runner"),
            std::string::npos);
}

}  // namespace
}  // namespace etbench::reports
