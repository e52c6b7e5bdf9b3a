#include "etbench/reports/terminal_report.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "etbench/compare/comparison_json_reader.h"
#include "etbench/reports/json_report.h"
#include "report_test_data.h"
#include "support/test_support.h"

namespace etbench::reports {
namespace {

using testing::Count;

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

// A comparison file of a night the gate did not judge says so under its
// outcome (`etbench report night.json`), not just "PASS" over no rows.
TEST(TerminalReportTest, ANightNotJudgedSaysWhy) {
  Comparison c;
  c.not_judged = NotJudged{"history_too_short", 2, 5, "history too short: 2 of 5 nights"};
  const std::string text = Render(c);
  EXPECT_NE(text.find("\n  not judged: history too short: 2 of 5 nights\n"), std::string::npos)
      << text;
  EXPECT_EQ(Render(testing::SampleComparison()).find("not judged"), std::string::npos);
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

TEST(TerminalReportTest, NightRowsSayTheirIntervalsAreNinetyPercentTwoSided) {
  // The nightly gate shows an undetected row's interval at twice 1 −
  // confidence: its upper end is the one-sided 95% bound "unchanged"
  // reads. "95% intervals" above such rows misstated them.
  Comparison c = testing::SampleComparison();
  for (MetricComparison& r : c.rows) {
    r.test = "night_t";
    const bool detected = r.verdict == Verdict::kRegression || r.verdict == Verdict::kImprovement;
    if (!detected) r.ci_alpha = 2 * (1 - c.settings.confidence);
  }
  const std::string text = Render(c);
  EXPECT_NE(text.find("90% intervals (one-sided 95% bounds; tonight against earlier nights"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("95% intervals"), std::string::npos) << text;
  // The sample's A/B rows (two-sided at the confidence) keep "95% intervals".
  EXPECT_NE(Render(testing::SampleComparison()).find("9 comparisons (8 gated)"), std::string::npos);
}

TEST(TerminalReportTest, SmallFrameworkTaxChangesKeepTheirDigits) {
  // "+0.00 pp" said nothing of a framework tax 0.002 pp lower.
  Comparison c = testing::SampleComparison();
  for (MetricComparison& r : c.rows) {
    if (r.key.kind != MetricKind::kFrameworkTax) continue;
    r.change = r.delta = -0.00218;
    r.ci_low = -0.0061;
    r.ci_high = 0.0017;
  }
  const std::string text = Render(c);
  EXPECT_NE(text.find("-0.0022 pp"), std::string::npos) << text;
  EXPECT_EQ(text.find("0.00 pp"), std::string::npos) << text;
}

TEST(TerminalReportTest, AnAttributionsTotalAndPartsShareOneUnit) {
  // "(+16.62 us)" over "+9952 ns" did not read as a sum.
  Comparison c = testing::SampleComparison();
  Attribution& a = c.attributions.front();
  a.delta = 0.01662;
  a.items[0].delta = 0.009952;
  a.items[1].delta = -0.00103;
  const std::string text = Render(c);
  EXPECT_NE(text.find("(+16.62 us)"), std::string::npos) << text;
  EXPECT_NE(text.find("+9.952 us"), std::string::npos) << text;
  EXPECT_NE(text.find("-1.030 us"), std::string::npos) << text;
  EXPECT_EQ(text.find(" ns "), std::string::npos) << text;
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


// The row of issue #32: pooled p50s that went down beside a paired
// estimate of +43.9%.
MetricComparison& PairedRow(Comparison& c) {
  auto it = std::find_if(c.rows.begin(), c.rows.end(), [](const MetricComparison& r) {
    return r.verdict == Verdict::kRegression;
  });
  MetricComparison& r = *it;
  r.unit = "us";
  r.scale = ChangeScale::kRelative;
  r.baseline_value = 9.109;
  r.candidate_value = 9.038;
  r.change = 0.439;
  r.ci_low = 0.2;
  r.ci_high = 0.7;
  r.test = "paired_signed_rank";
  return r;
}

TEST(TerminalReportTest, AChangeTheColumnsContradictIsMarkedAndTheColumnsAreNamed) {
  Comparison c = testing::SampleComparison();
  PairedRow(c);
  ReportOptions wide;
  wide.terminal_width = 400;  // the legend on one line
  const std::string text = Render(c, wide);
  EXPECT_NE(text.find("+43.9% \u2020"), std::string::npos) << text;
  EXPECT_NE(text.find("baseline, candidate: each side's statistic (stat) over all its samples"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("the median of the per-block changes"), std::string::npos) << text;
  EXPECT_NE(text.find("\u2020 the change the two columns imply lies outside the interval"),
            std::string::npos)
      << text;
  // Rows whose columns agree with their interval carry no mark.
  EXPECT_EQ(Count(text, "\u2020"), 2u) << text;
}

TEST(TerminalReportTest, AnUnboundedIntervalSaysWhyInWords) {
  Comparison c = testing::SampleComparison();
  MetricComparison& r = PairedRow(c);
  r.candidate_value = 13.1;
  r.ci_low = -1;  // exp(-inf) - 1: a signed-rank interval of 3 blocks
  r.ci_high = INFINITY;
  r.blocks = 3;
  const std::string text = Render(c);
  EXPECT_NE(text.find("unbounded: 3 blocks too few"), std::string::npos) << text;
  EXPECT_EQ(text.find("inf]"), std::string::npos) << text;
  EXPECT_EQ(text.find("-100.0%"), std::string::npos) << text;
}

TEST(TerminalReportTest, HeaderSaysWhatTheIntervalsAre) {
  const std::string text = Render(testing::SampleComparison());
  EXPECT_NE(text.find("95% intervals (Hodges\u2013Lehmann shift, rank-test bounds; a detected "
                      "change at the level that decided it)"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("bootstrap"), std::string::npos);
}

// Rows judged against earlier nights (gate --baseline history) show per-night
// values and a prediction interval: the legend and header say so, not the
// pooled samples' statistic and rank-test bounds of other comparisons.
TEST(TerminalReportTest, NightRowsSayTheyCompareTonightWithEarlierNights) {
  Comparison c = testing::SampleComparison();
  for (MetricComparison& r : c.rows) {
    r.test = "night_t";
    r.n_baseline = 6;
    r.n_candidate = 1;
  }
  c.rows.front().ci_low = -1;
  c.rows.front().ci_high = INFINITY;
  ReportOptions wide;
  wide.terminal_width = 400;
  wide.show_unchanged = true;
  const std::string text = Render(c, wide);
  EXPECT_NE(text.find("baseline: the earlier nights' median, candidate: tonight"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("a prediction interval for one new night"), std::string::npos) << text;
  EXPECT_NE(text.find("tonight against earlier nights, prediction-interval bounds"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("over all its samples"), std::string::npos) << text;
  EXPECT_EQ(text.find("Hodges"), std::string::npos) << text;
  EXPECT_NE(text.find("unbounded: 6 nights too few"), std::string::npos) << text;
}

TEST(TerminalReportTest, APartTheNightGateDidNotCountSaysWhyUnderItsTable) {
  // Seen on a main-job night that passed: "✗ …permute_copy.out#12 p10
  // +9.1% regression (not gated)" with nothing saying why it did not fail.
  Comparison c = testing::SampleComparison();
  MetricComparison* part = nullptr;
  for (MetricComparison& r : c.rows) {
    r.test = "night_t";
    if (part == nullptr && r.verdict == Verdict::kRegression && r.gated) part = &r;
  }
  ASSERT_NE(part, nullptr);
  part->gated = false;
  NightNote alert;
  alert.outcome = NightOutcome::kAlert;
  alert.nights = 7;
  alert.difference = std::log1p(0.091);
  alert.log_scale = true;
  part->notes = {alert, NotCountedNote{0.0004, 0.02, std::nullopt, std::nullopt}};
  ReportOptions wide;
  wide.terminal_width = 400;
  const std::string text = Render(c, wide);
  const std::string line = "  \u2717 " + part->label.substr(part->key.model.size() + 1) + " " +
                           StatisticName(part->statistic) +
                           ": first-night alert: tonight beyond the threshold against 7 nights "
                           "(+9.1%); not counted: moves Method::execute by +0.0% (threshold "
                           "2.0%; --every-part counts it)\n";
  EXPECT_NE(text.find(line), std::string::npos) << text;
  // Not for an ungated row without that note (the golden's load_method).
  EXPECT_EQ(Count(text, "not counted"), 1u) << text;
  // `etbench report GATE.json` prints the same line from the stored row.
  auto stored = ParseComparisonJson(RenderJsonComparison(c), "gate.json");
  ASSERT_TRUE(stored.ok()) << stored.error().message;
  EXPECT_EQ(Render(stored.value(), wide), text);
}

TEST(TerminalReportTest, APValueBelowDoublesEpsilonSaysSoNotZero) {
  // A night 40 standard errors away computes p = 0; "0.0e+00" claimed more
  // than a double knows.
  Comparison c = testing::SampleComparison();
  MetricComparison* row = nullptr;
  for (MetricComparison& r : c.rows) {
    if (row == nullptr && r.verdict == Verdict::kRegression) row = &r;
  }
  ASSERT_NE(row, nullptr);
  row->p_value = 0;
  row->p_adjusted = std::nullopt;
  ReportOptions wide;
  wide.terminal_width = 400;
  const std::string text = Render(c, wide);
  EXPECT_NE(text.find("<2.2e-16"), std::string::npos) << text;
  EXPECT_EQ(text.find("0.0e+00"), std::string::npos) << text;
}

}  // namespace
}  // namespace etbench::reports
