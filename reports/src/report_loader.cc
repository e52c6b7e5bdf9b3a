// `etbench report` input: comparison files, or runs (results files and
// Google Benchmark files), told apart by results/input_files.h.

#include "etbench/reports/report_loader.h"

#include "etbench/compare/comparison_json_reader.h"
#include "etbench/results/input_files.h"

namespace etbench::reports {

ReportInput LoadedReport::Input(const std::string& title) const {
  ReportInput input;
  input.comparison = comparison ? &*comparison : nullptr;
  input.results = results ? &*results : nullptr;
  input.baseline = baseline ? &*baseline : nullptr;
  input.candidate = candidate ? &*candidate : nullptr;
  input.title = title;
  return input;
}

Result<LoadedReport> LoadReportFile(const std::string& path, Disk& disk) {
  auto text = disk.ReadText(path);
  if (!text.ok()) return text.error();
  auto kind = results::DetectInputFileKind(text.value(), path);
  if (!kind.ok()) return kind.error();
  if (*kind == results::InputFileKind::kBaseline) {
    return InputError(path +
                      ": a baseline file; report on a comparison (etbench compare … --report "
                      "json=FILE) or pass it with --baseline for the samples");
  }
  LoadedReport loaded;
  if (*kind == results::InputFileKind::kComparison) {
    auto comparison = ParseComparisonJson(text.value(), path);
    if (!comparison.ok()) return comparison.error();
    loaded.comparison = std::move(comparison).value();
  } else {
    auto run = results::ParseRunFile(text.value(), path);
    if (!run.ok()) return run.error();
    loaded.results = std::move(run).value();
  }
  return loaded;
}

}  // namespace etbench::reports
