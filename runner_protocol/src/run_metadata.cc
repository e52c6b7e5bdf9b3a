// The runner sidecar protocol (see run_metadata.h): its JSON text.
#include "etbench/runner_protocol/run_metadata.h"

#include "etbench/base/json_reader.h"
#include "etbench/base/json_writer.h"

namespace etbench::harness {

std::string RunMetadataToJson(const RunMetadata& m) {
  // Invalid UTF-8 (a model name or path with such bytes) becomes U+FFFD.
  JsonWriter json(2);
  json.BeginObject();
  json.Key("schema_version").Int(kRunMetadataSchemaVersion);
  json.Key("generator").String(m.generator);
  json.Key("model").String(m.model);
  json.Key("model_path").String(m.model_path);
  json.Key("model_sha256").String(m.model_sha256);
  json.Key("time_source").String(m.time_source);
  json.Key("tick_rate_hz").Double(m.tick_rate_hz);
  json.Key("tick_rate_measured").Bool(m.tick_rate_measured);
  json.Key("num_executions").Int(m.num_executions);
  json.Key("seed").Uint(m.seed);
  json.Key("slowdown").BeginArray();
  for (const SidecarSlowdown& s : m.slowdowns) {
    json.BeginObject().Key("op").String(s.target).Key("factor").Double(s.factor).EndObject();
  }
  json.EndArray();
  json.Key("delegates").BeginArray();
  for (const SidecarDelegate& d : m.delegates) {
    json.BeginObject();
    json.Key("name").String(d.name);
    json.Key("instruction_id").Int(d.instruction_id);
    json.Key("time_source").String(d.time_source);
    json.EndObject();
  }
  json.EndArray();
  json.Key("etdump_path").String(m.etdump_path);
  json.Key("debug_output_path").StringOrNull(m.debug_output_path);
  json.EndObject();
  return json.Take() + "\n";
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
