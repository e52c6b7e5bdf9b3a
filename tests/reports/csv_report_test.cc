#include "etbench/reports/csv_report.h"

#include <gtest/gtest.h>

#include "report_test_data.h"

namespace etbench::reports {
namespace {

TEST(CsvReportTest, ComparisonMatchesGolden) {
  testing::ExpectMatchesGolden(RenderDelimitedComparison(testing::SampleComparison(), ','),
                               "comparison.csv");
}

TEST(CsvReportTest, ResultsAsTsvMatchGolden) {
  testing::ExpectMatchesGolden(RenderDelimitedResults(testing::SampleResults(), '\t'),
                               "results.tsv");
}

TEST(CsvReportTest, FieldsWithSeparatorsOrQuotesAreQuoted) {
  Comparison c = testing::SampleComparison();
  c.rows[0].notes = {StoredReasonNote{"a, \"quoted\" reason"}};
  const std::string csv = RenderDelimitedComparison(c, ',');
  EXPECT_NE(csv.find(",\"a, \"\"quoted\"\" reason\","), std::string::npos);
  const std::string tsv = RenderDelimitedComparison(c, '\t');
  EXPECT_NE(tsv.find("\t\"a, \"\"quoted\"\" reason\"\t"), std::string::npos);
}

TEST(CsvReportTest, OneRowPerComparedMetricWithFullPrecision) {
  Comparison c = testing::SampleComparison();
  c.rows[0].baseline_value = 0.1 + 0.2;
  const std::string csv = RenderDelimitedComparison(c, ',');
  std::size_t lines = 0;
  for (char ch : csv) lines += ch == '\n';
  EXPECT_EQ(lines, 1 + c.rows.size());
  EXPECT_NE(csv.find("0.30000000000000004"), std::string::npos);
}

}  // namespace
}  // namespace etbench::reports
