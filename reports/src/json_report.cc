// JSON report: the stable serialisations the harness already defines.

#include "etbench/reports/json_report.h"

#include "etbench/compare/comparison_json.h"

namespace etbench::reports {

std::string RenderJsonComparison(const Comparison& comparison) {
  return ComparisonToJson(comparison, 2) + "\n";
}

std::string RenderJsonResults(const results::RunResults& results) {
  std::string text = results::ResultsToJson(results);
  if (text.empty() || text.back() != '\n') text += '\n';
  return text;
}

}  // namespace etbench::reports
