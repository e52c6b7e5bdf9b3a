#pragma once
// JUnit XML so that any CI's test view shows the gate.

#include <string>

#include "etbench/reports/report_input.h"

namespace etbench::reports {

/// One <testsuite> per model, one <testcase> per gated metric row
/// (classname "etbench.<model>", name "<block>/<metric> <statistic>");
/// regressions are <failure> with the numbers in the message, inconclusive
/// rows <skipped>; improvements and unchanged rows pass.
std::string RenderJunitComparison(const Comparison& comparison, const ReportOptions& options);

/// One <testcase> per model of a run: failed models are <error>,
/// interrupted ones <skipped>.
std::string RenderJunitResults(const results::RunResults& results, const ReportOptions& options);

}  // namespace etbench::reports
