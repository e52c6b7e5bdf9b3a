#pragma once
// ExecuTorch's Android benchmark app ("minibench",
// extension/benchmark/android/benchmark upstream) writes
// files/benchmark_results.json: a JSON list of BenchmarkMetric, as Gson
// writes the app's List<BenchmarkMetric> (BenchmarkMetric.kt):
//   [{"benchmarkModel": {"name", "backend", "quantization"},
//     "metric": "avg_inference_latency(ms)", "actualValue": 1.5, "targetValue": 0.0,
//     "deviceInfo": {"device", "arch", "os", "totalMem", "availMem"}}, ...]
// ModelRunner.kt reports avg_inference_latency(ms),
// trimmean_inference_latency(ms), model_load_time(ms), load_status (the
// error code of Module.loadMethod, 0 = loaded) and ram_pss_usage(mb).
// scripts/minibench-runner.sh pulls it next to the ETDump.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "etbench/base/result.h"
#include "etbench/results/gbench_json.h"

namespace etbench::results {

struct BenchmarkAppResults {
  /// The app's times ("…(ms)" metrics with a positive value): one sample
  /// each, named as the app names them, time_unit "ms".
  std::vector<BenchmarkSample> times;
  /// load_status when reported (0 = the model loaded).
  std::optional<int> load_status;
  /// deviceInfo as labels (from the first entry): "app.device" (Build.BRAND),
  /// "app.arch" (Build.MODEL), "app.os", "app.total_mem", "app.avail_mem".
  std::map<std::string, std::string> labels;
};

/// Parses benchmark_results.json. Errors (naming `source_name` and the
/// entry): not JSON, not a list, an entry without a string "metric" or a
/// numeric "actualValue", a non-finite value, a load_status that is not an
/// integer. Metrics in other units (ram_pss_usage(mb)) are left out.
Result<BenchmarkAppResults> ParseBenchmarkAppResults(const std::string& json,
                                                     const std::string& source_name);

/// "<etdump_path>.benchmark_results.json": where scripts/minibench-runner.sh
/// puts the app's results of the repetition whose ETDump is `etdump_path`.
std::string BenchmarkAppResultsPath(const std::string& etdump_path);

}  // namespace etbench::results
