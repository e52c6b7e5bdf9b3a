// Run and comparison → PyTorch OSS benchmark database v3 records
// (pytorch_v3.h). The keys and their types follow upstream ExecuTorch's
// extract_benchmark_results.py `transform` (tests/reports/pytorch_v3_test.cc
// checks them field by field).
#include "etbench/reports/pytorch_v3.h"

#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>

#include "etbench/base/json_writer.h"
#include "etbench/base/units.h"
#include "etbench/compare/verdict.h"
#include "etbench/stats/stats.h"

namespace etbench::reports {
namespace {

// What every record of one run (or one comparison's candidate) shares.
struct RecordContext {
  std::map<std::string, std::string> context;  // a MetricSet's context
  std::string Get(const std::string& key) const {
    auto it = context.find(key);
    return it == context.end() ? std::string() : it->second;
  }
};

// Times in milliseconds (the unit of the app's metrics and of the
// dashboard's latency columns); other units as they are.
struct Value {
  double value;
  std::string unit;
};
Value InDashboardUnit(double value, const std::string& unit) {
  const double ns = NanosecondsPerUnit(unit);
  if (ns > 0) return {value * ns / 1e6, "ms"};
  return {value, unit};
}

// The backends of a model's delegated metrics ("xnnpack+qnn"), "" when none.
std::map<std::string, std::string> BackendsByModel(const std::vector<const Metric*>& metrics) {
  std::map<std::string, std::set<std::string>> found;
  for (const Metric* m : metrics) {
    if (m->delegate_backend_name && !m->delegate_backend_name->empty()) {
      found[m->key.model].insert(*m->delegate_backend_name);
    }
  }
  std::map<std::string, std::string> joined;
  for (const auto& [model, names] : found) {
    for (const std::string& n : names) joined[model] += (joined[model].empty() ? "" : "+") + n;
  }
  return joined;
}

// A memory size the benchmark app reported (a label), as the number upstream
// copies (the app's Long: an integer); 0 when there is none.
void WriteMemoryNumber(JsonWriter& json, const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end == nullptr || *end != '\0' || !std::isfinite(v)) {
    json.Int(0);
  } else if (v == std::floor(v) && std::fabs(v) < 9e15) {
    json.Int(static_cast<int64_t>(v));
  } else {
    json.Double(v);
  }
}

// Writes the members of a metric's extra_info after "method", "kind", "label".
using ExtraMembers = std::function<void(JsonWriter&)>;

// One record; its metric's extra_info.method is the block ("Execute",
// "Default"), as upstream's "method" says which method of the model the
// metric measured.
void WriteRecord(JsonWriter& json, const RecordContext& rc, const MetricKey& key,
                 bool end_to_end, const std::string& backend, const std::string& conclusion,
                 const std::string& metric_name, double value, double target,
                 const ExtraMembers& extra) {
  JsonWriter config;  // a JSON string, as upstream
  config.BeginObject();
  config.Key("suite").String(rc.Get("suite"));
  config.Key("config_hash").String(rc.Get("config_hash"));
  config.Key("runner").String(rc.Get("runner"));
  config.EndObject();

  json.BeginObject();
  json.Key("benchmark").BeginObject();
  json.Key("name").String("ExecuTorch");
  json.Key("mode").String("inference");
  json.Key("extra_info").BeginObject();
  json.Key("app_type").String("etbench");
  json.Key("benchmark_config").String(config.Take());
  json.Key("job_conclusion").String(conclusion);
  json.Key("job_arn").String("");
  json.Key("instance_arn").String("");
  for (const char* name : {"git_commit", "branch", "suite", "date", "host", "cpu"}) {
    json.Key(name).String(rc.Get(name));
  }
  json.EndObject();
  json.EndObject();
  json.Key("model").BeginObject();
  json.Key("name").String(key.model);
  json.Key("type").String("OSS model");
  json.Key("backend").String(backend);
  json.EndObject();
  json.Key("metric").BeginObject();
  json.Key("name").String(metric_name);
  json.Key("benchmark_values").BeginArray().Double(value).EndArray();
  json.Key("target_value").Double(target);
  json.Key("extra_info").BeginObject();
  json.Key("method").String(key.block);
  json.Key("kind").String(end_to_end ? "end_to_end" : "operator");
  json.Key("label").String(MetricLabel(key));
  extra(json);
  json.EndObject();
  json.EndObject();
  json.Key("runners").BeginArray().BeginObject();
  json.Key("name").String(rc.Get("device"));
  json.Key("type").String(rc.Get("os"));
  // Upstream copies the app's deviceInfo.availMem/totalMem (numbers; 0 when
  // the app did not query them, as it does not today).
  json.Key("avail_mem_in_gb");
  WriteMemoryNumber(json, rc.Get("label:app.avail_mem"));
  json.Key("total_mem_in_gb");
  WriteMemoryNumber(json, rc.Get("label:app.total_mem"));
  json.EndObject().EndArray();
  json.EndObject();
}

}  // namespace

