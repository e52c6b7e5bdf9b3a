#pragma once
// Terminal report: aligned tables, one per model, with verdict symbols,
// units chosen per column and names truncated to the width; ANSI colour on
// request. `etbench report` and `--report terminal` use it instead of the
// plain summary (reports/comparison_text.h), the minimal printout.

#include <string>

#include "etbench/reports/report_input.h"

namespace etbench::reports {

/// The comparison: verdict line, per-model tables of the changed (or all)
/// metrics, attribution, framework tax, structure changes, warnings.
std::string RenderTerminalComparison(const ReportInput& input, const ReportOptions& options);

/// The results of a run: per model and block the events' statistics, the
/// framework tax, and failed models with their errors.
std::string RenderTerminalResults(const results::RunResults& results,
                                  const ReportOptions& options);

}  // namespace etbench::reports
