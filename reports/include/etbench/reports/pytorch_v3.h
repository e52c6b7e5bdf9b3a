#pragma once
// Records for the PyTorch OSS benchmark database in its v3 schema, the
// format ExecuTorch's CI uploads (upstream
// .github/scripts/extract_benchmark_results.py, `transform`, builds the same
// keys) and its dashboard reads; a workflow uploads the file with
// pytorch/test-infra's upload-benchmark-results action (docs/ci.md,
// "PyTorch OSS benchmark database").
//
// One record per metric:
//   {"benchmark": {"name": "ExecuTorch", "mode": "inference",
//                  "extra_info": {"app_type", "benchmark_config", "job_conclusion",
//                                 "job_arn", "instance_arn", + etbench's keys}},
//    "model": {"name", "type": "OSS model", "backend"},
//    "metric": {"name", "benchmark_values": [v], "target_value",
//               "extra_info": {"method", + etbench's keys}},
//    "runners": [{"name", "type", "avail_mem_in_gb", "total_mem_in_gb"}]}
// Upstream's keys are all present with upstream's types; etbench adds keys
// only inside the two extra_info objects (git_commit, branch, suite, …).

#include <string>

#include "etbench/base/result.h"
#include "etbench/compare/comparison.h"
#include "etbench/results/results.h"

namespace etbench::reports {

/// The v3 name of a metric. The method-level events take the names the
/// ExecuTorch benchmark app reports, so that etbench's rows sit beside the
/// app's on the dashboard: Method::execute "<stat>_inference_latency(ms)",
/// Program::load_method "<stat>_model_load_time(ms)" ("model_load_time(ms)"
/// for the average, the app's name for it); every other metric its label
/// without the model, then " <stat>(<unit>)" ("Execute/native_call_add.out
/// avg(ms)"). `stat` is "avg", "p50", ….
std::string PytorchV3MetricName(const MetricKey& key, const std::string& stat,
                                const std::string& unit);

/// The records of a run: per model that finished ok, every event (average
/// of its samples, in ms: benchmark_values = [avg]; extra_info has p50, p90,
/// n, kind "end_to_end" or "operator" and the block as "method"), and every
/// Google Benchmark benchmark (average in its unit). target_value is 0
/// (upstream's value when there is no target). Runner: the device, the OS
/// as its type, the benchmark app's memory figures (labels app.avail_mem,
/// app.total_mem; 0 without them). A JSON list, pretty-printed.
std::string RunToPytorchV3(const results::RunResults& run);

/// The records of a comparison: per row, benchmark_values = [the
/// candidate's statistic], target_value = the baseline's; extra_info holds
/// the verdict, change, interval (ci_low, ci_high), p-value, n of both sides
/// and the statistic. Commit, branch and device are the candidate's.
std::string ComparisonToPytorchV3(const Comparison& comparison);

}  // namespace etbench::reports
