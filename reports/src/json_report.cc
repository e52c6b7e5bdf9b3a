// JSON report: the stable serialisations the harness already defines.

#include "etbench/reports/json_report.h"

#include "etbench/compare/comparison_json.h"
#include "etbench/reports/row_reason.h"
#include "etbench/reports/warning_text.h"

namespace etbench::reports {

std::string RenderJsonComparison(const Comparison& comparison) {
  return ComparisonToJson(comparison, RowReason, WarningText, 2) + "\n";
}

std::string RenderJsonResults(const results::RunResults& results, bool raw_samples) {
  std::string text;
  if (raw_samples) {
    text = results::ResultsToJson(results);
  } else {
    results::RunResults summary = results;
    for (results::ModelResult& model : summary.models) {
      for (results::BlockResult& block : model.blocks) {
        for (results::EventResult& event : block.events) event.perf_data.raw.clear();
        if (block.framework_tax) block.framework_tax->raw.clear();
      }
    }
    text = results::ResultsToJson(summary);
  }
  if (text.empty() || text.back() != '\n') text += '\n';
  return text;
}

}  // namespace etbench::reports
