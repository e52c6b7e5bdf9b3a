#pragma once
// Report formats and `--report FORMAT[=FILE]` requests.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "etbench/base/result.h"

namespace etbench::reports {

enum class ReportFormat { kTerminal, kMarkdown, kJunit, kJson, kCsv, kTsv, kHtml };

/// "terminal", "markdown", "junit", "json", "csv", "tsv", "html".
const char* ReportFormatName(ReportFormat format);

/// Inverse of ReportFormatName, also accepting "text", "md" and "xml";
/// nullopt otherwise.
std::optional<ReportFormat> ParseReportFormat(std::string_view name);

/// "terminal, markdown, junit, json, csv, tsv, html" (for help and errors).
std::string ReportFormatList();

/// One report to write: a format and a destination ("" or "-" = the
/// output stream).
struct ReportRequest {
  ReportFormat format = ReportFormat::kTerminal;
  std::string path;
};

/// Parses "FORMAT" or "FORMAT=FILE" (`--report markdown=summary.md`).
/// Errors name the spec and the accepted formats.
Result<ReportRequest> ParseReportRequest(const std::string& spec);

/// Parses every spec; at most one request may go to the output stream.
Result<std::vector<ReportRequest>> ParseReportRequests(const std::vector<std::string>& specs);

}  // namespace etbench::reports
