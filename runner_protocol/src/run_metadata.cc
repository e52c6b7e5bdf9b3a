// The runner sidecar protocol (see run_metadata.h): its JSON text.
#include "etbench/runner_protocol/run_metadata.h"

#include <nlohmann/json.hpp>

#include "etbench/base/json_reader.h"

namespace etbench::harness {

std::string RunMetadataToJson(const RunMetadata& m) {
  nlohmann::ordered_json json;
  json["schema_version"] = kRunMetadataSchemaVersion;
  json["generator"] = m.generator;
  json["model"] = m.model;
  json["model_path"] = m.model_path;
  json["model_sha256"] = m.model_sha256;
  json["time_source"] = m.time_source;
  json["tick_rate_hz"] = m.tick_rate_hz;
  json["tick_rate_measured"] = m.tick_rate_measured;
  json["num_executions"] = m.num_executions;
  json["seed"] = m.seed;
  json["slowdown"] = nlohmann::ordered_json::array();
  for (const SidecarSlowdown& s : m.slowdowns) {
    json["slowdown"].push_back({{"op", s.target}, {"factor", s.factor}});
  }
  json["delegates"] = nlohmann::ordered_json::array();
  for (const SidecarDelegate& d : m.delegates) {
    json["delegates"].push_back({{"name", d.name},
                                 {"instruction_id", d.instruction_id},
                                 {"time_source", d.time_source}});
  }
  json["etdump_path"] = m.etdump_path;
  if (m.debug_output_path) {
    json["debug_output_path"] = *m.debug_output_path;
  } else {
    json["debug_output_path"] = nullptr;
  }
  // Invalid UTF-8 (a model name or path with such bytes) becomes U+FFFD
  // instead of an exception.
  return json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

Result<RunMetadata> ParseRunMetadata(const std::string& text,
                                     const std::string& source_name) {
  JsonSyntaxError syntax;
  auto doc = ParseJson(text, source_name, {}, &syntax);
  if (!doc.ok()) {
    // Invalid JSON, invalid UTF-8 and out-of-range numbers (1e999) alike.
    return InputError(source_name + ": not valid JSON: " + syntax.Describe());
  }
  const JsonValue json = doc->root();
  if (!json.is_object()) return InputError(source_name + ": not a JSON object");
  const std::string where = source_name + ": ";
  JsonErrors errors;
  const int64_t version = errors.Take(json.Get("schema_version").Int());
  if (!errors.ok()) return errors.error();
  if (version != kRunMetadataSchemaVersion) {
    return InputError(where + "schema_version " + std::to_string(version) +
                      " is not supported (expected " +
                      std::to_string(kRunMetadataSchemaVersion) + ")");
  }
  RunMetadata m;
  m.generator = errors.Take(json.Get("generator").StringOr(m.generator));
  m.model = errors.Take(json.Get("model").String());
  m.model_path = errors.Take(json.Get("model_path").StringOr(""));
  m.model_sha256 = errors.Take(json.Get("model_sha256").StringOr(""));
  m.time_source = errors.Take(json.Get("time_source").String());
  if (errors.ok() && m.time_source != "ns" && m.time_source != "cycles") {
    return InputError(where + "time_source must be ns or cycles, not '" + m.time_source + "'");
  }
  m.tick_rate_hz = errors.Take(json.Get("tick_rate_hz").Number());
  if (errors.ok() && !(m.tick_rate_hz > 0)) {
    return InputError(where + "tick_rate_hz must be positive");
  }
  m.tick_rate_measured = errors.Take(json.Get("tick_rate_measured").BoolOr(false));
  m.num_executions =
      static_cast<int>(errors.Take(json.Get("num_executions").IntOr(0)));
  m.seed = errors.Take(json.Get("seed").UintOr(0));
  // Optional lists: absent or null is empty.
  const auto list = [&](const char* key) {
    const JsonValue v = json.Get(key);
    return v.present() && !v.is_null() ? errors.Take(v.Array()) : JsonValue();
  };
  for (const JsonValue s : list("slowdown")) {
    m.slowdowns.push_back(
        SidecarSlowdown{errors.Take(s.Get("op").String()), errors.Take(s.Get("factor").Number())});
  }
  for (const JsonValue d : list("delegates")) {
    m.delegates.push_back(SidecarDelegate{
        errors.Take(d.Get("name").String()),
        static_cast<int32_t>(errors.Take(d.Get("instruction_id").Int(INT32_MIN, INT32_MAX))),
        errors.Take(d.Get("time_source").String())});
  }
  m.etdump_path = errors.Take(json.Get("etdump_path").StringOr(""));
  if (json.Get("debug_output_path").is_string()) {
    m.debug_output_path = *json.Get("debug_output_path").String();
  }
  if (!errors.ok()) return errors.error();
  return m;
}

std::string RunMetadataPath(const std::string& etdump_path) {
  return etdump_path + ".meta.json";
}

}  // namespace etbench::harness
