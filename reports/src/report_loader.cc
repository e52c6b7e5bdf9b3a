// `etbench report` input: results or comparison files, metric sets.

#include "etbench/reports/report_loader.h"

#include "etbench/base/input_file.h"
#include "etbench/base/json_reader.h"
#include "etbench/compare/baseline_store.h"
#include "etbench/compare/comparison_json_reader.h"

namespace etbench::reports {
namespace {

Result<std::string> ReadText(const std::string& path) { return ReadTextFile(path); }

}  // namespace

ReportInput LoadedReport::Input(const std::string& title) const {
  ReportInput input;
  input.comparison = comparison ? &*comparison : nullptr;
  input.results = results ? &*results : nullptr;
  input.baseline = baseline ? &*baseline : nullptr;
  input.candidate = candidate ? &*candidate : nullptr;
  input.title = title;
  return input;
}

Result<ReportFileKind> DetectReportFileKind(const std::string& json_text,
                                            const std::string& source_name) {
  JsonSyntaxError syntax;
  auto doc = ParseJson(json_text, source_name, {}, &syntax);
  if (!doc.ok()) return InputError(source_name + ": not valid JSON: " + syntax.Describe());
  const JsonValue root = doc->root();
  if (root.Has("outcome") && root.Has("metrics")) return ReportFileKind::kComparison;
  if (root.Has("metadata") && root.Has("models")) return ReportFileKind::kResults;
  const JsonValue format = root.Get("format");
  if (format.is_string() && *format.String() == "etbench-baseline") {
    return InputError(source_name +
                      ": a baseline file; report on a comparison (etbench compare … --report "
                      "json=FILE) or pass it with --baseline for the samples");
  }
  return InputError(source_name +
                    ": neither a results file (keys metadata, models) nor a comparison file "
                    "(keys outcome, metrics)");
}

Result<LoadedReport> LoadReportFile(const std::string& path) {
  auto text = ReadText(path);
  if (!text.ok()) return text.error();
  auto kind = DetectReportFileKind(text.value(), path);
  if (!kind.ok()) return kind.error();
  LoadedReport loaded;
  if (kind.value() == ReportFileKind::kComparison) {
    auto comparison = ParseComparisonJson(text.value(), path);
    if (!comparison.ok()) return comparison.error();
    loaded.comparison = std::move(comparison).value();
  } else {
    auto results = results::ParseResultsJson(text.value(), path);
    if (!results.ok()) return results.error();
    loaded.results = std::move(results).value();
  }
  return loaded;
}

Result<MetricSet> LoadSamplesFile(const std::string& path) {
  return LoadMetricSet(path, [](const std::string& p) -> Result<MetricSet> {
    auto results = results::ReadResultsFile(p);
    if (!results.ok()) return results.error();
    return results::ToMetricSet(results.value());
  });
}

}  // namespace etbench::reports
