// The history report's renderers on a hand-built model (so the goldens do
// not move when detection is refined): Markdown against goldens with and
// without machine shifts, and the HTML's structure. The page in headless
// Chromium, on a real history, is tests/history/history_report_test.cc.
#include "etbench/reports/history_report_render.h"

#include <gtest/gtest.h>

#include <string>

#include "report_test_data.h"
#include "support/test_support.h"

namespace etbench::reports {
namespace {

using history::ChangePoint;
using history::HistoryReport;
using history::MachineShift;
using history::Trend;
using testing::Count;

constexpr std::size_t kRuns = 12;

ChangePoint Change(const std::string& id, const std::string& label, const std::string& unit,
                   double before, double after, bool acknowledged) {
  ChangePoint c;
  c.id = id;
  c.label = label;
  c.unit = unit;
  c.index = 8;
  c.commit_before = "c7";
  c.commit_after = "c8";
  c.time_after = "2026-01-01T00:08:00Z";
  c.before = before;
  c.after = after;
  c.runs_before = 8;
  c.runs_after = 4;
  c.change = (after - before) / before;
  c.change_low = c.change * 0.8;
  c.change_high = c.change * 1.2;
  c.p_value = 1e-6;
  c.regression = after > before;
  c.acknowledged = acknowledged;
  return c;
}

// `value(run)` per run, with a ±1% interval.
template <typename Value>
Trend MakeTrend(const std::string& label, const std::string& unit, Value value) {
  Trend t;
  t.label = label;
  t.unit = unit;
  for (std::size_t r = 0; r < kRuns; ++r) {
    const double v = value(r);
    t.points.push_back({r, v, v * 0.99, v * 1.01});
  }
  return t;
}

// One suite, one model of 12 runs: the convolution 8% slower from run 9
// (c8, open), Method::execute with it (acknowledged), the framework tax
// down (an improvement).
HistoryReport Report() {
  HistoryReport r;
  r.suite = "default";
  r.device = "dev1";
  for (std::size_t i = 0; i < kRuns; ++i) {
    history::RunSummary run;
    run.id = static_cast<int64_t>(i + 1);
    run.run_id = "run" + std::to_string(i);
    run.git_commit = "c" + std::to_string(i);
    run.time = "2026-01-01T00:" + std::string(i < 10 ? "0" : "") + std::to_string(i) + ":00Z";
    r.runs.push_back(run);
  }
  r.metrics_tested = 4;
  const ChangePoint conv =
      Change("0123456789ab", "net/Execute/native_call_convolution.out#0", "ms", 1.0, 1.08, false);
  const ChangePoint execute =
      Change("123456789abc", "net/Execute/Method::execute", "ms", 1.25, 1.33, true);
  const ChangePoint tax =
      Change("23456789abcd", "net/Execute/framework_tax", "percent", 4.0, 3.75, false);
  r.change_points = {execute, conv, tax};
  history::ModelTrends m;
  m.model = "net";
  m.trends.push_back(
      MakeTrend(execute.label, "ms", [](std::size_t i) { return i >= 8 ? 1.33 : 1.25; }));
  m.trends.back().change_points = {execute};
  m.trends.push_back(
      MakeTrend(conv.label, "ms", [](std::size_t i) { return i >= 8 ? 1.08 : 1.0; }));
  m.trends.back().change_points = {conv};
  m.framework_tax.push_back(
      MakeTrend(tax.label, "percent", [](std::size_t i) { return i >= 8 ? 3.75 : 4.0; }));
  m.framework_tax.back().change_points = {tax};
  r.models.push_back(m);
  return r;
}

MachineShift Shift(const std::string& id, std::size_t index, double change) {
  MachineShift m;
  m.id = id;
  m.index = index;
  m.commit_before = "c" + std::to_string(index - 1);
  m.commit_after = "c" + std::to_string(index);
  m.time_after = "2026-01-01T00:0" + std::to_string(index) + ":00Z";
  m.runs_before = index;
  m.runs_after = 3;
  m.change = change;
  m.change_low = change - 0.01;
  m.change_high = change + 0.01;
  m.p_value = 1e-5;
  return m;
}

// Report() with three machine shifts: a neighbour in runs 3..5 (came back),
// and a new slower level from run 10 (c10) that stays — possibly a code
// change that slowed every operator, open unless `acknowledged`.
HistoryReport ReportWithShifts(bool acknowledged = false) {
  HistoryReport r = Report();
  MachineShift slower = Shift("aaaaaaaaaaa1", 3, 0.10);
  MachineShift back = Shift("aaaaaaaaaaa2", 6, -0.09);
  MachineShift stays = Shift("aaaaaaaaaaa3", 10, 0.04);
  stays.persists = true;
  stays.possible_code_change = true;
  stays.regression = true;
  stays.acknowledged = acknowledged;
  r.machine_shifts = {slower, back, stays};
  return r;
}

TEST(HistoryReportRenderTest, MarkdownWithoutMachineShiftsMatchesGolden) {
  testing::ExpectMatchesGolden(RenderHistoryMarkdown({Report()}), "history_report.md");
}

TEST(HistoryReportRenderTest, HtmlWithoutMachineShiftsMatchesGolden) {
  // One line of HTML: what a page without a machine shift was before they
  // were shown, byte for byte.
  testing::ExpectMatchesGolden(RenderHistoryHtml({Report()}), "history_report.html");
}

TEST(HistoryReportRenderTest, MarkdownWithMachineShiftsMatchesGolden) {
  testing::ExpectMatchesGolden(RenderHistoryMarkdown({ReportWithShifts()}),
                               "history_report_machine_shift.md");
}

TEST(HistoryReportRenderTest, AnOpenMachineShiftFailsTheSummaryButIsNoChangePoint) {
  const std::string md = RenderHistoryMarkdown({ReportWithShifts()});
  // The convolution and the possible code change are open; execute is acknowledged.
  EXPECT_EQ(md.rfind("### ❌ default on dev1: 2 open regressions, 3 change points, 3 machine "
                     "shifts in 12 runs\n", 0), 0u) << md;
  const std::size_t open = md.find("#### Open change points");
  const std::size_t shifts = md.find("#### Machine shifts");
  ASSERT_NE(open, std::string::npos);
  ASSERT_NE(shifts, std::string::npos);
  const std::string open_table = md.substr(open, shifts - open);
  EXPECT_EQ(Count(open_table, "\n| `"), 1u) << open_table;  // the convolution only
  EXPECT_EQ(open_table.find("aaaaaaaaaaa"), std::string::npos) << open_table;
  EXPECT_NE(md.find("| `aaaaaaaaaaa3` | `c9..c10` | **+4.0%** | [+3.0%, +5.0%] | **FAILS until "
                    "acknowledged** | machine shift or a code change that slowed every operator |"),
            std::string::npos) << md;
  // Acknowledged: it passes the summary, and says so.
  const std::string acked = RenderHistoryMarkdown({ReportWithShifts(true)});
  EXPECT_EQ(acked.rfind("### ❌ default on dev1: 1 open regression, ", 0), 0u) << acked;
  EXPECT_NE(acked.find("| [+3.0%, +5.0%] | acknowledged | machine shift or a code change"),
            std::string::npos) << acked;
}

TEST(HistoryReportRenderTest, MarkdownListsTheOpenAndTheNewestShiftsOnly) {
  HistoryReport r = Report();
  for (std::size_t i = 1; i <= 11; ++i) {
    r.machine_shifts.push_back(
        Shift("bbbbbbbbbb" + std::string(i < 10 ? "0" : "") + std::to_string(i), i, 0.05));
  }
  r.machine_shifts[0].regression = true;  // run 1's shift is open: it stays listed
  const std::string md = RenderHistoryMarkdown({r});
  EXPECT_EQ(Count(md, "| `bbbbbbbbbb"), 8u) << md;
  EXPECT_NE(md.find("`bbbbbbbbbb01`"), std::string::npos);
  EXPECT_EQ(md.find("`bbbbbbbbbb02`"), std::string::npos);  // older, passing: left out
  EXPECT_NE(md.find("`bbbbbbbbbb11`"), std::string::npos);
  EXPECT_NE(md.find("\n3 earlier machine shifts not listed (the HTML report lists every one).\n"),
            std::string::npos) << md;
  // The page lists every one and marks every one; labels only where they fit
  // (a shift every run is 58 px apart on a 12-run chart: every other one).
  const std::string html = RenderHistoryHtml({r});
  EXPECT_EQ(Count(html, "<tr class=\"machine-shift "), 11u);
  EXPECT_EQ(Count(html, "<g class=\"machine-mark\">"), 3u * 11u);
  EXPECT_EQ(Count(html, ">machine +5.0%</text>"), 3u * 6u);
}

TEST(HistoryReportRenderTest, HtmlTablesAndMarksTheShiftsApartFromTheChangePoints) {
  const std::string html = RenderHistoryHtml({ReportWithShifts()});
  EXPECT_EQ(html.find("http"), std::string::npos) << "self-contained: no network";
  EXPECT_NE(html.find("2 open regressions · 3 change points · 3 machine shifts · 12 runs"),
            std::string::npos);
  EXPECT_EQ(Count(html, "<tr class=\"machine-shift passes\">"), 2u);
  EXPECT_EQ(Count(html, "<tr class=\"machine-shift fails\">"), 1u);
  EXPECT_EQ(Count(html, "<g class=\"machine-mark\">"), 3u * 3u);  // 3 charts × 3 shifts
  EXPECT_EQ(Count(html, "<g class=\"change-point\">"), 3u);
  EXPECT_EQ(Count(html, "<p class=\"legend\">"), 1u);
  EXPECT_NE(html.find(".machine-line{"), std::string::npos);
  // The open table holds the convolution only; the shifts are in their own.
  const std::size_t open = html.find("<h3>Open change points</h3>");
  const std::size_t shifts = html.find("<h3>Machine shifts</h3>");
  ASSERT_LT(open, shifts);
  EXPECT_EQ(Count(html.substr(open, shifts - open), "<tr class="), 1u);  // the convolution
  EXPECT_NE(html.find("the machine, not the code"), std::string::npos);
  EXPECT_NE(html.find("fails the gate until acknowledged"), std::string::npos);
}

TEST(HistoryReportRenderTest, ABlockShiftIsNamedAndMarkedOnlyOnItsBlocksTrends) {
  // The load path's shift (block Default): no trend of the Execute block
  // gets its mark, and the tables name the block, not every operator.
  HistoryReport r = Report();
  MachineShift load = Shift("ccccccccccc1", 5, -0.06);
  load.group = "Default";
  load.persists = true;
  r.machine_shifts = {load};
  const std::string md = RenderHistoryMarkdown({r});
  EXPECT_NE(md.find("| `ccccccccccc1` | `c4..c5` | **-6.0%** | [-7.0%, -5.0%] | passes | shift of "
                    "block Default |"),
            std::string::npos) << md;
  EXPECT_NE(md.find("A shift of block B: every metric of block B"), std::string::npos) << md;
  const std::string html = RenderHistoryHtml({r});
  EXPECT_EQ(Count(html, "<g class=\"machine-mark\">"), 0u) << "no Default-block trend";
  EXPECT_NE(html.find("<td>shift of block Default</td>"), std::string::npos);
  EXPECT_NE(html.find("A shift of block B"), std::string::npos);
}

}  // namespace
}  // namespace etbench::reports

