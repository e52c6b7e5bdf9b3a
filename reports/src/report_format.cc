// Report format names and `FORMAT[=FILE]` requests.

#include "etbench/reports/report_format.h"

namespace etbench::reports {
namespace {

constexpr ReportFormat kFormats[] = {ReportFormat::kTerminal, ReportFormat::kMarkdown,
                                     ReportFormat::kJunit,    ReportFormat::kJson,
                                     ReportFormat::kCsv,      ReportFormat::kTsv,
                                     ReportFormat::kHtml};

}  // namespace

const char* ReportFormatName(ReportFormat format) {
  switch (format) {
    case ReportFormat::kTerminal: return "terminal";
    case ReportFormat::kMarkdown: return "markdown";
    case ReportFormat::kJunit: return "junit";
    case ReportFormat::kJson: return "json";
    case ReportFormat::kCsv: return "csv";
    case ReportFormat::kTsv: return "tsv";
    case ReportFormat::kHtml: return "html";
  }
  return "?";
}

std::optional<ReportFormat> ParseReportFormat(std::string_view name) {
  for (ReportFormat f : kFormats) {
    if (name == ReportFormatName(f)) return f;
  }
  if (name == "text") return ReportFormat::kTerminal;
  if (name == "md") return ReportFormat::kMarkdown;
  if (name == "xml") return ReportFormat::kJunit;
  return std::nullopt;
}

std::string ReportFormatList() {
  std::string list;
  for (ReportFormat f : kFormats) {
    if (!list.empty()) list += ", ";
    list += ReportFormatName(f);
  }
  return list;
}

Result<ReportRequest> ParseReportRequest(const std::string& spec) {
  const std::size_t eq = spec.find('=');
  const std::string name = spec.substr(0, eq);
  const auto format = ParseReportFormat(name);
  if (!format) {
    return UsageError("unknown report format '" + name + "' in '" + spec + "' (expected " +
                      ReportFormatList() + ", optionally followed by =FILE)");
  }
  ReportRequest request;
  request.format = *format;
  if (eq != std::string::npos) {
    request.path = spec.substr(eq + 1);
    if (request.path.empty()) {
      return UsageError("report '" + spec + "': empty file name after '='");
    }
  }
  return request;
}

Result<std::vector<ReportRequest>> ParseReportRequests(const std::vector<std::string>& specs) {
  std::vector<ReportRequest> requests;
  int to_stream = 0;
  for (const std::string& spec : specs) {
    auto request = ParseReportRequest(spec);
    if (!request.ok()) return request.error();
    if (request->path.empty() || request->path == "-") ++to_stream;
    requests.push_back(std::move(request).value());
  }
  if (to_stream > 1) {
    return UsageError("at most one report can go to standard output; give the others a file "
                      "(FORMAT=FILE)");
  }
  return requests;
}

}  // namespace etbench::reports
