// MetricSet ↔ JSON.

#include "etbench/compare/metric_set_json.h"

#include "etbench/base/json_writer.h"

#include "metric_json_members.h"

namespace etbench {

const char* MetricKindName(MetricKind kind) {
  switch (kind) {
    case MetricKind::kEvent: return "event";
    case MetricKind::kFrameworkTax: return "framework_tax";
    case MetricKind::kAllocation: return "allocation";
    case MetricKind::kBenchmark: return "benchmark";
  }
  return "?";
}

namespace internal {

void WriteMetricKeyMembers(JsonWriter& json, const MetricKey& key) {
  json.Key("model").String(key.model);
  json.Key("block").String(key.block);
  json.Key("kind").String(MetricKindName(key.kind));
  json.Key("name").String(key.name);
  json.Key("instruction_id").IntOrNull(key.instruction_id);
  json.Key("delegate_id").String(key.delegate_id);
  json.Key("occurrence").Int(key.occurrence);
}

void WriteMetricSetMembers(JsonWriter& json, const MetricSet& set) {
  json.Key("context").StringMap(set.context);
  json.Key("metrics").BeginArray();
  for (const Metric& m : set.metrics) {
    json.BeginObject();
    WriteMetricKeyMembers(json, m.key);
    json.Key("unit").String(m.unit);
    json.Key("end_to_end").Bool(m.end_to_end);
    json.Key("is_kernel_or_delegate_call").Bool(m.is_kernel_or_delegate_call);
    json.Key("op_types").StringArray(m.op_types);
    json.Key("module_paths").StringArray(m.module_paths);
    json.Key("delegate_backend_name").StringOrNull(m.delegate_backend_name);
    json.Key("samples").DoubleArray(m.samples);
    if (!m.group_sizes.empty()) json.Key("group_sizes").UintArray(m.group_sizes);
    if (!m.session_sizes.empty()) json.Key("session_sizes").UintArray(m.session_sizes);
    json.EndObject();
  }
  json.EndArray();
}

}  // namespace internal

std::string MetricSetToJson(const MetricSet& set, int indent) {
  JsonWriter json(indent);
  json.BeginObject();
  internal::WriteMetricSetMembers(json, set);
  json.EndObject();
  return json.Take();
}

namespace {

// One entry of "metrics"; messages name the entry ("metrics[3]: ...").
Result<Metric> ReadMetric(const JsonValue& j) {
  if (!j.is_object()) return j.ErrorAt("expected an object");
  auto str = [&](const char* key, std::string& out, bool required) -> Status {
    const JsonValue v = j.Get(key);
    if (!v.present()) {
      if (required) return j.ErrorAt(std::string("missing '") + key + "'");
      return Ok{};
    }
    if (!v.is_string()) return j.ErrorAt(std::string("'") + key + "' must be a string");
    out = *v.String();
    return Ok{};
  };
  auto boolean = [&](const char* key, bool& out) -> Status {
    const JsonValue v = j.Get(key);
    if (!v.present()) return Ok{};
    if (!v.is_bool()) return j.ErrorAt(std::string("'") + key + "' must be true/false");
    out = *v.Bool();
    return Ok{};
  };
  auto strings = [&](const char* key, std::vector<std::string>& out) -> Status {
    const JsonValue v = j.Get(key);
    if (!v.present()) return Ok{};
    if (!v.is_array()) return j.ErrorAt(std::string("'") + key + "' must be an array");
    for (const JsonValue s : v) {
      if (!s.is_string()) return j.ErrorAt(std::string("'") + key + "' must hold strings");
      out.push_back(*s.String());
    }
    return Ok{};
  };
  Metric m;
  std::string kind;
  for (Status s : {str("model", m.key.model, true), str("block", m.key.block, false),
                   str("kind", kind, true), str("name", m.key.name, true),
                   str("delegate_id", m.key.delegate_id, false), str("unit", m.unit, true),
                   boolean("end_to_end", m.end_to_end),
                   boolean("is_kernel_or_delegate_call", m.is_kernel_or_delegate_call),
                   strings("op_types", m.op_types), strings("module_paths", m.module_paths)}) {
    if (!s.ok()) return s.error();
  }
  if (kind == "event") m.key.kind = MetricKind::kEvent;
  else if (kind == "framework_tax") m.key.kind = MetricKind::kFrameworkTax;
  else if (kind == "allocation") m.key.kind = MetricKind::kAllocation;
  else if (kind == "benchmark") m.key.kind = MetricKind::kBenchmark;
  else return j.ErrorAt("unknown kind '" + kind + "'");
  const JsonValue id = j.Get("instruction_id");
  if (id.present() && !id.is_null()) {
    auto value = id.Int(INT32_MIN, INT32_MAX);
    if (!value.ok()) return j.ErrorAt("'instruction_id' must be an integer or null");
    m.key.instruction_id = static_cast<int32_t>(*value);
  }
  if (j.Has("occurrence")) {
    auto value = j.Get("occurrence").Int(INT32_MIN, INT32_MAX);
    if (!value.ok()) return j.ErrorAt("'occurrence' must be an integer");
    m.key.occurrence = static_cast<int32_t>(*value);
  }
  const JsonValue backend = j.Get("delegate_backend_name");
  if (backend.present() && !backend.is_null()) {
    if (!backend.is_string()) {
      return j.ErrorAt("'delegate_backend_name' must be a string or null");
    }
    m.delegate_backend_name = *backend.String();
  }
  const JsonValue samples = j.Get("samples");
  if (!samples.is_array()) return j.ErrorAt("'samples' must be an array of numbers");
  m.samples.reserve(samples.size());
  for (const JsonValue s : samples) {
    if (!s.is_number()) return j.ErrorAt("'samples' must be an array of numbers");
    m.samples.push_back(*s.Number());
  }
  // Optional cluster sizes: positive counts adding up to what they split.
  auto sizes = [&](const char* key, const char* of, std::size_t total,
                   std::vector<uint64_t>& out) -> Status {
    const JsonValue v = j.Get(key);
    if (!v.present()) return Ok{};
    const Error error = j.ErrorAt(std::string("'") + key +
                                  "' must be positive integers adding up to the " + of);
    if (!v.is_array()) return error;
    uint64_t sum = 0;
    for (const JsonValue g : v) {
      auto size = g.Uint();
      if (!size.ok() || *size == 0) return error;
      out.push_back(*size);
      sum += out.back();
    }
    if (sum != total) return error;
    return Ok{};
  };
  if (Status s = sizes("group_sizes", "samples", m.samples.size(), m.group_sizes); !s.ok()) {
    return s.error();
  }
  if (Status s = sizes("session_sizes", "groups", m.group_sizes.size(), m.session_sizes);
      !s.ok()) {
    return s.error();
  }
  return m;
}

}  // namespace

Result<MetricSet> MetricSetFromJson(const JsonValue& root) {
  if (!root.is_object()) return root.ErrorAt("expected a JSON object");
  MetricSet set;
  const JsonValue context = root.Get("context");
  if (context.present()) {
    if (!context.is_object()) return root.ErrorAt("'context' must be an object");
    for (const JsonValue v : context) {
      if (!v.is_string()) {
        return root.ErrorAt("context '" + std::string(v.key()) + "' must be a string");
      }
      set.context[std::string(v.key())] = *v.String();
    }
  }
  const JsonValue metrics = root.Get("metrics");
  if (!metrics.is_array()) return root.ErrorAt("'metrics' must be an array");
  set.metrics.reserve(metrics.size());
  for (const JsonValue j : metrics) {
    auto metric = ReadMetric(j);
    if (!metric.ok()) return metric.error();
    set.metrics.push_back(std::move(*metric));
  }
  return set;
}

Result<MetricSet> MetricSetFromJson(const std::string& json, const std::string& source_name) {
  JsonParseOptions options;
  options.root_path = "";  // messages read "metrics[3]: ..."
  JsonSyntaxError syntax;
  auto doc = ParseJson(json, source_name, options, &syntax);
  if (!doc.ok()) return InputError(source_name + ": not valid JSON: " + syntax.Describe());
  return MetricSetFromJson(doc->root());
}

}  // namespace etbench
