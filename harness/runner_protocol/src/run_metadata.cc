// The runner sidecar protocol (see run_metadata.h): its JSON text.
#include "etbench/runner_protocol/run_metadata.h"

#include <nlohmann/json.hpp>

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
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    // Invalid JSON, invalid UTF-8 and out-of-range numbers (1e999) alike.
    return InputError(source_name + ": not valid JSON: " + e.what());
  }
  if (!json.is_object()) return InputError(source_name + ": not a JSON object");
  const std::string where = source_name + ": ";
  try {
    const int version = json.at("schema_version").get<int>();
    if (version != kRunMetadataSchemaVersion) {
      return InputError(where + "schema_version " + std::to_string(version) +
                        " is not supported (expected " +
                        std::to_string(kRunMetadataSchemaVersion) + ")");
    }
    RunMetadata m;
    m.generator = json.value("generator", m.generator);
    m.model = json.at("model").get<std::string>();
    m.model_path = json.value("model_path", "");
    m.model_sha256 = json.value("model_sha256", "");
    m.time_source = json.at("time_source").get<std::string>();
    if (m.time_source != "ns" && m.time_source != "cycles") {
      return InputError(where + "time_source must be ns or cycles, not '" +
                        m.time_source + "'");
    }
    m.tick_rate_hz = json.at("tick_rate_hz").get<double>();
    if (!(m.tick_rate_hz > 0)) {
      return InputError(where + "tick_rate_hz must be positive");
    }
    m.tick_rate_measured = json.value("tick_rate_measured", false);
    m.num_executions = json.value("num_executions", 0);
    m.seed = json.value("seed", uint64_t{0});
    for (const auto& s : json.value("slowdown", nlohmann::json::array())) {
      m.slowdowns.push_back(
          SidecarSlowdown{s.at("op").get<std::string>(), s.at("factor").get<double>()});
    }
    for (const auto& d : json.value("delegates", nlohmann::json::array())) {
      m.delegates.push_back(SidecarDelegate{d.at("name").get<std::string>(),
                                            d.at("instruction_id").get<int32_t>(),
                                            d.at("time_source").get<std::string>()});
    }
    m.etdump_path = json.value("etdump_path", "");
    if (json.contains("debug_output_path") &&
        json["debug_output_path"].is_string()) {
      m.debug_output_path = json["debug_output_path"].get<std::string>();
    }
    return m;
  } catch (const nlohmann::json::exception& e) {
    return InputError(where + e.what());
  }
}

std::string RunMetadataPath(const std::string& etdump_path) {
  return etdump_path + ".meta.json";
}

}  // namespace etbench::harness
