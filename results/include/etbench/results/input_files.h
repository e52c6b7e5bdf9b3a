#pragma once
// The one place that decides what a JSON input file is, by its content:
// every command that takes "a results file" (compare, gate --baseline,
// baseline save, history add, report) reads its inputs through here, so a
// Google Benchmark file or a baseline is accepted wherever it makes sense
// and refused with the same words everywhere.

#include <string>

#include "etbench/base/disk.h"
#include "etbench/base/result.h"
#include "etbench/compare/metrics.h"
#include "etbench/results/results.h"

namespace etbench::results {

enum class InputFileKind {
  kResults,          // `etbench run`: "metadata" and "models"
  kBaseline,         // `etbench baseline save`: "format": "etbench-baseline"
  kGoogleBenchmark,  // Google Benchmark JSON: "benchmarks" and "context"
  kComparison,       // `etbench compare --report json=…`: "outcome" and "metrics"
};

/// "results file", "baseline", "Google Benchmark file", "comparison file".
const char* InputFileKindName(InputFileKind kind);

/// The kind of `json_text` by its top-level keys. Errors (naming
/// `source_name`): not JSON, or none of the kinds (the message lists what
/// each kind has).
Result<InputFileKind> DetectInputFileKind(const std::string& json_text,
                                          const std::string& source_name);

/// A run from a results file or a Google Benchmark file (GbenchJsonToResults).
/// Errors: unreadable, another kind ("… is a baseline, not a run"), or what
/// the kind's parser refuses. Reads through `disk`.
Result<RunResults> ReadRunFile(const std::string& path, Disk& disk = DefaultDisk());

/// Same, from the file's text; `path` names it in messages.
Result<RunResults> ParseRunFile(const std::string& text, const std::string& path);

/// The metric set of a results file, a baseline or a Google Benchmark file.
/// Errors as ReadRunFile; a comparison file is refused (it holds no samples).
/// Reads through `disk`.
Result<MetricSet> LoadMetricSetFile(const std::string& path, Disk& disk = DefaultDisk());

}  // namespace etbench::results
