#pragma once
// MetricSet ↔ JSON (the body of baseline files; reusable by any file that
// stores metric sets). Samples round-trip exactly (17 significant digits).
//
// {"context": {"device": "...", ...},
//  "metrics": [{"model": "toy_cnn", "block": "Execute", "kind": "event",
//               "name": "native_call_convolution.out", "instruction_id": 0,
//               "delegate_id": "", "occurrence": 0, "unit": "ms",
//               "end_to_end": false, "is_kernel_or_delegate_call": true,
//               "op_types": [], "module_paths": [],
//               "delegate_backend_name": null, "samples": [0.54, ...]}]}

#include <string>

#include "etbench/base/json_reader.h"
#include "etbench/base/result.h"
#include "etbench/compare/metrics.h"

namespace etbench {

/// "event", "framework_tax", "allocation", "benchmark".
const char* MetricKindName(MetricKind kind);

/// The JSON text of `set`'s context and metrics as an object with keys
/// "context" and "metrics" (compact when indent < 0).
std::string MetricSetToJson(const MetricSet& set, int indent = -1);

/// Parses an object with "context" and "metrics" (other keys are ignored);
/// errors name `source_name` and the metric index.
Result<MetricSet> MetricSetFromJson(const std::string& json, const std::string& source_name);
/// The same from a parsed object (a baseline file's root); errors name its
/// source and paths as its document does (root path "" for "metrics[3]").
Result<MetricSet> MetricSetFromJson(const JsonValue& root);

}  // namespace etbench
