#pragma once
// GitHub-flavoured Markdown for a pull-request comment or a CI job summary:
// a one-line verdict, regressions and improvements, attribution, framework
// tax, structure changes, and the rest in <details>; within
// ReportOptions::markdown_max_chars (rows dropped with a note).

#include <string>

#include "etbench/reports/report_input.h"

namespace etbench::reports {

std::string RenderMarkdownComparison(const ReportInput& input, const ReportOptions& options);

/// A summary of a run: per model Method::execute, framework tax and the
/// slowest operators; failures.
std::string RenderMarkdownResults(const results::RunResults& results,
                                  const ReportOptions& options);

}  // namespace etbench::reports
