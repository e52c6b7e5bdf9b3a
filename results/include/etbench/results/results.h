#pragma once
// The results of one `etbench run`: what ran where, and per model the
// grouped events with their raw samples (all repetitions concatenated in run
// order). Persisted as JSON (docs/results.md), schema_version 1, written
// atomically; ETDumps are kept beside it and referenced by relative path.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "etbench/base/disk.h"
#include "etbench/base/result.h"
#include "etbench/compare/metrics.h"
#include "etbench/inspector/event_block.h"
#include "etbench/inspector/event_role.h"
#include "etbench/inspector/perf_data.h"

namespace etbench::results {

inline constexpr int kResultsSchemaVersion = 1;

/// One Event of a block: identity, attribution and samples.
struct EventResult {
  std::string name;
  std::optional<int32_t> instruction_id;
  DelegateDebugId delegate_debug_identifier;
  bool is_delegated_op = false;
  int32_t occurrence = 0;
  std::vector<std::string> op_types;      // from an ETRecord
  std::vector<std::string> module_paths;  // from an ETRecord
  std::optional<std::string> delegate_backend_name;
  /// raw: one duration per run in the model's unit, run order.
  PerfData perf_data;

  /// What the event is, by the one rule (EventRoleOf over its name and
  /// is_delegated_op), so that no consumer compares names.
  EventRole Role() const { return EventRoleOf(name, is_delegated_op); }
};

struct BlockResult {
  std::string name;
  std::size_t run_count = 0;
  /// Runs contributed by each repetition, in order (sum = run_count): the
  /// samples of one repetition share a process, memory layout and caches,
  /// so the comparison treats them as a cluster (docs/comparison.md).
  /// Empty in results written before etbench recorded it.
  std::vector<uint64_t> repetition_run_counts;
  std::vector<EventResult> events;
  /// Per run, in percent; absent without Method::execute.
  std::optional<PerfData> framework_tax;
  std::vector<AllocatorUsage> allocations;
};

/// A Google Benchmark benchmark: one sample per repetition.
struct BenchmarkResult {
  std::string name;
  std::string metric;               // "real_time" or "cpu_time"
  std::vector<int64_t> iterations;  // per repetition
  PerfData perf_data;               // raw in the model's unit
};

/// One repetition (a fresh method or a fresh process).
struct RepetitionRecord {
  int index = 0;
  /// Relative to the results file's directory ("" when none was written).
  std::string etdump_path;
  std::string metadata_path;      // the runner's sidecar, if any
  std::string debug_output_path;  // if written
  std::string time_source = "ns";
  double tick_rate_hz = 1e9;
  std::size_t execute_runs = 0;         // Execute runs in the ETDump
  std::size_t warmup_runs_dropped = 0;  // leading Execute runs not counted
  double wall_ms = 0;
};

enum class ModelStatus { kOk, kFailed, kInterrupted };
/// "ok", "failed", "interrupted".
const char* ModelStatusName(ModelStatus status);

struct ModelResult {
  std::string name;
  int suite_index = 0;  // position in the suite's model list
  ModelStatus status = ModelStatus::kOk;
  std::string error;  // one line; empty when ok
  std::string model_path;
  std::string model_sha256;
  std::string unit = "ms";  // of every time sample of this model
  double wall_ms = 0;
  /// The failing run's captured output (empty unless it failed).
  std::string stdout_text;
  std::string stderr_text;
  std::vector<std::string> warnings;
  std::vector<RepetitionRecord> repetitions;
  std::vector<BlockResult> blocks;
  std::vector<BenchmarkResult> benchmarks;
};

struct ResultsMetadata {
  std::string suite;
  std::string config_path;
  std::string config_hash;
  std::string runner;
  std::string runner_version;
  std::string tool_version;
  std::string time_source = "ns";
  double tick_rate_hz = 1e9;
  std::string unit = "ms";
  int warmup = 0;
  int iterations = 0;
  int repetitions = 0;
  std::vector<int> cpu_affinity;
  std::string host;
  std::string cpu;
  std::string os;
  std::string boot_id;  // optional in files (HostInfo::boot_id)
  std::string device;
  std::string branch;
  std::string git_commit;
  std::string date;  // ISO 8601 UTC, start of the run
  std::map<std::string, std::string> labels;
  std::string thresholds_path;
  std::optional<int> shard_index;  // 1-based
  std::optional<int> shard_count;
  /// Results files joined by `etbench merge`.
  std::vector<std::string> merged_from;
};

struct RunResults {
  int schema_version = kResultsSchemaVersion;
  ResultsMetadata metadata;
  /// True when Ctrl-C stopped the run; models not started are absent.
  bool interrupted = false;
  std::vector<ModelResult> models;

  std::size_t CountWithStatus(ModelStatus status) const;
};

/// What a sample measures, which decides the values it may take.
enum class SampleKind {
  kDuration,       // an event's duration: finite, >= 0 (0 is below timer resolution)
  kBenchmarkTime,  // a Google Benchmark time: finite, > 0
  kPercent,        // framework tax: finite (may be negative through noise)
};

/// Why `value` is not a valid sample of `kind` ("null/NaN is not a sample",
/// "negative duration -3"), or nothing when it is.
std::optional<std::string> CheckSample(double value, SampleKind kind);

/// The first invalid sample of `model` as "model 'm', block 'b', event 'e',
/// sample 3: negative duration -3", or a repetition group with 0 runs;
/// nothing when every sample is valid (models not ok are not checked).
std::optional<std::string> FindInvalidSample(const ModelResult& model);

/// The JSON text (stable key order; doubles round-trip exactly).
std::string ResultsToJson(const RunResults& results);

/// Parses results JSON. Errors name `source_name`, the JSON path and what is
/// wrong (including samples CheckSample rejects and repetition groups of 0
/// runs); another schema_version is "unsupported schema_version N (this
/// etbench reads 1)".
Result<RunResults> ParseResultsJson(const std::string& json, const std::string& source_name);

/// Writes atomically (temporary file + rename), creating parent directories.
/// Errors, writing nothing, when a model has an invalid sample
/// (FindInvalidSample): JSON cannot hold NaN or infinity, and the reader
/// rejects what this would write. Writes through `disk`.
Status WriteResultsFile(const std::string& path, const RunResults& results,
                        Disk& disk = DefaultDisk());
/// Reads (through `disk`) and parses a results file.
Result<RunResults> ReadResultsFile(const std::string& path, Disk& disk = DefaultDisk());

/// Joins shard results (read from `paths`, in order) into one set whose
/// artifact paths are relative to `output_path`'s directory. Errors:
/// different suites, config hashes, units or time sources; a model in two
/// inputs; shards missing from a complete set; an artifact (ETDump, sidecar,
/// debug output) a shard names that is not a regular file. Reads through
/// `disk`.
Result<RunResults> MergeResults(const std::vector<std::string>& paths,
                                const std::string& output_path, Disk& disk = DefaultDisk());

/// The comparison's view: every event of every block as kEvent (Method::
/// execute, Program::load_method and Method::init end_to_end), framework
/// tax as kFrameworkTax ("percent", end_to_end), allocations as kAllocation
/// ("bytes"), benchmarks as kBenchmark (end_to_end). Models that did not
/// finish ok contribute no metrics. A second block with the same name is
/// keyed "<name>#1", the next "#2", ... Context: suite, device, cpu, host,
/// os, time_source, tick_rate_hz, unit, git_commit, branch, date, runner,
/// config_hash, "model_sha256:<model>", "model_status:<model>",
/// "label:<key>".
MetricSet ToMetricSet(const RunResults& results);

}  // namespace etbench::results
