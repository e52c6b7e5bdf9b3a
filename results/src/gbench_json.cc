// Google Benchmark JSON → samples and → a run (gbench_json.h).
#include "etbench/results/gbench_json.h"

#include <cmath>
#include <cstdio>
#include <map>

#include "etbench/base/units.h"
#include "etbench/base/json_reader.h"
#include "etbench/base/utc_date.h"
#include "etbench/inspector/time_scale.h"

namespace etbench::results {
namespace {

// The samples of a parsed report. `root` has no source name, so that a
// typed-read error reads "$.benchmarks[0].x: ..." after the caller's prefix.
Result<std::vector<BenchmarkSample>> ReadGbenchSamples(const JsonValue& root,
                                                       const std::string& metric,
                                                       const std::string& source_name) {
  const JsonValue list = root.Get("benchmarks");
  if (!list.is_array()) {
    return InputError(source_name + ": not Google Benchmark JSON (no \"benchmarks\" list)");
  }
  std::vector<BenchmarkSample> samples;
  std::map<std::string, int> seen;
  JsonErrors errors;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const JsonValue b = list[i];
    const std::string where = source_name + ": benchmarks[" + std::to_string(i) + "]";
    if (!b.is_object()) return InputError(where + ": not an object");
    const JsonValue run_type = b.Get("run_type");
    if (run_type.present() && !(run_type.is_string() && *run_type.String() == "iteration")) {
      continue;  // aggregates
    }
    std::string name;
    if (b.Get("run_name").is_string()) {
      name = *b.Get("run_name").String();
    } else if (b.Get("name").is_string()) {
      name = *b.Get("name").String();
    } else {
      return InputError(where + ": no name");
    }
    if (errors.Take(b.Get("error_occurred").BoolOr(false))) {
      return InputError("benchmark " + name + " failed: " +
                        errors.Take(b.Get("error_message").StringOr("(no message)")));
    }
    // "skipped" is a number (newer) or a boolean.
    const JsonValue skipped = b.Get("skipped");
    const bool is_skipped = skipped.is_bool() ? *skipped.Bool()
                                              : skipped.is_number() && *skipped.Number() != 0;
    const JsonValue value = b.Get(metric);
    if (is_skipped && !value.present()) continue;
    if (!value.is_number()) {
      return InputError(where + " (" + name + "): no numeric \"" + metric + "\"");
    }
    BenchmarkSample s;
    s.name = name;
    const auto rep = b.Get("repetition_index").Int(INT32_MIN, INT32_MAX);
    s.repetition = rep.ok() ? static_cast<int>(*rep) : seen[name];
    ++seen[name];
    s.value = *value.Number();
    if (!std::isfinite(s.value) || s.value <= 0) {
      return InputError(where + " (" + name + "): \"" + metric + "\" is " + value.Dump() +
                        ", not a positive time");
    }
    s.time_unit = errors.Take(b.Get("time_unit").StringOr("ns"));
    if (!errors.ok()) break;
    if (!IsTimeUnit(s.time_unit)) {
      return InputError(where + " (" + name + "): unknown time_unit '" + s.time_unit + "'");
    }
    // An iteration count no integer holds is ignored.
    const auto iterations = b.Get("iterations").Int();
    s.iterations = iterations.ok() ? *iterations : 0;
    samples.push_back(std::move(s));
  }
  if (!errors.ok()) {
    return InputError(source_name + ": not Google Benchmark JSON: " + errors.error().message);
  }
  return samples;
}

Result<JsonDocument> ParseGbenchDocument(const std::string& json, const std::string& source_name) {
  JsonSyntaxError syntax;
  auto doc = ParseJson(json, "", {}, &syntax);
  if (!doc.ok()) {
    // Syntax, invalid UTF-8, and a time such as 1e999 ("number overflow").
    return InputError(source_name + ": not Google Benchmark JSON: " + syntax.Describe());
  }
  return doc;
}

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
// days_from_civil).
int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

// A file-system-safe model name: what `models:` accepts (letters, digits,
// _ - . +), everything else '_'.
std::string ModelNameOf(const std::string& executable) {
  std::string name = executable.substr(executable.find_last_of("/\\") + 1);
  if (name.size() > 4 && name.compare(name.size() - 4, 4, ".exe") == 0) name.resize(name.size() - 4);
  for (char& c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-' || c == '.' || c == '+';
    if (!ok) c = '_';
  }
  return name.empty() || name == "." || name == ".." ? "benchmarks" : name;
}

// A context member as label text: strings as they are, numbers and booleans
// as JSON writes them; "" for anything else.
std::string LabelText(const JsonValue& v) {
  if (v.is_string()) return *v.String();
  if (v.is_number() || v.is_bool()) return v.Dump();
  return "";
}

}  // namespace

Result<std::vector<BenchmarkSample>> ParseGbenchJson(const std::string& json,
                                                     const std::string& metric,
                                                     const std::string& source_name) {
  auto doc = ParseGbenchDocument(json, source_name);
  if (!doc.ok()) return doc.error();
  return ReadGbenchSamples(doc->root(), metric, source_name);
}