namespace etbench::reports {
namespace {

TEST(HistoryReportRenderTest, ChartsLabelRunsWithCommitsAndDates) {
  const std::string html = RenderHistoryHtml({Report()});
  EXPECT_EQ(html.find(">run 1<"), std::string::npos) << "no bare run numbers on the x-axis";
  // 7 of the 12 runs are labelled (first and last included), with their
  // commit and date; a history of up to 7 runs has every run labelled.
  EXPECT_EQ(Count(html, "<g class=\"run-tick\">"), 3u * 7u);
  EXPECT_NE(html.find("<text class=\"xtick first\" x=\"64.0\" y=\"202\">c0</text>"), std::string::npos)
      << html;
  // The runs share a day: the date shows day and time, without the year.
  EXPECT_NE(html.find(">01-01 00:11</text>"), std::string::npos) << html;
}

TEST(HistoryReportRenderTest, CaptionsNameTheAxisUnitAndWhetherItStartsAtZero) {
  const std::string html = RenderHistoryHtml({Report()});
  // Method::execute 1.25–1.33 ms (±1%): the axis is in us, not from zero,
  // and its ticks carry the caption's unit.
  EXPECT_NE(html.find("<code>net/Execute/Method::execute</code> p50 per run, in us (band: 95% "
                      "interval of the run's median; y-axis 1200\u20131350 us, not from zero)"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find(">1300 us</text>"), std::string::npos);
  EXPECT_EQ(html.find("ms)</figcaption>"), std::string::npos);
  EXPECT_NE(html.find("p50 per run, in % (band"), std::string::npos);
}

TEST(HistoryReportRenderTest, LongHistoriesLabelSevenRunsFromFirstToLast) {
  HistoryReport r = Report();
  for (std::size_t i = kRuns; i < 100; ++i) {
    history::RunSummary run;
    run.git_commit = "d" + std::to_string(i);
    const std::size_t day = i % 28 + 1;
    run.time = "2026-03-" + std::string(day < 10 ? "0" : "") + std::to_string(day) + "T03:00:00Z";
    r.runs.push_back(run);
  }
  const std::string html = RenderHistoryHtml({r});
  EXPECT_EQ(Count(html, "<g class=\"run-tick\">"), 3u * 7u);
  // Labelled runs on different days: the day alone.
  EXPECT_NE(html.find(">2026-03-16</text>"), std::string::npos) << "run 100: day 99 % 28 + 1";
  EXPECT_NE(html.find(">c0</text>"), std::string::npos);
  EXPECT_NE(html.find(">d99</text>"), std::string::npos);
}

}  // namespace
}  // namespace etbench::reports
