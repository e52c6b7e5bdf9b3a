// What an input file is, and reading it as a run or a metric set.
#include "etbench/results/input_files.h"

#include "etbench/base/disk.h"
#include "etbench/base/json_reader.h"
#include "etbench/compare/baseline_store.h"
#include "etbench/results/gbench_json.h"

namespace etbench::results {

const char* InputFileKindName(InputFileKind kind) {
  switch (kind) {
    case InputFileKind::kResults: return "results file";
    case InputFileKind::kBaseline: return "baseline";
    case InputFileKind::kGoogleBenchmark: return "Google Benchmark file";
    case InputFileKind::kComparison: return "comparison file";
  }
  return "file";
}

Result<InputFileKind> DetectInputFileKind(const std::string& json_text,
                                          const std::string& source_name) {
  JsonSyntaxError syntax;
  auto doc = ParseJson(json_text, source_name, {}, &syntax);
  if (!doc.ok()) return InputError(source_name + ": not valid JSON: " + syntax.Describe());
  const JsonValue root = doc->root();
  const JsonValue format = root.Get("format");
  if (format.is_string() && *format.String() == "etbench-baseline") return InputFileKind::kBaseline;
  if (root.Has("metadata") && root.Has("models")) return InputFileKind::kResults;
  if (root.Get("benchmarks").is_array() && root.Get("context").is_object()) {
    return InputFileKind::kGoogleBenchmark;
  }
  if (root.Has("outcome") && root.Has("metrics")) return InputFileKind::kComparison;
  return InputError(source_name +
                    ": not a results file (keys metadata, models), a baseline (format "
                    "etbench-baseline), a Google Benchmark file (keys benchmarks, context) or a "
                    "comparison file (keys outcome, metrics)");
}

Result<RunResults> ParseRunFile(const std::string& text, const std::string& path) {
  auto kind = DetectInputFileKind(text, path);
  if (!kind.ok()) return kind.error();
  switch (*kind) {
    case InputFileKind::kResults: return ParseResultsJson(text, path);
    case InputFileKind::kGoogleBenchmark: return GbenchJsonToResults(text, path);
    case InputFileKind::kBaseline:
    case InputFileKind::kComparison: break;
  }
  return InputError(path + ": a " + InputFileKindName(*kind) +
                    ", not a run (expected a results file or a Google Benchmark file)");
}

Result<RunResults> ReadRunFile(const std::string& path, Disk& disk) {
  auto text = disk.ReadText(path);
  if (!text.ok()) return text.error();
  return ParseRunFile(*text, path);
}

Result<MetricSet> LoadMetricSetFile(const std::string& path, Disk& disk) {
  auto text = disk.ReadText(path);
  if (!text.ok()) return text.error();
  auto kind = DetectInputFileKind(*text, path);
  if (!kind.ok()) return kind.error();
  if (*kind == InputFileKind::kBaseline) {
    auto baseline = ParseBaselineJson(*text, path);
    if (!baseline.ok()) return baseline.error();
    return std::move(baseline->metrics);
  }
  if (*kind == InputFileKind::kComparison) {
    return InputError(path +
                      ": a comparison file holds no samples (expected a results file, a "
                      "baseline or a Google Benchmark file)");
  }
  auto run = ParseRunFile(*text, path);
  if (!run.ok()) return run.error();
  return ToMetricSet(*run);
}

}  // namespace etbench::results
