#pragma once
// Delimited tables (CSV or TSV) with full-precision numbers.

#include <string>

#include "etbench/reports/report_input.h"

namespace etbench::reports {

/// One row per compared metric and statistic (every MetricComparison field).
std::string RenderDelimitedComparison(const Comparison& comparison, char separator);

/// One row per event of every block of every model, like the reference
/// Inspector's dataframe export (with model, instruction id, occurrence,
/// unit, stddev and count added).
std::string RenderDelimitedResults(const results::RunResults& results, char separator);

}  // namespace etbench::reports