std::string PytorchV3MetricName(const MetricKey& key, const std::string& stat,
                                const std::string& unit) {
  const EventRole role = MetricEventRole(key);
  if (role == EventRole::kMethodExecute) return stat + "_inference_latency(" + unit + ")";
  if (role == EventRole::kLoadMethod) {
    return stat == "avg" ? "model_load_time(" + unit + ")"
                         : stat + "_model_load_time(" + unit + ")";
  }
  const std::string label = MetricLabel(key);
  const std::string without_model =
      label.compare(0, key.model.size() + 1, key.model + "/") == 0 ? label.substr(key.model.size() + 1)
                                                                   : label;
  return without_model + " " + stat + "(" + unit + ")";
}

std::string RunToPytorchV3(const results::RunResults& run) {
  const MetricSet set = results::ToMetricSet(run);
  RecordContext rc{set.context};
  std::vector<const Metric*> metrics;
  for (const Metric& m : set.metrics) metrics.push_back(&m);
  const auto backends = BackendsByModel(metrics);
  JsonWriter json(2);
  json.BeginArray();
  for (const Metric& m : set.metrics) {
    if (m.samples.empty() || m.key.kind == MetricKind::kAllocation) continue;
    // The statistics are the inspector's (PerfData), as in every report.
    const PerfData perf = PerfData::FromRaw(m.samples);
    const Value avg = InDashboardUnit(perf.avg, m.unit);
    auto backend = backends.find(m.key.model);
    WriteRecord(json, rc, m.key, m.end_to_end,
                backend == backends.end() ? "" : backend->second, "SUCCESS",
                PytorchV3MetricName(m.key, "avg", avg.unit), avg.value, 0, [&](JsonWriter& extra) {
                  extra.Key("p50").Double(InDashboardUnit(perf.p50, m.unit).value);
                  extra.Key("p90").Double(InDashboardUnit(perf.p90, m.unit).value);
                  extra.Key("n").Uint(perf.count);
                });
  }
  json.EndArray();
  return json.Take() + "\n";
}

std::string ComparisonToPytorchV3(const Comparison& comparison) {
  RecordContext rc{comparison.candidate_context};
  JsonWriter json(2);
  json.BeginArray();
  for (const MetricComparison& r : comparison.rows) {
    const std::string stat = StatisticName(r.statistic);
    const Value candidate = InDashboardUnit(r.candidate_value, r.unit);
    const Value baseline = InDashboardUnit(r.baseline_value, r.unit);
    WriteRecord(json, rc, r.key, r.end_to_end, "", "SUCCESS",
                PytorchV3MetricName(r.key, stat, candidate.unit), candidate.value, baseline.value,
                [&](JsonWriter& extra) {
                  extra.Key("statistic").String(stat);
                  extra.Key("verdict").String(VerdictName(r.verdict));
                  extra.Key("change").Double(r.change);
                  extra.Key("scale").String(r.scale == ChangeScale::kRelative ? "relative"
                                                                             : "absolute");
                  extra.Key("ci_low").Double(r.ci_low);
                  extra.Key("ci_high").Double(r.ci_high);
                  extra.Key("p_value").Double(r.p_value);
                  extra.Key("n_baseline").Uint(r.n_baseline);
                  extra.Key("n_candidate").Uint(r.n_candidate);
                  auto commit = comparison.baseline_context.find("git_commit");
                  extra.Key("baseline_commit")
                      .String(commit == comparison.baseline_context.end() ? "" : commit->second);
                });
  }
  json.EndArray();
  return json.Take() + "\n";
}

}  // namespace etbench::reports
