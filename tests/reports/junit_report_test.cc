#include "etbench/reports/junit_report.h"

#include <gtest/gtest.h>

#include "report_test_data.h"
#include "support/test_support.h"
#include "xml_check.h"

namespace etbench::reports {
namespace {

using testing::Count;

TEST(JunitReportTest, ComparisonMatchesGolden) {
  testing::ExpectMatchesGolden(RenderJunitComparison(testing::SampleComparison(), {}),
                               "comparison_junit.xml");
}

TEST(JunitReportTest, ComparisonIsWellFormedWithOneCasePerGatedMetric) {
  const std::string xml = RenderJunitComparison(testing::SampleComparison(), {});
  EXPECT_EQ(testing::XmlWellFormednessError(xml), "");
  EXPECT_EQ(Count(xml, "<testcase "), 8u);  // 9 rows, one not gated
  EXPECT_EQ(Count(xml, "<testsuite "), 2u);  // grouped by model
  EXPECT_EQ(Count(xml, "<failure "), 2u);
  EXPECT_EQ(Count(xml, "<skipped "), 1u);
  EXPECT_NE(xml.find("<testsuites name=\"etbench\" tests=\"8\" failures=\"2\" errors=\"0\" skipped=\"1\""),
            std::string::npos);
  // The numbers are in the failure message.
  EXPECT_NE(xml.find("message=\"regression: p50 1.032 ms -&gt; 1.161 ms (estimated change +12.5%"), std::string::npos)
      << xml;
}

TEST(JunitReportTest, ARegressionOutcomeThatNoRowCarriesIsAFailingCase) {
  // The nightly gate fails a night whose rows passed when tonight confirmed
  // a change point: its JUnit had no failure, so CI showed green tests.
  Comparison c = testing::SampleComparison();
  for (MetricComparison& r : c.rows) {
    if (r.verdict == Verdict::kRegression) r.verdict = Verdict::kUnchanged;
  }
  c.outcome = GateOutcome::kRegression;
  c.warnings.push_back(TextWarning{"change point confirmed tonight: m/Execute/Method::execute#0 +5.2% <x>"});
  const std::string xml = RenderJunitComparison(c, {});
  EXPECT_EQ(testing::XmlWellFormednessError(xml), "");
  EXPECT_EQ(Count(xml, "<failure "), 1u) << xml;
  // Its text: every warning of the comparison, one a line.
  EXPECT_NE(xml.find("<testcase classname=\"etbench.gate\" name=\"outcome\" time=\"0\">\n"
                     "      <failure type=\"regression\" message=\"regression: the gate failed "
                     "with no row regressed\">"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("\nchange point confirmed tonight: m/Execute/Method::execute#0 +5.2% "
                     "&lt;x&gt;</failure>"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<testsuites name=\"etbench\" tests=\"9\" failures=\"1\""),
            std::string::npos)
      << xml;
  // Not when a row carries it, nor for a pass, nor when advisory.
  EXPECT_EQ(Count(RenderJunitComparison(testing::SampleComparison(), {}), "etbench.gate"), 0u);
  c.outcome = GateOutcome::kPass;
  EXPECT_EQ(Count(RenderJunitComparison(c, {}), "<failure "), 0u);
  c.outcome = GateOutcome::kRegression;
  c.advisory = true;
  EXPECT_EQ(Count(RenderJunitComparison(c, {}), "<failure "), 0u);
}

TEST(JunitReportTest, ResultsTheGateFailedWithoutJudgingThemHaveAFailingCase) {
  // A night too short to judge that confirms a change point exits 1; its
  // report is the run's results, whose JUnit had only passing models.
  const std::string plain = RenderJunitResults(testing::SampleResults(), {});
  ReportOptions options;
  options.results_failure = "change point confirmed tonight: m/Execute/Method::execute#0 +5.2%";
  const std::string xml = RenderJunitResults(testing::SampleResults(), options);
  EXPECT_EQ(testing::XmlWellFormednessError(xml), "");
  EXPECT_EQ(Count(xml, "<failure "), 1u) << xml;
  EXPECT_NE(xml.find("<testcase classname=\"etbench.gate\" name=\"outcome\" time=\"0\">\n"
                     "      <failure type=\"regression\" message=\"regression: the gate failed "
                     "with no row regressed\">change point confirmed tonight: "
                     "m/Execute/Method::execute#0 +5.2%</failure>"),
            std::string::npos)
      << xml;
  EXPECT_EQ(Count(plain, "<failure "), 0u);
  EXPECT_EQ(Count(plain, "etbench.gate"), 0u);
}

TEST(JunitReportTest, HostileNamesStayWellFormed) {
  Comparison c = testing::SampleComparison();
  c.rows[2].label = "toy_cnn/Execute/<op & \"quoted\" 'x'>\x01\xff#3";
  c.rows[2].notes = {StoredReasonNote{"]]> & <![CDATA["}};
  const std::string xml = RenderJunitComparison(c, {});
  EXPECT_EQ(testing::XmlWellFormednessError(xml), "");
}

TEST(JunitReportTest, ResultsMatchGoldenAndAreWellFormed) {
  const std::string xml = RenderJunitResults(testing::SampleResults(), {});
  EXPECT_EQ(testing::XmlWellFormednessError(xml), "");
  testing::ExpectMatchesGolden(xml, "results_junit.xml");
}

TEST(JunitReportTest, CheckerRejectsMalformedXml) {
  EXPECT_NE(testing::XmlWellFormednessError("<a><b></a></b>"), "");
  EXPECT_NE(testing::XmlWellFormednessError("<a x=\"1\" x=\"2\"/>"), "");
  EXPECT_NE(testing::XmlWellFormednessError("<a>&nbsp;</a>"), "");
  EXPECT_NE(testing::XmlWellFormednessError("<a>x < y</a>"), "");
  EXPECT_NE(testing::XmlWellFormednessError("<a/><b/>"), "");
  EXPECT_NE(testing::XmlWellFormednessError(std::string("<a>\x01</a>")), "");
  EXPECT_EQ(testing::XmlWellFormednessError("<?xml version=\"1.0\"?>\n<a k='v'><!-- c --><b/>&amp;&#233;</a>\n"), "");
}

}  // namespace
}  // namespace etbench::reports
