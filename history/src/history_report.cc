#include "etbench/history/history_report.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

#include "etbench/history/history_workflow.h"
#include "etbench/stats/stats.h"

namespace etbench::history {
namespace {

TrendPoint PointOf(const SeriesPoint& p, std::size_t run) {
  TrendPoint t;
  t.run = run;
  t.p50 = t.low = t.high = p.p50;
  std::vector<double> s = p.samples;
  if (s.size() < 2) return t;
  std::sort(s.begin(), s.end());
  const double n = static_cast<double>(s.size());
  const double half = 0.98 * std::sqrt(n);
  const auto lo = static_cast<std::size_t>(std::max(0.0, std::floor(n / 2 - half)));
  const auto hi = static_cast<std::size_t>(std::min(n - 1, std::ceil(n / 2 + half)));
  t.low = s[lo];
  t.high = s[hi];
  return t;
}

Trend TrendOf(const MetricHistory& h, const std::unordered_map<int64_t, std::size_t>& position,
              const std::vector<ChangePoint>& change_points) {
  Trend t;
  t.label = h.label;
  t.unit = h.metric.unit;
  for (const SeriesPoint& p : h.points) {
    auto it = position.find(p.run);
    if (it != position.end()) t.points.push_back(PointOf(p, it->second));
  }
  for (const ChangePoint& c : change_points) {
    if (c.label == h.label) t.change_points.push_back(c);
  }
  return t;
}

double MeanP50(const MetricHistory& h) {
  double sum = 0;
  for (const SeriesPoint& p : h.points) sum += p.p50;
  return h.points.empty() ? 0 : sum / static_cast<double>(h.points.size());
}

}  // namespace

Result<std::vector<HistoryReport>> BuildHistoryReports(HistoryStore& store,
                                                       const RunFilter& filter,
                                                       const DetectOptions& options,
                                                       std::size_t top_operators) {
  auto groups = DetectAll(store, filter, "", options);
  if (!groups.ok()) return groups.error();
  std::vector<HistoryReport> reports;
  for (DetectionGroup& g : groups.value()) {
    HistoryReport report;
    report.suite = g.suite;
    report.device = g.device;
    report.runs = g.window.runs;
    report.metrics_tested = g.detection.metrics_tested;
    report.change_points = g.detection.change_points;
    report.machine_shifts = g.detection.machine_shifts;
    RunFilter f = filter;
    f.suite = g.suite;
    f.device = g.device;
    // Samples for the intervals (only the metrics drawn need them, but one
    // query is simpler than many).
    auto window = store.Load(f, "*", true);
    if (!window.ok()) return window.error();
    std::unordered_map<int64_t, std::size_t> position;
    for (std::size_t i = 0; i < window->runs.size(); ++i) position[window->runs[i].id] = i;
    std::map<std::string, std::vector<const MetricHistory*>> by_model;
    for (const MetricHistory& h : window->metrics) by_model[h.metric.key.model].push_back(&h);
    for (const auto& [model, metrics] : by_model) {
      ModelTrends m;
      m.model = model;
      std::vector<const MetricHistory*> operators;
      for (const MetricHistory* h : metrics) {
        if (MetricEventRole(h->metric.key) == EventRole::kMethodExecute) {
          m.trends.insert(m.trends.begin(), TrendOf(*h, position, report.change_points));
        } else if (h->metric.key.kind == MetricKind::kFrameworkTax) {
          m.framework_tax.push_back(TrendOf(*h, position, report.change_points));
        } else if (h->metric.is_kernel_or_delegate_call) {
          operators.push_back(h);
        }
      }
      std::sort(operators.begin(), operators.end(),
                [](const MetricHistory* a, const MetricHistory* b) {
                  return MeanP50(*a) > MeanP50(*b);
                });
      for (std::size_t i = 0; i < operators.size() && i < top_operators; ++i) {
        m.trends.push_back(TrendOf(*operators[i], position, report.change_points));
      }
      report.models.push_back(std::move(m));
    }
    reports.push_back(std::move(report));
  }
  return reports;
}

}  // namespace etbench::history
