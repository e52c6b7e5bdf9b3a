#pragma once
// The run's metadata sidecar, `<etdump_path>.meta.json`: what the ETDump
// cannot say about itself (its tick unit and rate, the model, the seed, the
// injected slowdowns). The harness reads it to convert cycles to time.
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

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "etbench/base/result.h"
#include "etbench/base/sha256.h"  // Sha256Hex for model digests
#include "etbench/runtime/model.h"
#include "etbench/runtime/run_model.h"

namespace etbench::runtime {

inline constexpr int kRunMetadataSchemaVersion = 1;

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
  std::vector<Slowdown> slowdowns;
  std::vector<DelegateRunInfo> delegates;
  std::string etdump_path;
  std::optional<std::string> debug_output_path;
};

/// The metadata of a finished run.
RunMetadata MakeRunMetadata(const Model& model, const RunOutput& output,
                            const std::string& model_sha256,
                            const std::string& etdump_path,
                            const std::optional<std::string>& debug_output_path);

/// Pretty-printed JSON (stable key order).
std::string RunMetadataToJson(const RunMetadata& metadata);

/// Parses a sidecar; errors name `source_name` and the offending key, and
/// reject other schema versions.
Result<RunMetadata> ParseRunMetadata(const std::string& json,
                                     const std::string& source_name);

/// "<etdump_path>.meta.json".
std::string RunMetadataPath(const std::string& etdump_path);


}  // namespace etbench::runtime
