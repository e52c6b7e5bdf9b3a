#pragma once
// What a runner's sidecar (etbench/runner_protocol/run_metadata.h) tells the
// harness about a repetition: its ticks' unit and rate, and each delegate's
// unit. Every runner goes through here.

#include <string>

#include "etbench/runner_protocol/run_metadata.h"
#include "etbench/harness/runner.h"
#include "etbench/base/result.h"

namespace etbench::harness {

/// Sets the time source, tick rate and delegate time sources of `out` from
/// `metadata`.
void ApplyRunMetadata(const RunMetadata& metadata, RepetitionOutput* out);

/// Reads the sidecar at `path` and applies it. Errors: an unreadable file,
/// "invalid run metadata: <why>".
Status ReadRunMetadataInto(const std::string& path, RepetitionOutput* out);

}  // namespace etbench::harness
