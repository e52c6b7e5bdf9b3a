#pragma once
// The JSON report: the comparison as ComparisonToJson writes it (schema in
// docs/comparison.md; one entry per metric, no samples), or the results
// file's own JSON (docs/results.md), by default without the raw samples.

#include <string>

#include "etbench/reports/report_input.h"

namespace etbench::reports {

std::string RenderJsonComparison(const Comparison& comparison);
/// The results in the results file's JSON; without `raw_samples` every
/// `raw` array (events and framework tax) is empty while `count` and the
/// statistics stay: a summary whose size follows the number of metrics. Such
/// a report is for reading, not for loading back as results.
std::string RenderJsonResults(const results::RunResults& results, bool raw_samples = false);

}  // namespace etbench::reports
