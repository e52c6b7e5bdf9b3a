// ExecuTorch benchmark app results → samples and labels (benchmark_app_json.h).
#include "etbench/results/benchmark_app_json.h"

#include <cmath>

#include "etbench/base/json_reader.h"

namespace etbench::results {
namespace {

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// A member as label text ("" when absent or not a string/number).
std::string Text(const JsonValue& v) {
  if (v.is_string()) return *v.String();
  if (v.is_number()) return v.Dump();
  return "";
}

}  // namespace

Result<BenchmarkAppResults> ParseBenchmarkAppResults(const std::string& json,
                                                     const std::string& source_name) {
  JsonSyntaxError syntax;
  auto doc = ParseJson(json, "", {}, &syntax);
  if (!doc.ok()) {
    return InputError(source_name + ": not the benchmark app's results: " + syntax.Describe());
  }
  const JsonValue list = doc->root();
  if (!list.is_array()) {
    return InputError(source_name + ": not the benchmark app's results (not a JSON list)");
  }
  BenchmarkAppResults out;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const JsonValue entry = list[i];
    const std::string where = source_name + ": [" + std::to_string(i) + "]";
    const JsonValue metric = entry.Get("metric");
    const JsonValue value = entry.Get("actualValue");
    if (!metric.is_string() || !value.is_number()) {
      return InputError(where + ": no string \"metric\" and numeric \"actualValue\"");
    }
    const std::string name = *metric.String();
    const double v = *value.Number();
    if (!std::isfinite(v)) return InputError(where + " (" + name + "): not a finite value");
    if (out.labels.empty()) {
      const JsonValue device = entry.Get("deviceInfo");
      const std::pair<const char*, std::string> labels[] = {
          {"app.device", Text(device.Get("device"))},     {"app.arch", Text(device.Get("arch"))},
          {"app.os", Text(device.Get("os"))},             {"app.total_mem", Text(device.Get("totalMem"))},
          {"app.avail_mem", Text(device.Get("availMem"))}};
      for (const auto& [key, text] : labels) {
        if (!text.empty()) out.labels[key] = text;
      }
    }
    if (name == "load_status") {
      if (v != std::floor(v) || std::fabs(v) > 1e9) {
        return InputError(where + ": load_status " + value.Dump() + " is not an error code");
      }
      out.load_status = static_cast<int>(v);
    } else if (EndsWith(name, "(ms)") && v > 0) {
      BenchmarkSample s;
      s.name = name;
      s.value = v;
      s.time_unit = "ms";
      s.iterations = 1;
      out.times.push_back(std::move(s));
    }
  }
  return out;
}

std::string BenchmarkAppResultsPath(const std::string& etdump_path) {
  return etdump_path + ".benchmark_results.json";
}

}  // namespace etbench::results
