// Baseline files: versioned, atomic, never silently overwritten.

#include "etbench/compare/baseline_store.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <map>
#include <sstream>

#include <unistd.h>

#include "etbench/base/disk.h"
#include "etbench/base/terminal_text.h"
#include "etbench/base/units.h"
#include "etbench/base/json_reader.h"
#include "etbench/base/json_writer.h"
#include "etbench/compare/compare_guards.h"
#include "etbench/compare/metric_set_json.h"
#include "etbench/compare/run_context.h"
#include "etbench/inspector/perf_data.h"

#include "metric_json_members.h"

namespace etbench {
namespace {

constexpr const char* kFormat = "etbench-baseline";

std::string Sanitize(const std::string& name, const char* fallback) {
  if (name.empty()) return fallback;
  std::string out = name;
  for (char& c : out) {
    if (c == '/' || c == '\\' || std::iscntrl(static_cast<unsigned char>(c))) c = '_';
  }
  if (out == "." || out == "..") out = "_";
  return out;
}

std::string NowUtc() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof(buffer), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

}  // namespace

std::string DefaultBaselinePath(const std::string& root, const std::string& device,
                                const std::string& suite) {
  std::filesystem::path path = root.empty() ? std::filesystem::path(".") : std::filesystem::path(root);
  path /= "baselines";
  path /= Sanitize(device, "unknown-device");
  path /= Sanitize(suite, "default") + ".json";
  return path.string();
}

Status CheckBaselineSource(const MetricSet& metrics) {
  if (Status usable = CheckMetricSetUsable(metrics, "results"); !usable.ok()) return usable;
  const RunContext context = RunContextOf(metrics);
  if (context.interrupted) {
    return InputError("the results are of an interrupted run; a baseline must come from a "
                      "complete run");
  }
  const auto unfinished = UnfinishedModels(context);
  if (!unfinished.empty()) {
    const auto& [model, status] = unfinished.front();
    return InputError("model '" + model + "' " + status +
                      " in these results; a baseline must come from a run in which every "
                      "model finished (fix or remove the model and run again)");
  }
  return Ok{};
}

Status SaveBaseline(const std::string& path, const Baseline& baseline, bool force, Disk& disk) {
  namespace fs = std::filesystem;
  if (Status source = CheckBaselineSource(baseline.metrics); !source.ok()) {
    return InputError(path + ": not saved: " + source.error().message);
  }
  if (disk.Stat(path).exists && !force) {
    return IoError(path + ": a baseline already exists (use --force to replace it)");
  }
  const fs::path target(path);
  if (target.has_parent_path()) {
    if (Status made = disk.CreateDirectories(target.parent_path().string()); !made.ok()) {
      return IoError(path + ": cannot create directory: " + made.error().message);
    }
  }
  disk.RemoveStaleTemporaries(target.has_parent_path() ? target.parent_path().string() : ".");
  JsonWriter json(1);
  json.BeginObject();
  json.Key("schema_version").Int(kBaselineSchemaVersion);
  json.Key("format").String(kFormat);
  json.Key("name").String(baseline.name);
  json.Key("created").String(baseline.created.empty() ? NowUtc() : baseline.created);
  internal::WriteMetricSetMembers(json, baseline.metrics);
  json.EndObject();
  const std::string text = json.Take() + "\n";
  const std::vector<uint8_t> bytes(text.begin(), text.end());
  if (force) return disk.WriteAtomically(path, bytes, AtomicWriteOptions{});
  // Without --force, concurrent savers must not both succeed: the file is
  // created by link(), which fails if another saver got there first.
  Status written = disk.WriteNew(path, bytes);
  if (!written.ok() && written.error().message == path + ": already exists") {
    return IoError(path + ": a baseline already exists (use --force to replace it)");
  }
  return written;
}

Result<Baseline> ParseBaselineJson(const std::string& text, const std::string& path) {
  JsonParseOptions options;
  options.root_path = "";  // messages read "metrics[3]: ..."
  JsonSyntaxError syntax;
  auto doc = ParseJson(text, path, options, &syntax);
  if (!doc.ok()) return InputError(path + ": not a baseline: " + syntax.Describe());
  const JsonValue root = doc->root();
  if (!root.is_object()) {
    return InputError(path + ": not a baseline (not a JSON object)");
  }
  const JsonValue format = root.Get("format");
  if (!format.is_string() || *format.String() != kFormat) {
    return InputError(path + ": not an etbench baseline (missing \"format\": \"" + kFormat +
                      "\")");
  }
  const JsonValue version = root.Get("schema_version");
  if (!version.is_integer()) return InputError(path + ": missing schema_version");
  auto version_number = version.Int();
  if (!version_number.ok() || *version_number != kBaselineSchemaVersion) {
    return InputError(path + ": baseline has schema_version " + version.Dump() +
                      "; this etbench reads " + std::to_string(kBaselineSchemaVersion) +
                      " (re-create it with `etbench baseline save`)");
  }
  Baseline baseline;
  if (root.Get("name").is_string()) baseline.name = *root.Get("name").String();
  if (root.Get("created").is_string()) baseline.created = *root.Get("created").String();
  auto metrics = MetricSetFromJson(root);
  if (!metrics.ok()) return metrics.error();
  baseline.metrics = std::move(*metrics);
  return baseline;
}

Result<Baseline> LoadBaseline(const std::string& path, Disk& disk) {
  auto text = disk.ReadText(path);
  if (!text.ok()) return text.error();
  return ParseBaselineJson(*text, path);
}

Status CheckBaselineMatches(const MetricSet& baseline, const BaselineExpectation& expected,
                            std::vector<ComparisonWarning>& warnings) {
  auto value = [&baseline](const char* key) { return ContextValue(baseline, key); };
  if (!expected.suite.empty() && value("suite") != expected.suite) {
    return InputError("baseline is for suite '" + value("suite") + "', not '" + expected.suite +
                      "'");
  }
  if (!expected.time_source.empty() && value("time_source") != expected.time_source) {
    return InputError("baseline was measured with time source '" + value("time_source") +
                      "', not '" + expected.time_source + "'");
  }
  if (!expected.device.empty() && value("device") != expected.device) {
    warnings.push_back(BaselineDeviceWarning{value("device"), expected.device});
  }
  const std::optional<double> rate = RunContextOf(baseline).tick_rate_hz;
  if (!SameTickRate(rate, expected.tick_rate_hz)) {
    warnings.push_back(BaselineTickRateWarning{*rate, *expected.tick_rate_hz});
  }
  return Ok{};
}

}  // namespace etbench
