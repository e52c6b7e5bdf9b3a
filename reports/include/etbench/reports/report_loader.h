#pragma once
// Loading the input of `etbench report`: a results file, a Google Benchmark
// file or a comparison file (recognised by their keys).

#include <optional>
#include <string>

#include "etbench/base/disk.h"
#include "etbench/base/result.h"
#include "etbench/compare/comparison.h"
#include "etbench/compare/metrics.h"
#include "etbench/reports/report_input.h"
#include "etbench/results/results.h"

namespace etbench::reports {

/// Owns what a ReportInput points to.
struct LoadedReport {
  std::optional<Comparison> comparison;
  std::optional<results::RunResults> results;
  std::optional<MetricSet> baseline;
  std::optional<MetricSet> candidate;

  /// A view of this (valid while this object lives and is not moved).
  ReportInput Input(const std::string& title = "") const;
};

/// Reads a comparison file, a results file or a Google Benchmark file (as
/// a run; results/input_files.h decides which by content). A baseline is
/// refused: report on a comparison and pass it with --baseline. The samples
/// of --baseline/--candidate come from results::LoadMetricSetFile. Reads
/// through `disk`.
Result<LoadedReport> LoadReportFile(const std::string& path, Disk& disk = DefaultDisk());

}  // namespace etbench::reports
