// The history report: its model from a real SQLite history, its Markdown,
// and its HTML page in headless Chromium (screenshot and DOM), like the
// comparison's HTML report. Chromium is required when CI=true.
#include "etbench/history/history_report.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "etbench/reports/history_report_render.h"
#include "history_test_util.h"
#include "support/chromium.h"
#include "support/test_support.h"

namespace etbench::history {
namespace {

using testing::Count;

// 30 runs; the convolution 8% slower from run 20.
std::vector<HistoryReport> Reports(const testing::TempDir& dir) {
  auto store = OpenHistory(dir.File("h.db"));
  EXPECT_TRUE(store.ok());
  for (int i = 0; i < 30; ++i) {
    testing::SyntheticRun run;
    run.index = i;
    run.conv_factor = i >= 20 ? 1.08 : 1.0;
    EXPECT_TRUE(*store.value()->AddRun(MakeRunRecord(testing::MakeSyntheticResults(run), "")));
  }
  auto reports = BuildHistoryReports(*store.value(), {}, {}, 4);
  EXPECT_TRUE(reports.ok());
  return reports.value();
}

TEST(HistoryReportTest, ModelHasExecuteFirstThenOperatorsAndMarksTheChange) {
  testing::TempDir dir;
  const std::vector<HistoryReport> reports = Reports(dir);
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
}

TEST(HistoryReportTest, HtmlRendersInHeadlessChromium) {
  ETBENCH_REQUIRE_CHROMIUM();
  testing::TempDir dir;
  const std::string html = ::etbench::reports::RenderHistoryHtml(Reports(dir));
  EXPECT_EQ(html.find("http"), std::string::npos) << "self-contained: no network";
  const std::string page = dir.File("history.html");
  testing::WriteTextFile(page, html);
  auto chromium = [&](const std::string& profile, const std::vector<std::string>& extra) {
    return testing::RunChromium(dir.File(profile), extra);
  };
  const std::string shot = dir.File("shot.png");
  const auto screenshot =
      chromium("p1", {"--window-size=1000,1400", "--screenshot=" + shot, "file://" + page});
  ASSERT_FALSE(screenshot.timed_out);
  ASSERT_TRUE(std::filesystem::exists(shot)) << screenshot.stderr_text;
  EXPECT_GT(std::filesystem::file_size(shot), 20000u) << "an almost empty screenshot";
  if (const char* keep = std::getenv("ETBENCH_KEEP_SCREENSHOT")) {
    std::filesystem::copy_file(shot, keep, std::filesystem::copy_options::overwrite_existing);
  }
  const auto dump = chromium("p2", {"--dump-dom", "file://" + page});
  ASSERT_TRUE(dump.Succeeded()) << dump.stderr_text;
  const std::string& dom = dump.stdout_text;
  EXPECT_EQ(Count(dom, "<svg class=\"trend-chart\""), 4u);  // execute, conv, relu, tax
  EXPECT_EQ(Count(dom, "class=\"band\""), 4u);
  // The conv, execute (and the framework tax's fall) are marked at c19..c20.
  EXPECT_GE(Count(dom, "class=\"change-line\""), 2u);
  EXPECT_NE(dom.find("c19..c20"), std::string::npos);
  EXPECT_NE(dom.find("class=\"banner fail\""), std::string::npos);
  EXPECT_EQ(Count(dom, "<tr class=\"regression\">"), 4u);  // open table + every-change table
}

}  // namespace
}  // namespace etbench::history