bool LooksLikeGbenchJson(const std::string& json) {
  auto doc = ParseJson(json, "");
  return doc.ok() && doc->root().Get("benchmarks").is_array() &&
         doc->root().Get("context").is_object();
}

bool IsGoogleBenchmarkFileSet(const MetricSet& set) {
  return set.context.count("label:gbench.metric") != 0;
}

Status AdoptGoogleBenchmarkFile(const std::string& suite, const std::string& unit, MetricSet* set) {
  if (!IsGoogleBenchmarkFileSet(*set)) return InputError("not read from a Google Benchmark file");
  auto to = ParseTimeScale(unit);
  if (!to.ok() || *to == TimeScale::kCycles) {
    return InputError("unit '" + unit + "' does not apply to Google Benchmark times");
  }
  for (Metric& metric : set->metrics) {
    auto from = ParseTimeScale(metric.unit);
    if (!from.ok()) return InputError("benchmark " + metric.key.name + ": " + from.error().message);
    const double factor = UnitsPerSecond(*to) / UnitsPerSecond(*from);
    for (double& sample : metric.samples) sample *= factor;
    metric.unit = unit;
  }
  set->context["unit"] = unit;
  if (!suite.empty()) set->context["suite"] = suite;
  return Ok{};
}

std::string GbenchDateToUtc(const std::string& date) {
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0, oh = 0, om = 0;
  char sign = 0;
  int consumed = 0;
  if (std::sscanf(date.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%c%2d:%2d%n", &y, &mo, &d, &h, &mi, &s,
                  &sign, &oh, &om, &consumed) != 9 ||
      static_cast<std::size_t>(consumed) != date.size() || (sign != '+' && sign != '-') ||
      mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60 || oh > 23 || om > 59 ||
      y < 1970 || h < 0 || mi < 0 || s < 0 || oh < 0 || om < 0) {
    return "";
  }
  const int64_t offset = (sign == '+' ? 1 : -1) * (oh * 3600 + om * 60);
  const int64_t local = DaysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s;
  return FormatUtcDate(local - offset);
}

Result<RunResults> GbenchJsonToResults(const std::string& json, const std::string& source_name,
                                       const std::string& metric) {
  auto doc = ParseGbenchDocument(json, source_name);
  if (!doc.ok()) return doc.error();
  auto samples = ReadGbenchSamples(doc->root(), metric, source_name);
  if (!samples.ok()) return samples.error();
  if (samples->empty()) {
    return InputError(source_name +
                      ": a Google Benchmark file without repetitions (only aggregates, or no "
                      "benchmarks): rerun with --benchmark_repetitions=N and without "
                      "--benchmark_report_aggregates_only");
  }
  const JsonValue context = doc->root().Get("context");
  const std::string executable = LabelText(context.Get("executable"));

  RunResults results;
  ResultsMetadata& m = results.metadata;
  ModelResult model;
  model.name = ModelNameOf(executable);
  model.model_path = executable;
  // One unit for the run: the benchmarks' own when they share it (what
  // compare.py prints), else nanoseconds.
  std::string unit = (*samples)[0].time_unit;
  for (const BenchmarkSample& s : *samples) {
    if (s.time_unit != unit) unit = "ns";
  }
  auto to = ParseTimeScale(unit);
  if (!to.ok()) return InputError(source_name + ": " + to.error().message);
  std::map<std::string, std::size_t> index;
  int max_repetitions = 0;
  for (const BenchmarkSample& s : *samples) {
    auto from = ParseTimeScale(s.time_unit);
    if (!from.ok()) return InputError(source_name + ": " + from.error().message);
    auto [it, added] = index.emplace(s.name, model.benchmarks.size());
    if (added) {
      BenchmarkResult b;
      b.name = s.name;
      b.metric = metric;
      model.benchmarks.push_back(std::move(b));
    }
    BenchmarkResult& b = model.benchmarks[it->second];
    b.perf_data.raw.push_back(s.value * UnitsPerSecond(*to) / UnitsPerSecond(*from));
    b.iterations.push_back(s.iterations);
    max_repetitions = std::max(max_repetitions, static_cast<int>(b.iterations.size()));
  }
  for (BenchmarkResult& b : model.benchmarks) b.perf_data = PerfData::FromRaw(std::move(b.perf_data.raw));
  model.unit = unit;

  m.suite = model.name;
  m.runner = "gbench";
  const std::string version = LabelText(context.Get("library_version"));
  m.runner_version = version.empty() ? "google-benchmark" : "google-benchmark " + version;
  m.unit = unit;
  m.repetitions = max_repetitions;
  m.host = LabelText(context.Get("host_name"));
  m.device = m.host;
  m.date = GbenchDateToUtc(LabelText(context.Get("date")));
  for (const char* key : {"executable", "library_version", "library_build_type", "num_cpus",
                          "mhz_per_cpu", "cpu_scaling_enabled"}) {
    const std::string value = LabelText(context.Get(key));
    if (!value.empty()) m.labels[std::string("gbench.") + key] = value;
  }
  m.labels["gbench.metric"] = metric;
  results.models.push_back(std::move(model));
  return results;
}

}  // namespace etbench::results
