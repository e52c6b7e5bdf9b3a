#pragma once
// One self-contained HTML file (inline CSS, inline SVG, a small inline
// script for table sorting; nothing fetched from the network).

#include <string>

#include "etbench/reports/report_input.h"

namespace etbench::reports {

/// Per model: a bar chart of per-operator p50 (baseline vs candidate), box
/// plots with the raw samples of Method::execute and the most changed
/// operators (when the metric sets are given), framework tax per run, the
/// attribution and a sortable verdict table.
std::string RenderHtmlComparison(const ReportInput& input, const ReportOptions& options);

/// Per model of a run: the per-operator p50 bar chart, distributions of
/// Method::execute and the slowest operators, framework tax per run and a
/// sortable event table.
std::string RenderHtmlResults(const results::RunResults& results, const ReportOptions& options);

}  // namespace etbench::reports
