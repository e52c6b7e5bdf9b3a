#pragma once
// The members of a metric set's JSON, written into an object the caller
// opened: MetricSetToJson's whole object and a baseline file's body, and a
// metric key's fields, shared by the metric set and the comparison JSON (one
// spelling of each field; read back by metric_set_json.cc and
// comparison_json_reader.cc).

#include "etbench/base/json_writer.h"
#include "etbench/compare/metrics.h"

namespace etbench::internal {

/// "model", "block", "kind", "name", "instruction_id" (or null),
/// "delegate_id", "occurrence".
void WriteMetricKeyMembers(JsonWriter& json, const MetricKey& key);

/// "context" (an object of strings) and "metrics" (an array of metrics with
/// their samples).
void WriteMetricSetMembers(JsonWriter& json, const MetricSet& set);

}  // namespace etbench::internal
