#pragma once
// The runner sidecar protocol: `<etdump_path>.meta.json`, written by a
// runner program next to its ETDump to say what the ETDump cannot say about
// itself (its tick unit and rate, the model, the seed, the injected
// slowdowns, each delegate's tick unit). etbench's harness reads it for
// every runner (command, builtin) to convert cycles to time; any external
// program may write it (README: runtime/README.md).
//
// {
//   "schema_version": 1,
//   "generator": "et_runner",
//   "model": "toy_cnn", "model_path": "...", "model_sha256": "<hex>",
//   "time_source": "cycles", "tick_rate_hz": 2.9e9, "tick_rate_measured": true,
//   "num_executions": 20, "seed": 1,
//   "slowdown": [{"op": "conv2d", "factor": 1.1}],
//   "delegates": [{"name": "xnn", "instruction_id": 2, "time_source": "ns"}],
//   "etdump_path": "...", "debug_output_path": "..." | null
// }
// Required: schema_version, model, time_source ("ns" or "cycles"),
// tick_rate_hz (> 0); everything else is optional.
//
// This is a leaf library (etbench::runner_protocol) that depends on nothing
// but the inspector's Result: the reference runtime's et_runner writes it
// and the harness reads it, without either depending on the other.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "etbench/base/result.h"

namespace etbench::harness {

inline constexpr int kRunMetadataSchemaVersion = 1;

struct SidecarSlowdown {
  std::string target;  // op name, e.g. "conv2d"
  double factor = 1.0;
};

struct SidecarDelegate {
  std::string name;
  int32_t instruction_id = -1;
  /// "ns" or "cycles": the delegate's own event unit.
  std::string time_source;
};

struct RunMetadata {
  std::string generator = "et_runner";
  std::string model;
  std::string model_path;
  std::string model_sha256;  // empty when unknown
  std::string time_source = "ns";
  double tick_rate_hz = 1e9;
  bool tick_rate_measured = false;
  int num_executions = 0;
  uint64_t seed = 0;
  std::vector<SidecarSlowdown> slowdowns;
  std::vector<SidecarDelegate> delegates;
  std::string etdump_path;
  std::optional<std::string> debug_output_path;
};

/// Pretty-printed JSON (stable key order).
std::string RunMetadataToJson(const RunMetadata& metadata);

/// Parses a sidecar; errors name `source_name` and the offending key, and
/// reject other schema versions.
Result<RunMetadata> ParseRunMetadata(const std::string& json, const std::string& source_name);

/// "<etdump_path>.meta.json".
std::string RunMetadataPath(const std::string& etdump_path);

}  // namespace etbench::harness
