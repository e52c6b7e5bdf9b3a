#include "etbench/reports/baseline_summary.h"

#include <gtest/gtest.h>

#include "support/compare_test_util.h"

namespace etbench::reports {
namespace {

TEST(BaselineSummaryTest, ListsContextAndEachMetricsCountAndMedian) {
  Baseline b;
  b.name = "nightly";
  b.created = "2025-01-02T03:04:05Z";
  b.metrics.context = {{"suite", "default"}};
  b.metrics.metrics.push_back(
      testing::EventMetric("native_call_convolution.out", 3, {0.1, 1.0 / 3, 2e-9}));
  const std::string text = RenderBaselineSummary(b);
  EXPECT_NE(text.find("Baseline 'nightly' created 2025-01-02T03:04:05Z, 1 metrics\n"
                      "  suite: default\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("native_call_convolution.out#3  n=3  p50=100.0 us"), std::string::npos)
      << text;
}

TEST(BaselineSummaryTest, NamesFromTheFileCannotDriveTheTerminal) {
  Baseline b;
  b.name = "evil\x1b[2Jname";
  const std::string text = RenderBaselineSummary(b);
  EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
}

}  // namespace
}  // namespace etbench::reports
