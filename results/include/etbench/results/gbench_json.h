#pragma once
// Google Benchmark JSON (`--benchmark_format=json` or
// `--benchmark_out_format=json`) read as etbench samples and as a run: the
// one reader behind the gbench runner and every command that takes a Google
// Benchmark file in place of a results file (docs/results.md, "Google
// Benchmark files").

#include <cstdint>
#include <string>
#include <vector>

#include "etbench/base/result.h"
#include "etbench/compare/metrics.h"
#include "etbench/results/results.h"

namespace etbench::results {

/// One Google Benchmark measurement: one "iteration" entry (a repetition).
struct BenchmarkSample {
  std::string name;
  int repetition = 0;
  double value = 0;  // in `time_unit`
  std::string time_unit = "ns";
  int64_t iterations = 0;
};

/// Parses Google Benchmark JSON: one sample per "iteration" entry, keyed by
/// run_name (name when absent); aggregates (mean, median, stddev, cv, BigO)
/// are skipped. `metric` is "real_time" or "cpu_time". Errors: malformed
/// JSON, no "benchmarks" list, a benchmark that reported an error, a time
/// that is not a positive finite number, an unknown time_unit.
Result<std::vector<BenchmarkSample>> ParseGbenchJson(const std::string& json,
                                                     const std::string& metric,
                                                     const std::string& source_name);

/// True when `root` looks like Google Benchmark output: a "benchmarks" list
/// and a "context" object (the two keys every version writes).
bool LooksLikeGbenchJson(const std::string& json);

/// A Google Benchmark file as one run, so that compare, gate --baseline,
/// baseline save, history add and report take it like a results file:
/// one model named after the benchmark binary's file name (context
/// "executable"; "benchmarks" when absent), every benchmark a metric with
/// one `metric` sample per repetition, in the unit all benchmarks share
/// (else ns). Suite = the model name, runner "gbench", device and host =
/// context "host_name", date = context "date" in UTC; library_version,
/// library_build_type, num_cpus, mhz_per_cpu, cpu_scaling_enabled and
/// executable become labels ("gbench.<key>"), and so does the metric
/// ("gbench.metric", which marks the set as read from a Google Benchmark file). Errors as ParseGbenchJson,
/// plus a file with no iteration entries (only aggregates:
/// --benchmark_report_aggregates_only) — it holds no samples to compare.
Result<RunResults> GbenchJsonToResults(const std::string& json, const std::string& source_name,
                                       const std::string& metric = "real_time");

/// True for a metric set read from a Google Benchmark file (its context
/// has the "label:gbench.metric" GbenchJsonToResults writes).
bool IsGoogleBenchmarkFileSet(const MetricSet& set);

/// Makes a metric set read from a Google Benchmark file stand for a run of
/// `suite` in `unit` (a time scale): the suite renamed (a Google Benchmark
/// file names none; GbenchJsonToResults calls it after the binary) and every
/// sample converted, so that `gate --baseline FILE` on a gbench suite and
/// `compare FILE RESULTS` compare like with like. Errors: `unit` is not a
/// time scale; `set` is not from a Google Benchmark file.
Status AdoptGoogleBenchmarkFile(const std::string& suite, const std::string& unit, MetricSet* set);

/// Google Benchmark's context "date" ("2026-11-26T23:40:01+01:00", what
/// every version since 2019 writes) as etbench's UTC date
/// ("2026-11-26T22:40:01Z"); "" when it is not in that form.
std::string GbenchDateToUtc(const std::string& date);

}  // namespace etbench::results
