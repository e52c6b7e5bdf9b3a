#include "synthetic_history.h"

#include <cmath>

namespace etbench::bench {

std::vector<double> MakeSeries(const SeriesSpec& spec, std::mt19937_64& rng) {
  std::normal_distribution<double> normal(0, 1);
  std::uniform_real_distribution<double> uniform(0, 1);
  const double sigma = std::sqrt(std::log1p(spec.cv * spec.cv));
  std::vector<double> v(spec.length);
  for (std::size_t i = 0; i < spec.length; ++i) {
    double level = 1.0 + spec.drift_per_run * static_cast<double>(i);
    if (spec.step_at && i >= *spec.step_at) level *= 1 + spec.step;
    const double s = spec.variance_at && i >= *spec.variance_at ? 2 * sigma : sigma;
    double x = level * std::exp(s * normal(rng));
    // Background load only adds time: 30–80% on a contended run.
    if (uniform(rng) < spec.outlier_rate) x *= 1.3 + 0.5 * uniform(rng);
    v[i] = x;
  }
  return v;
}

history::HistoryWindow MakeWindow(const std::vector<std::vector<double>>& series) {
  history::HistoryWindow window;
  std::size_t length = 0;
  for (const auto& s : series) length = std::max(length, s.size());
  for (std::size_t i = 0; i < length; ++i) {
    history::RunSummary r;
    r.id = static_cast<int64_t>(i + 1);
    r.run_id = "run" + std::to_string(i);
    r.git_commit = "c" + std::to_string(i);
    window.runs.push_back(r);
  }
  for (std::size_t m = 0; m < series.size(); ++m) {
    history::MetricHistory h;
    h.metric.key.model = "m";
    h.metric.key.block = "Execute";
    h.metric.key.name = "op" + std::to_string(m);
    h.metric.key.instruction_id = static_cast<int32_t>(m);
    h.metric.unit = "ms";
    h.metric.is_kernel_or_delegate_call = true;
    h.label = MetricLabel(h.metric.key);
    for (std::size_t i = 0; i < series[m].size(); ++i) {
      history::SeriesPoint p;
      p.run = static_cast<int64_t>(i + 1);
      p.p50 = p.p10 = series[m][i];
      p.n = 1;
      h.points.push_back(p);
    }
    window.metrics.push_back(std::move(h));
  }
  return window;
}

results::RunResults MakeSuiteResults(int models, int events, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::lognormal_distribution<double> noise(0, 0.02);
  results::RunResults results;
  results.metadata.suite = "default";
  results.metadata.device = "bench";
  results.metadata.host = "bench-host";
  results.metadata.date = "2026-01-01T00:00:00Z";
  results.metadata.git_commit = "c" + std::to_string(seed);
  for (int m = 0; m < models; ++m) {
    results::ModelResult model;
    model.name = "model" + std::to_string(m);
    results::BlockResult block;
    block.name = "Execute";
    block.run_count = 60;
    block.repetition_run_counts.assign(6, 10);
    for (int e = 0; e <= events; ++e) {
      results::EventResult event;
      event.name = e == events ? "Method::execute" : "native_call_op" + std::to_string(e);
      if (e < events) event.instruction_id = e;
      std::vector<double> raw(60);
      for (double& x : raw) x = 0.1 * (e + 1) * noise(rng);
      event.perf_data = PerfData::FromRaw(raw);
      block.events.push_back(std::move(event));
    }
    model.blocks.push_back(std::move(block));
    results.models.push_back(std::move(model));
  }
  return results;
}

}  // namespace etbench::bench
