// Dispatch from a format to its renderer, and writing several reports.

#include "etbench/reports/reports.h"

#include <filesystem>
#include <vector>

#include "etbench/inspector/etdump_writer.h"
#include "etbench/reports/csv_report.h"
#include "etbench/reports/html_report.h"
#include "etbench/reports/json_report.h"
#include "etbench/reports/junit_report.h"
#include "etbench/reports/markdown_report.h"
#include "etbench/reports/terminal_report.h"

namespace etbench::reports {

bool HasReportData(const ReportInput& input) {
  return input.comparison != nullptr || input.results != nullptr;
}

Result<std::string> RenderReport(ReportFormat format, const ReportInput& input,
                                 const ReportOptions& options) {
  if (!HasReportData(input)) {
    return Error{ErrorCode::kInternal, "report: neither a comparison nor results to render"};
  }
  if (const Comparison* c = input.comparison) {
    switch (format) {
      case ReportFormat::kTerminal: return RenderTerminalComparison(input, options);
      case ReportFormat::kMarkdown: return RenderMarkdownComparison(input, options);
      case ReportFormat::kJunit: return RenderJunitComparison(*c, options);
      case ReportFormat::kJson: return RenderJsonComparison(*c);
      case ReportFormat::kCsv: return RenderDelimitedComparison(*c, ',');
      case ReportFormat::kTsv: return RenderDelimitedComparison(*c, '\t');
      case ReportFormat::kHtml: return RenderHtmlComparison(input, options);
    }
  }
  const results::RunResults& r = *input.results;
  switch (format) {
    case ReportFormat::kTerminal: return RenderTerminalResults(r, options);
    case ReportFormat::kMarkdown: return RenderMarkdownResults(r, options);
    case ReportFormat::kJunit: return RenderJunitResults(r, options);
    case ReportFormat::kJson: return RenderJsonResults(r, options.raw_samples);
    case ReportFormat::kCsv: return RenderDelimitedResults(r, ',');
    case ReportFormat::kTsv: return RenderDelimitedResults(r, '\t');
    case ReportFormat::kHtml: return RenderHtmlResults(r, options);
  }
  return Error{ErrorCode::kInternal, "report: unknown format"};
}

Status WriteReports(const std::vector<ReportRequest>& requests, const ReportInput& input,
                    const ReportOptions& options, std::ostream& out, Disk& disk) {
  for (const ReportRequest& request : requests) {
    const bool to_stream = request.path.empty() || request.path == "-";
    ReportOptions effective = options;
    if (!to_stream) effective.color = false;
    auto text = RenderReport(request.format, input, effective);
    if (!text.ok()) return text.error();
    if (to_stream) {
      out << text.value();
      out.flush();
      if (!out) return IoError("report: could not write the " +
                               std::string(ReportFormatName(request.format)) +
                               " report to the output stream");
      continue;
    }
    const std::filesystem::path parent = std::filesystem::path(request.path).parent_path();
    if (!parent.empty()) {
      if (Status made = disk.CreateDirectories(parent.string()); !made.ok()) {
        return IoError(request.path + ": cannot create directory: " + made.error().message);
      }
    }
    Status written = disk.WriteText(request.path, text.value());
    if (!written.ok()) return written.error();
  }
  return Ok{};
}

}  // namespace etbench::reports
