#include "comparison_cli.h"

#include "command_support.h"
#include "etbench/base/environment.h"
#include "etbench/cli/etbench_cli.h"
#include "etbench/compare/baseline_store.h"
#include "etbench/compare/thresholds.h"
#include "etbench/reports/reports.h"
#include "etbench/reports/terminal_color.h"
#include "etbench/reports/warning_text.h"
#include "etbench/results/results.h"

namespace etbench {

int EmitComparison(const std::string& command, const Comparison& comparison,
                   const MetricSet& baseline, const MetricSet& candidate,
                   const ComparisonOutput& output, const Environment& env, Disk& disk,
                   std::ostream& out, std::ostream& err) {
  for (const ComparisonWarning& w : comparison.warnings) {
    PrintWarning(command, reports::WarningText(w), err);
  }
  auto requests = reports::ParseReportRequests(output.report_specs);
  if (!requests.ok()) return ReportError(command, requests.error(), err);
  bool stdout_taken = false;
  for (const auto& r : requests.value()) stdout_taken |= r.path.empty() || r.path == "-";
  if (!stdout_taken) requests->push_back(reports::ReportRequest{});  // terminal on stdout

  auto color = reports::ParseColorMode(output.color);
  if (!color.ok()) return ReportError(command, color.error(), err);
  reports::ReportOptions options;
  options.color = reports::UseColor(color.value(), reports::StreamIsTerminal(out), env);
  options.terminal_width = reports::TerminalWidth(out, env);
  options.generator = std::string("etbench ") + ETBENCH_VERSION;
  reports::ReportInput input;
  input.comparison = &comparison;
  input.baseline = &baseline;
  input.candidate = &candidate;
  input.title = output.title;
  Status written = reports::WriteReports(requests.value(), input, options, out, disk);
  if (!written.ok()) return ReportError(command, written.error(), err);
  return GateExitCode(comparison, output.fail_on_inconclusive);
}

}  // namespace etbench
