#pragma once
// Loading the input of `etbench report`: a results file or a comparison
// file (recognised by their keys), plus optional metric sets for the raw
// samples of a comparison.

#include <optional>
#include <string>

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

enum class ReportFileKind { kResults, kComparison };

/// kComparison for an object with "outcome" and "metrics", kResults for one
/// with "metadata" and "models"; errors otherwise (naming `source_name`).
Result<ReportFileKind> DetectReportFileKind(const std::string& json_text,
                                            const std::string& source_name);

/// Reads a results or comparison JSON file.
Result<LoadedReport> LoadReportFile(const std::string& path);

/// A MetricSet from a baseline file or a results file (for the samples of
/// a comparison report).
Result<MetricSet> LoadSamplesFile(const std::string& path);

}  // namespace etbench::reports
