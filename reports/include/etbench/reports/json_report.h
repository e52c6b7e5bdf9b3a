#pragma once
// The JSON report: the comparison as ComparisonToJson writes it (schema in
// docs/comparison.md), or the results file's own JSON (docs/results.md).

#include <string>

#include "etbench/reports/report_input.h"

namespace etbench::reports {

std::string RenderJsonComparison(const Comparison& comparison);
std::string RenderJsonResults(const results::RunResults& results);

}  // namespace etbench::reports
