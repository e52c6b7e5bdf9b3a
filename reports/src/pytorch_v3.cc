// Run and comparison → PyTorch OSS benchmark database v3 records
// (pytorch_v3.h). The keys and their types follow upstream ExecuTorch's
// extract_benchmark_results.py `transform` (tests/reports/pytorch_v3_test.cc
// checks them field by field).
#include "etbench/reports/pytorch_v3.h"

#include <cmath>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "etbench/base/units.h"
#include "etbench/compare/verdict.h"
#include "etbench/stats/stats.h"

namespace etbench::reports {
namespace {

using Json = nlohmann::ordered_json;

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
Json MemoryNumber(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end == nullptr || *end != '\0' || !std::isfinite(v)) return 0;
  if (v == std::floor(v) && std::fabs(v) < 9e15) return static_cast<int64_t>(v);
  return v;
}

Json Record(const RecordContext& rc, const std::string& model, const std::string& backend,
            const std::string& conclusion, const std::string& metric_name, double value,
            double target, Json metric_extra) {
  Json config = Json::object();
  config["suite"] = rc.Get("suite");
  config["config_hash"] = rc.Get("config_hash");
  config["runner"] = rc.Get("runner");
  Json benchmark_extra = Json::object();
  benchmark_extra["app_type"] = "etbench";
  benchmark_extra["benchmark_config"] = config.dump();  // a JSON string, as upstream
  benchmark_extra["job_conclusion"] = conclusion;
  benchmark_extra["job_arn"] = "";
  benchmark_extra["instance_arn"] = "";
  benchmark_extra["git_commit"] = rc.Get("git_commit");
  benchmark_extra["branch"] = rc.Get("branch");
  benchmark_extra["suite"] = rc.Get("suite");
  benchmark_extra["date"] = rc.Get("date");
  benchmark_extra["host"] = rc.Get("host");
  benchmark_extra["cpu"] = rc.Get("cpu");

  Json record = Json::object();
  record["benchmark"] = {{"name", "ExecuTorch"}, {"mode", "inference"}, {"extra_info", benchmark_extra}};
  record["model"] = {{"name", model}, {"type", "OSS model"}, {"backend", backend}};
  record["metric"] = {{"name", metric_name},
                      {"benchmark_values", Json::array({value})},
                      {"target_value", target},
                      {"extra_info", std::move(metric_extra)}};
  Json runner = Json::object();
  runner["name"] = rc.Get("device");
  runner["type"] = rc.Get("os");
  // Upstream copies the app's deviceInfo.availMem/totalMem (numbers; 0 when
  // the app did not query them, as it does not today).
  runner["avail_mem_in_gb"] = MemoryNumber(rc.Get("label:app.avail_mem"));
  runner["total_mem_in_gb"] = MemoryNumber(rc.Get("label:app.total_mem"));
  record["runners"] = Json::array({runner});
  return record;
}

// extra_info.method: the block ("Execute", "Default"), as upstream's
// "method" says which method of the model the metric measured.
Json MetricExtra(const MetricKey& key, bool end_to_end) {
  Json extra = Json::object();
  extra["method"] = key.block;
  extra["kind"] = end_to_end ? "end_to_end" : "operator";
  extra["label"] = MetricLabel(key);
  return extra;
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
  Json records = Json::array();
  for (const Metric& m : set.metrics) {
    if (m.samples.empty() || m.key.kind == MetricKind::kAllocation) continue;
    // The statistics are the inspector's (PerfData), as in every report.
    const PerfData perf = PerfData::FromRaw(m.samples);
    const Value avg = InDashboardUnit(perf.avg, m.unit);
    Json extra = MetricExtra(m.key, m.end_to_end);
    extra["p50"] = InDashboardUnit(perf.p50, m.unit).value;
    extra["p90"] = InDashboardUnit(perf.p90, m.unit).value;
    extra["n"] = perf.count;
    auto backend = backends.find(m.key.model);
    records.push_back(Record(rc, m.key.model, backend == backends.end() ? "" : backend->second,
                             "SUCCESS", PytorchV3MetricName(m.key, "avg", avg.unit), avg.value, 0,
                             std::move(extra)));
  }
  return records.dump(2) + "\n";
}

std::string ComparisonToPytorchV3(const Comparison& comparison) {
  RecordContext rc{comparison.candidate_context};
  Json records = Json::array();
  for (const MetricComparison& r : comparison.rows) {
    const std::string stat = StatisticName(r.statistic);
    const Value candidate = InDashboardUnit(r.candidate_value, r.unit);
    const Value baseline = InDashboardUnit(r.baseline_value, r.unit);
    Json extra = MetricExtra(r.key, r.end_to_end);
    extra["statistic"] = stat;
    extra["verdict"] = VerdictName(r.verdict);
    extra["change"] = r.change;
    extra["scale"] = r.scale == ChangeScale::kRelative ? "relative" : "absolute";
    extra["ci_low"] = r.ci_low;
    extra["ci_high"] = r.ci_high;
    extra["p_value"] = r.p_value;
    extra["n_baseline"] = r.n_baseline;
    extra["n_candidate"] = r.n_candidate;
    extra["baseline_commit"] = comparison.baseline_context.count("git_commit")
                                   ? comparison.baseline_context.at("git_commit")
                                   : "";
    records.push_back(Record(rc, r.key.model, "", "SUCCESS",
                             PytorchV3MetricName(r.key, stat, candidate.unit), candidate.value,
                             baseline.value, std::move(extra)));
  }
  return records.dump(2) + "\n";
}

}  // namespace etbench::reports
