#pragma once
// The run's metadata sidecar, `<etdump_path>.meta.json`, as the reference
// runtime fills it in. The format is the harness's runner protocol
// (etbench/runner_protocol/run_metadata.h, library etbench::runner_protocol): its
// names are re-exported here for the runtime's callers.

#include <optional>
#include <string>

#include "etbench/base/result.h"
#include "etbench/base/sha256.h"  // Sha256Hex for model digests
#include "etbench/runner_protocol/run_metadata.h"
#include "etbench/runtime/model.h"
#include "etbench/runtime/run_model.h"

namespace etbench::runtime {

using harness::kRunMetadataSchemaVersion;
using harness::ParseRunMetadata;
using harness::RunMetadata;
using harness::RunMetadataPath;
using harness::RunMetadataToJson;

/// The metadata of a finished run.
RunMetadata MakeRunMetadata(const Model& model, const RunOutput& output,
                            const std::string& model_sha256,
                            const std::string& etdump_path,
                            const std::optional<std::string>& debug_output_path);

}  // namespace etbench::runtime
