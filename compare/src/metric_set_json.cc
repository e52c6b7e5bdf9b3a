// MetricSet ↔ JSON.

#include "etbench/compare/metric_set_json.h"

#include <nlohmann/json.hpp>

namespace etbench {
namespace {

using Json = nlohmann::ordered_json;

}  // namespace

const char* MetricKindName(MetricKind kind) {
  switch (kind) {
    case MetricKind::kEvent: return "event";
    case MetricKind::kFrameworkTax: return "framework_tax";
    case MetricKind::kAllocation: return "allocation";
    case MetricKind::kBenchmark: return "benchmark";
  }
  return "?";
}

std::string MetricSetToJson(const MetricSet& set, int indent) {
  Json root = Json::object();
  root["context"] = Json::object();
  for (const auto& [k, v] : set.context) root["context"][k] = v;
  Json metrics = Json::array();
  for (const Metric& m : set.metrics) {
    Json j = Json::object();
    j["model"] = m.key.model;
    j["block"] = m.key.block;
    j["kind"] = MetricKindName(m.key.kind);
    j["name"] = m.key.name;
    j["instruction_id"] = m.key.instruction_id ? Json(*m.key.instruction_id) : Json(nullptr);
    j["delegate_id"] = m.key.delegate_id;
    j["occurrence"] = m.key.occurrence;
    j["unit"] = m.unit;
    j["end_to_end"] = m.end_to_end;
    j["is_kernel_or_delegate_call"] = m.is_kernel_or_delegate_call;
    j["op_types"] = m.op_types;
    j["module_paths"] = m.module_paths;
    j["delegate_backend_name"] =
        m.delegate_backend_name ? Json(*m.delegate_backend_name) : Json(nullptr);
    j["samples"] = m.samples;
    if (!m.group_sizes.empty()) j["group_sizes"] = m.group_sizes;
    if (!m.session_sizes.empty()) j["session_sizes"] = m.session_sizes;
    metrics.push_back(std::move(j));
  }
  root["metrics"] = std::move(metrics);
  return root.dump(indent, ' ', false, Json::error_handler_t::replace);
}

Result<MetricSet> MetricSetFromJson(const std::string& json, const std::string& source_name) {
  Json root;
  try {
    root = Json::parse(json);
  } catch (const Json::exception& e) {
    // parse_error, and out_of_range.406 for numbers such as 1e999.
    return InputError(source_name + ": not valid JSON: " + e.what());
  }
  if (!root.is_object()) return InputError(source_name + ": expected a JSON object");
  MetricSet set;
  if (root.contains("context")) {
    const Json& context = root["context"];
    if (!context.is_object()) return InputError(source_name + ": 'context' must be an object");
    for (auto it = context.begin(); it != context.end(); ++it) {
      if (!it.value().is_string()) {
        return InputError(source_name + ": context '" + it.key() + "' must be a string");
      }
      set.context[it.key()] = it.value().get<std::string>();
    }
  }
  if (!root.contains("metrics") || !root["metrics"].is_array()) {
    return InputError(source_name + ": 'metrics' must be an array");
  }
  std::size_t index = 0;
  for (const Json& j : root["metrics"]) {
    const std::string where = source_name + ": metrics[" + std::to_string(index++) + "]";
    if (!j.is_object()) return InputError(where + ": expected an object");
    auto str = [&](const char* key, std::string& out, bool required) -> Status {
      if (!j.contains(key)) {
        if (required) return InputError(where + ": missing '" + key + "'");
        return Ok{};
      }
      if (!j[key].is_string()) return InputError(where + ": '" + key + "' must be a string");
      out = j[key].get<std::string>();
      return Ok{};
    };
    auto boolean = [&](const char* key, bool& out) -> Status {
      if (!j.contains(key)) return Ok{};
      if (!j[key].is_boolean()) return InputError(where + ": '" + key + "' must be true/false");
      out = j[key].get<bool>();
      return Ok{};
    };
    auto strings = [&](const char* key, std::vector<std::string>& out) -> Status {
      if (!j.contains(key)) return Ok{};
      if (!j[key].is_array()) return InputError(where + ": '" + key + "' must be an array");
      for (const Json& s : j[key]) {
        if (!s.is_string()) return InputError(where + ": '" + key + "' must hold strings");
        out.push_back(s.get<std::string>());
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
    else return InputError(where + ": unknown kind '" + kind + "'");
    if (j.contains("instruction_id") && !j["instruction_id"].is_null()) {
      if (!j["instruction_id"].is_number_integer()) {
        return InputError(where + ": 'instruction_id' must be an integer or null");
      }
      m.key.instruction_id = j["instruction_id"].get<int32_t>();
    }
    if (j.contains("occurrence")) {
      if (!j["occurrence"].is_number_integer()) {
        return InputError(where + ": 'occurrence' must be an integer");
      }
      m.key.occurrence = j["occurrence"].get<int32_t>();
    }
    if (j.contains("delegate_backend_name") && !j["delegate_backend_name"].is_null()) {
      if (!j["delegate_backend_name"].is_string()) {
        return InputError(where + ": 'delegate_backend_name' must be a string or null");
      }
      m.delegate_backend_name = j["delegate_backend_name"].get<std::string>();
    }
    if (!j.contains("samples") || !j["samples"].is_array()) {
      return InputError(where + ": 'samples' must be an array of numbers");
    }
    for (const Json& s : j["samples"]) {
      if (!s.is_number()) return InputError(where + ": 'samples' must be an array of numbers");
      m.samples.push_back(s.get<double>());
    }
    // Optional cluster sizes: positive counts adding up to what they split.
    auto sizes = [&](const char* key, const char* of, std::size_t total,
                     std::vector<uint64_t>& out) -> Status {
      if (!j.contains(key)) return Ok{};
      const std::string what = where + ": '" + key + "' must be positive integers adding up to the " + of;
      if (!j[key].is_array()) return InputError(what);
      uint64_t sum = 0;
      for (const Json& g : j[key]) {
        if (!g.is_number_unsigned() || g.get<uint64_t>() == 0) return InputError(what);
        out.push_back(g.get<uint64_t>());
        sum += out.back();
      }
      if (sum != total) return InputError(what);
      return Ok{};
    };
    if (Status s = sizes("group_sizes", "samples", m.samples.size(), m.group_sizes); !s.ok()) {
      return s.error();
    }
    if (Status s = sizes("session_sizes", "groups", m.group_sizes.size(), m.session_sizes);
        !s.ok()) {
      return s.error();
    }
    set.metrics.push_back(std::move(m));
  }
  return set;
}

}  // namespace etbench
