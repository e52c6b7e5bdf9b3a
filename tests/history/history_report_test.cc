// The history report: its model from a history (in memory), its Markdown,
// and its HTML page in headless Chromium (screenshot and DOM), like the
// comparison's HTML report. Chromium is required when CI=true.
#include "etbench/history/history_report.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "etbench/reports/history_report_render.h"
#include "history_test_util.h"
#include "support/memory_history_store.h"
#include "support/chromium.h"
#include "support/test_support.h"

namespace etbench::history {
namespace {

using testing::Count;

// 30 runs; the convolution 8% slower from run 20. With `machine_shift`, 8
// more operators (so that runs have a machine level) and every operator 10%
// slower in runs 8..15: a neighbour on the VM, two machine shifts.
std::vector<HistoryReport> Reports(bool machine_shift = false) {
  testing::MemoryHistoryStore store;  // the report is tested, not the database
  for (int i = 0; i < 30; ++i) {
    testing::SyntheticRun run;
    run.index = i;
    run.conv_factor = i >= 20 ? 1.08 : 1.0;
    if (machine_shift) {
      run.extra_operators = 8;
      run.load_factor = i >= 8 && i < 16 ? 1.10 : 1.0;
    }
    EXPECT_TRUE(*store.AddRun(MakeRunRecord(testing::MakeSyntheticResults(run), "")));
  }
  auto reports = BuildHistoryReports(store, {}, {}, 4);
  EXPECT_TRUE(reports.ok());
  return reports.value();
}

// The page in headless Chromium: a screenshot (kept at
// ETBENCH_KEEP_SCREENSHOT[_SUFFIX]) and the DOM it built.
std::string ChromiumDom(const testing::TempDir& dir, const std::string& html,
                        const std::string& suffix = "") {
  EXPECT_EQ(html.find("http"), std::string::npos) << "self-contained: no network";
  const std::string page = dir.File("history" + suffix + ".html");
  testing::WriteTextFile(page, html);
  auto chromium = [&](const std::string& profile, const std::vector<std::string>& extra) {
    return testing::RunChromium(dir.File(profile + suffix), extra);
  };
  const std::string shot = dir.File("shot" + suffix + ".png");
  const auto screenshot =
      chromium("p1", {"--window-size=1000,1400", "--screenshot=" + shot, "file://" + page});
  EXPECT_FALSE(screenshot.timed_out);
  EXPECT_TRUE(std::filesystem::exists(shot)) << screenshot.stderr_text;
  if (!std::filesystem::exists(shot)) return "";
  EXPECT_GT(std::filesystem::file_size(shot), 20000u) << "an almost empty screenshot";
  if (const char* keep = std::getenv(("ETBENCH_KEEP_SCREENSHOT" + suffix).c_str())) {
    std::filesystem::copy_file(shot, keep, std::filesystem::copy_options::overwrite_existing);
  }
  const auto dump = chromium("p2", {"--dump-dom", "file://" + page});
  EXPECT_TRUE(dump.Succeeded()) << dump.stderr_text;
  return dump.stdout_text;
}

// The part of `text` from `from` up to the next `to` (or its end).
std::string Between(const std::string& text, const std::string& from, const std::string& to) {
  const std::size_t begin = text.find(from);
  if (begin == std::string::npos) return "";
  const std::size_t end = text.find(to, begin + from.size());
  return text.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

TEST(HistoryReportTest, ModelHasExecuteFirstThenOperatorsAndMarksTheChange) {
  const std::vector<HistoryReport> reports = Reports();
  ASSERT_EQ(reports.size(), 1u);
  ASSERT_EQ(reports[0].models.size(), 1u);
  const ModelTrends& m = reports[0].models[0];
  ASSERT_EQ(m.trends.size(), 3u);  // execute, conv, relu
  EXPECT_EQ(m.trends[0].label, "net/Execute/Method::execute");
  EXPECT_EQ(m.trends[1].label, "net/Execute/native_call_convolution.out#0");
  ASSERT_EQ(m.trends[1].points.size(), 30u);
  for (const TrendPoint& p : m.trends[1].points) {
    EXPECT_LE(p.low, p.p50);
    EXPECT_GE(p.high, p.p50);
    EXPECT_LT(p.low, p.high);
  }
  ASSERT_EQ(m.trends[1].change_points.size(), 1u);
  EXPECT_EQ(m.trends[1].change_points[0].index, 20u);
  EXPECT_TRUE(m.trends[2].change_points.empty());  // relu did not move
  ASSERT_EQ(m.framework_tax.size(), 1u);

  const std::string md = ::etbench::reports::RenderHistoryMarkdown(reports);
  EXPECT_EQ(md.rfind("### ❌ default on dev1: 2 open regressions", 0), 0u) << md;
  EXPECT_NE(md.find("`c19..c20`"), std::string::npos);
  EXPECT_LT(md.size(), 4000u);  // sized for an issue
  // No machine shift, no word of one.
  EXPECT_TRUE(reports[0].machine_shifts.empty());
  EXPECT_EQ(md.find("machine"), std::string::npos) << md;
}

TEST(HistoryReportTest, MarkdownShowsMachineShiftsApartFromTheCodesChangePoints) {
  const std::vector<HistoryReport> reports = Reports(true);
  ASSERT_EQ(reports.size(), 1u);
  const HistoryReport& r = reports[0];
  ASSERT_EQ(r.machine_shifts.size(), 2u);
  EXPECT_EQ(r.machine_shifts[0].index, 8u);
  EXPECT_EQ(r.machine_shifts[1].index, 16u);
  EXPECT_NEAR(r.machine_shifts[0].change, 0.10, 0.02);
  EXPECT_EQ(r.OpenRegressions(), CountOpenRegressions(r.change_points));  // the machine passes
  for (const ChangePoint& c : r.change_points) EXPECT_EQ(c.index, 20u) << c.label;

  const std::string md = ::etbench::reports::RenderHistoryMarkdown(reports);
  EXPECT_EQ(md.rfind("### ❌ default on dev1: 2 open regressions, ", 0), 0u) << md;
  EXPECT_NE(md.find(" change points, 2 machine shifts in 30 runs\n"), std::string::npos) << md;
  const std::string shifts = Between(md, "#### Machine shifts\n", "###");
  ASSERT_FALSE(shifts.empty()) << md;
  EXPECT_NE(shifts.find("Every operator moved together: the machine, not the code."),
            std::string::npos);
  EXPECT_NE(shifts.find("| `" + r.machine_shifts[0].id + "` | `c7..c8` | **+"),
            std::string::npos) << shifts;
  EXPECT_NE(shifts.find("| `" + r.machine_shifts[1].id + "` | `c15..c16` | **-"),
            std::string::npos) << shifts;
  EXPECT_EQ(Count(shifts, "| passes | machine shift"), 2u) << shifts;
  // The open change points are the code's: the convolution and execute at
  // c19..c20, not the machine.
  const std::string open = Between(md, "#### Open change points", "####");
  ASSERT_FALSE(open.empty()) << md;
  EXPECT_NE(open.find("`c19..c20`"), std::string::npos) << open;
  EXPECT_EQ(open.find("c7..c8"), std::string::npos) << open;
  EXPECT_EQ(open.find("c15..c16"), std::string::npos) << open;
  EXPECT_EQ(open.find("machine"), std::string::npos) << open;
  EXPECT_LT(md.size(), 4000u);  // sized for an issue
}

TEST(HistoryReportTest, HtmlRendersInHeadlessChromium) {
  ETBENCH_REQUIRE_CHROMIUM();
  testing::TempDir dir;
  const std::string dom = ChromiumDom(dir, ::etbench::reports::RenderHistoryHtml(Reports()));
  ASSERT_FALSE(dom.empty());
  EXPECT_EQ(Count(dom, "<svg class=\"trend-chart\""), 4u);  // execute, conv, relu, tax
  EXPECT_EQ(Count(dom, "class=\"band\""), 4u);
  // The conv, execute (and the framework tax's fall) are marked at c19..c20.
  EXPECT_GE(Count(dom, "class=\"change-line\""), 2u);
  EXPECT_NE(dom.find("c19..c20"), std::string::npos);
  EXPECT_NE(dom.find("class=\"banner fail\""), std::string::npos);
  EXPECT_EQ(Count(dom, "<tr class=\"regression\">"), 4u);  // open table + every-change table
  EXPECT_EQ(dom.find("machine"), std::string::npos) << "no machine shift, no word of one";
}

TEST(HistoryReportTest, HtmlMarksMachineShiftsOnTheChartsAndListsThemApart) {
  ETBENCH_REQUIRE_CHROMIUM();
  testing::TempDir dir;
  const std::vector<HistoryReport> reports = Reports(true);
  ASSERT_EQ(reports.size(), 1u);
  ASSERT_EQ(reports[0].machine_shifts.size(), 2u);
  const std::string dom =
      ChromiumDom(dir, ::etbench::reports::RenderHistoryHtml(reports), "_MACHINE");
  ASSERT_FALSE(dom.empty());
  // Execute, the four slowest operators, the framework tax: each chart has
  // both shifts, drawn apart from the change points, and the model a legend.
  const std::size_t charts = Count(dom, "<svg class=\"trend-chart\"");
  EXPECT_EQ(charts, 6u);
  EXPECT_EQ(Count(dom, "<g class=\"machine-mark\">"), 2 * charts);
  EXPECT_EQ(Count(dom, "class=\"machine-line\""), 2 * charts);
  EXPECT_NE(dom.find(">machine +"), std::string::npos);
  EXPECT_NE(dom.find("<title>machine shift c7..c8 +"), std::string::npos);
  EXPECT_EQ(Count(dom, "<p class=\"legend\">"), 1u);
  EXPECT_NE(dom.find("class=\"swatch machine\""), std::string::npos);
  EXPECT_GE(Count(dom, "class=\"change-line\""), 2u);  // the code's change at c19..c20
  EXPECT_NE(dom.find("2 machine shifts"), std::string::npos);  // in the banner
  // Their table: both pass; the open change points are the code's only.
  const std::string table = Between(dom, "<table class=\"machine-shifts\">", "</table>");
  EXPECT_EQ(Count(table, "<tr class=\"machine-shift passes\">"), 2u) << table;
  EXPECT_NE(table.find("c7..c8"), std::string::npos);
  EXPECT_NE(table.find("c15..c16"), std::string::npos);
  EXPECT_NE(dom.find("Every operator moved together: the machine, not the code."),
            std::string::npos);
  const std::string open = Between(dom, "<h3>Open change points</h3>", "</table>");
  EXPECT_NE(open.find("c19..c20"), std::string::npos) << open;
  EXPECT_EQ(open.find("c7..c8"), std::string::npos) << open;
  EXPECT_EQ(open.find("machine"), std::string::npos) << open;
  EXPECT_EQ(Count(dom, "<tr class=\"regression\">"), 4u);  // as without the shift
}

}  // namespace
}  // namespace etbench::history
