// JUnit XML: the gate as test cases.

#include "etbench/reports/junit_report.h"

#include <cmath>
#include <map>

#include "etbench/reports/row_reason.h"
#include "etbench/reports/warning_text.h"
#include "report_text.h"
#include "xml_text.h"

namespace etbench::reports {
namespace {

using internal::XmlEscape;

struct Suite {
  std::string name;
  std::size_t tests = 0;
  std::size_t failures = 0;
  std::size_t errors = 0;
  std::size_t skipped = 0;
  std::string properties;  // <property> elements
  std::string cases;
  /// The sum of its test cases' times (a comparison's rows have none: 0).
  double seconds = 0;
};

// A JUnit time attribute's value: seconds with milliseconds.
std::string Seconds(double seconds) { return internal::Printf("%.3f", seconds); }

std::string Numbers(const MetricComparison& r) {
  const internal::DisplayUnit unit = internal::RowUnit(r);
  std::string text = std::string(StatisticName(r.statistic)) + " " +
                     internal::FormatQuantity(r.baseline_value, unit) + " -> " +
                     internal::FormatQuantity(r.candidate_value, unit) + " (" +
                     "estimated change " + internal::FormatChange(r, r.change) + ", interval " +
                     internal::FormatInterval(r) + ", p " + internal::FormatPCell(r) + ", threshold " +
                     internal::FormatThreshold(r) + ")";
  return text;
}

std::string Detail(const MetricComparison& r) {
  std::string text = "metric: " + r.label + "\nstatistic: " + StatisticName(r.statistic) +
                     "\nsamples: " + std::to_string(r.n_baseline) + " baseline, " +
                     std::to_string(r.n_candidate) + " candidate\nreason: " + RowReason(r) +
                     "\nrule: " + r.rule + "\ndirection: " + DirectionName(r.direction);
  if (std::isfinite(r.mde)) text += "\nminimum detectable effect: " + internal::FormatChange(r, r.mde).substr(1);
  if (r.iterations_needed) {
    text += "\niterations per side needed: " + std::to_string(*r.iterations_needed);
  }
  return text;
}

std::string SuiteXml(const Suite& s) {
  return "  <testsuite name=\"" + XmlEscape(s.name) + "\" tests=\"" + std::to_string(s.tests) +
         "\" failures=\"" + std::to_string(s.failures) + "\" errors=\"" +
         std::to_string(s.errors) + "\" skipped=\"" + std::to_string(s.skipped) + "\" time=\"" +
         Seconds(s.seconds) + "\">\n" +
         (s.properties.empty() ? "" : "    <properties>\n" + s.properties + "    </properties>\n") +
         s.cases + "  </testsuite>\n";
}

std::string Property(const std::string& name, const std::string& value) {
  return "      <property name=\"" + XmlEscape(name) + "\" value=\"" + XmlEscape(value) + "\"/>\n";
}

// Text inside <!-- -->: no "--" allowed.
std::string CommentText(std::string text) {
  for (std::size_t i = text.find("--"); i != std::string::npos; i = text.find("--", i)) {
    text.replace(i, 2, "- -");
  }
  return XmlEscape(text);
}

std::string JunitDocument(const std::vector<Suite>& suites, const std::string& advisory = "") {
  std::size_t tests = 0, failures = 0, errors = 0, skipped = 0;
  double seconds = 0;
  std::string body;
  for (const Suite& s : suites) {
    seconds += s.seconds;
    tests += s.tests;
    failures += s.failures;
    errors += s.errors;
    skipped += s.skipped;
    body += SuiteXml(s);
  }
  // Advisory: said on the first line (a comment may follow the declaration).
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>" +
         (advisory.empty() ? std::string()
                           : "<!-- etbench advisory: " + CommentText(advisory) + " -->") +
         "\n<testsuites name=\"etbench" + (advisory.empty() ? "" : " (advisory)") + "\" tests=\"" +
         std::to_string(tests) + "\" failures=\"" + std::to_string(failures) + "\" errors=\"" +
         std::to_string(errors) + "\" skipped=\"" + std::to_string(skipped) + "\" time=\"" +
         Seconds(seconds) + "\">\n" +
         body + "</testsuites>\n";
}

// The suite of a job the gate failed although no test case did: one
// failing case, `why` its body.
Suite GateFailure(const std::string& why) {
  Suite gate;
  gate.name = "etbench.gate";
  gate.tests = 1;
  gate.failures = 1;
  gate.cases = "    <testcase classname=\"etbench.gate\" name=\"outcome\" time=\"0\">\n"
               "      <failure type=\"regression\" message=\"" +
               XmlEscape("regression: the gate failed with no row regressed") + "\">" +
               XmlEscape(why) + "</failure>\n    </testcase>\n";
  return gate;
}

}  // namespace

std::string RenderJunitComparison(const Comparison& c, const ReportOptions& options) {
  (void)options;
  std::vector<Suite> suites;
  std::map<std::string, std::size_t> index;
  for (const MetricComparison& r : c.rows) {
    if (!r.gated) continue;
    auto [it, inserted] = index.emplace(r.key.model, suites.size());
    if (inserted) {
      Suite suite;
      suite.name = "etbench." + r.key.model;
      suite.properties = Property("outcome", GateOutcomeName(c.outcome)) +
                         Property("fdr", internal::Printf("%g", c.settings.fdr)) +
                         Property("alpha", internal::Printf("%g", c.settings.alpha)) +
                         Property("thresholds", c.settings.thresholds_source);
      suites.push_back(std::move(suite));
    }
    Suite& suite = suites[it->second];
    ++suite.tests;
    const std::string name = internal::LabelWithinModel(r) + " " + StatisticName(r.statistic);
    std::string xml = "    <testcase classname=\"" + XmlEscape(suite.name) + "\" name=\"" +
                      XmlEscape(name) + "\" time=\"0\"";
    const std::string numbers = Numbers(r);
    switch (r.verdict) {
      case Verdict::kRegression:
        if (c.advisory) {  // advice: recorded, never a failure
          xml += ">\n      <system-out>" + XmlEscape("advisory regression: " + numbers) +
                 "</system-out>\n    </testcase>\n";
          break;
        }
        ++suite.failures;
        xml += ">\n      <failure type=\"regression\" message=\"" +
               XmlEscape("regression: " + numbers) + "\">" + XmlEscape(Detail(r)) +
               "</failure>\n    </testcase>\n";
        break;
      case Verdict::kInconclusive:
        ++suite.skipped;
        xml += ">\n      <skipped message=\"" + XmlEscape("inconclusive: " + RowReason(r) + "; " + numbers) +
               "\"/>\n    </testcase>\n";
        break;
      case Verdict::kImprovement:
        xml += ">\n      <system-out>" + XmlEscape("improvement: " + numbers) +
               "</system-out>\n    </testcase>\n";
        break;
      case Verdict::kUnchanged:
        xml += "/>\n";
        break;
    }
    suite.cases += xml;
  }
  // A regression outcome no row carries (the nightly gate's "change point
  // confirmed tonight", a warning that fails the night) is one failing case,
  // so a CI test report never shows green for a job that failed.
  std::size_t failures = 0;
  for (const Suite& s : suites) failures += s.failures;
  if (c.outcome == GateOutcome::kRegression && failures == 0 && !c.advisory) {
    std::string why;
    for (const ComparisonWarning& w : c.warnings) why += (why.empty() ? "" : "\n") + WarningText(w);
    suites.push_back(GateFailure(why));
  }
  return JunitDocument(suites, c.advisory ? "verdicts do not fail the job (" + c.advisory_reason + ")" : "");
}

std::string RenderJunitResults(const results::RunResults& results, const ReportOptions& options) {
  Suite suite;
  suite.name = "etbench.run" + (results.metadata.suite.empty() ? "" : "." + results.metadata.suite);
  for (const results::ModelResult& model : results.models) {
    ++suite.tests;
    suite.seconds += model.wall_ms / 1000;
    std::string xml = "    <testcase classname=\"" + XmlEscape(suite.name) + "\" name=\"" +
                      XmlEscape(model.name) + "\" time=\"" + Seconds(model.wall_ms / 1000) + "\"";
    switch (model.status) {
      case results::ModelStatus::kOk:
        xml += "/>\n";
        break;
      case results::ModelStatus::kFailed: {
        ++suite.errors;
        std::string output = model.stderr_text.size() > 4000
                                 ? model.stderr_text.substr(model.stderr_text.size() - 4000)
                                 : model.stderr_text;
        xml += ">\n      <error type=\"failed\" message=\"" + XmlEscape(model.error) + "\">" +
               XmlEscape(output) + "</error>\n    </testcase>\n";
        break;
      }
      case results::ModelStatus::kInterrupted:
        ++suite.skipped;
        xml += ">\n      <skipped message=\"interrupted\"/>\n    </testcase>\n";
        break;
    }
    suite.cases += xml;
  }
  if (options.results_failure.empty()) return JunitDocument({suite});
  return JunitDocument({suite, GateFailure(options.results_failure)});
}

}  // namespace etbench::reports
