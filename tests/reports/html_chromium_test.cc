// The HTML report in a real browser: headless Chromium renders it, runs its
// script (sorting from the URL fragment), takes a screenshot and dumps the
// DOM. Skipped without /usr/bin/chromium unless CI=true (CI installs it).

#include <gtest/gtest.h>
#include <cstdlib>
#include <filesystem>

#include "etbench/compare/thresholds.h"
#include "etbench/harness/process.h"
#include "etbench/reports/html_report.h"
#include "report_test_data.h"
#include "support/chromium.h"
#include "support/compare_test_util.h"
#include "support/test_support.h"

namespace etbench::reports {
namespace {

using testing::Count;
using testing::RunChromium;

// Width and height from a PNG's IHDR chunk (0 when not a PNG).
std::pair<uint32_t, uint32_t> PngSize(const std::vector<uint8_t>& png) {
  static const uint8_t kSignature[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (png.size() < 24 || !std::equal(std::begin(kSignature), std::end(kSignature), png.begin())) {
    return {0, 0};
  }
  auto be32 = [&](std::size_t at) {
    return (uint32_t{png[at]} << 24) | (uint32_t{png[at + 1]} << 16) | (uint32_t{png[at + 2]} << 8) |
           uint32_t{png[at + 3]};
  };
  return {be32(16), be32(20)};
}

TEST(HtmlChromiumTest, ReportRendersAndSortsInHeadlessChromium) {
  ETBENCH_REQUIRE_CHROMIUM();
  const testing::MetricSetPair sets = testing::SampleMetricSets();
  auto c = testing::CheckedCompare(sets.baseline, sets.candidate, DefaultThresholds());
  ASSERT_TRUE(c.ok()) << c.error().message;
  ReportInput input;
  input.comparison = &c.value();
  input.baseline = &sets.baseline;
  input.candidate = &sets.candidate;
  input.title = "toy suite";
  testing::TempDir dir;
  const std::string page = dir.File("report.html");
  testing::WriteTextFile(page, RenderHtmlComparison(input, {}));
  const std::string url = "file://" + page;

  const std::string shot = dir.File("shot.png");
  const harness::ProcessResult screenshot = RunChromium(
      dir.File("profile-1"), {"--window-size=1280,1800", "--screenshot=" + shot, url});
  ASSERT_FALSE(screenshot.timed_out) << "chromium --screenshot timed out";
  ASSERT_TRUE(std::filesystem::exists(shot)) << screenshot.stderr_text;
  const std::vector<uint8_t> png = testing::ReadBinaryFile(shot);
  EXPECT_EQ(PngSize(png), (std::pair<uint32_t, uint32_t>{1280, 1800}));
  EXPECT_GT(png.size(), 20000u) << "an almost empty screenshot";
  if (const char* keep = std::getenv("ETBENCH_KEEP_SCREENSHOT")) {
    std::filesystem::copy_file(shot, keep, std::filesystem::copy_options::overwrite_existing);
  }

  // Sort the verdict table by change (column 4), descending, from the URL.
  const harness::ProcessResult dump = RunChromium(
      dir.File("profile-2"), {"--dump-dom", url + "#sort=verdicts-0-toy_cnn:4:desc"});
  ASSERT_TRUE(dump.Succeeded()) << harness::DescribeProcessExit(dump, 20) << "\n"
                                << dump.stderr_text;
  const std::string& dom = dump.stdout_text;
  EXPECT_NE(dom.find("data-etbench-ready=\"1\""), std::string::npos) << "the script did not run";
  EXPECT_EQ(Count(dom, "<svg class=\"bar-chart\""), 1u);
  EXPECT_EQ(Count(dom, "class=\"bar-group\""), 8u);
  EXPECT_EQ(Count(dom, "<svg class=\"box-plot\""), 5u);
  EXPECT_EQ(Count(dom, "<svg class=\"run-chart\""), 1u);
  EXPECT_NE(dom.find("data-sorted-by=\"4:desc\""), std::string::npos);
  EXPECT_NE(dom.find("aria-sort=\"descending\""), std::string::npos);
  // After sorting, the first body row is the largest change: convolution #3.
  const std::size_t body = dom.find("<tbody>", dom.find("id=\"verdicts-0-toy_cnn\""));
  ASSERT_NE(body, std::string::npos);
  const std::size_t first_row_end = dom.find("</tr>", body);
  EXPECT_NE(dom.substr(body, first_row_end - body).find("native_call_convolution.out#3"),
            std::string::npos)
      << dom.substr(body, first_row_end - body);
}


// The page of a long run (200,000 executions per side) in a real browser:
// it renders, its script runs, and the framework tax is one grouped chart.
// How fast is measured, not asserted here: docs/reports.md (HTML).
TEST(HtmlChromiumTest, ALongRunsReportRendersWithGroupedRuns) {
  ETBENCH_REQUIRE_CHROMIUM();
  const testing::MetricSetPair sets = testing::LongRunMetricSets(200000);
  const testing::MetricSetPair small = testing::SampleMetricSets();
  auto c = testing::CheckedCompare(small.baseline, small.candidate, DefaultThresholds());
  ASSERT_TRUE(c.ok()) << c.error().message;
  ReportInput input;
  input.comparison = &c.value();
  input.baseline = &sets.baseline;
  input.candidate = &sets.candidate;
  testing::TempDir dir;
  const std::string page = dir.File("long.html");
  testing::WriteTextFile(page, RenderHtmlComparison(input, {}));
  const harness::ProcessResult dump =
      RunChromium(dir.File("profile"), {"--dump-dom", "file://" + page});
  ASSERT_TRUE(dump.Succeeded()) << harness::DescribeProcessExit(dump, 20) << "\n"
                                << dump.stderr_text;
  const std::string& dom = dump.stdout_text;
  EXPECT_NE(dom.find("data-etbench-ready=\"1\""), std::string::npos) << "the script did not run";
  EXPECT_NE(dom.find("data-etbench-ready-ms=\""), std::string::npos);
  EXPECT_EQ(Count(dom, "<svg class=\"run-chart\""), 1u);
  EXPECT_EQ(Count(dom, "<polygon class=\"band\""), 2u);
  EXPECT_NE(dom.find(">1667 runs per point</text>"), std::string::npos);
  EXPECT_EQ(dom.find("bootstrap"), std::string::npos);
  EXPECT_LT(dom.size(), 400000u);
}

}  // namespace
}  // namespace etbench::reports
