#pragma once
// Reads a real history fixture (benchmarks/history/real_history_fixture.py:
// a MetricSet JSON whose samples are each metric's per-run lower deciles)
// as a history window. Shared by the history tests and real_history_eval.

#include <cstdint>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "etbench/compare/metric_set_json.h"
#include "etbench/results/history_view.h"

namespace etbench::testing {

/// The first `runs` runs (0: all) of the fixture at `path`: run r has id
/// r + 1 and run id and commit "run<NN>" (1-based, two digits). nullopt
/// when the file cannot be read or parsed, has no metric, or holds fewer
/// runs.
inline std::optional<history::HistoryWindow> ReadRealHistoryFixture(const std::string& path,
                                                                    std::size_t runs = 0) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  const Result<MetricSet> set = MetricSetFromJson(text.str(), path);
  if (!set.ok() || set.value().metrics.empty()) return std::nullopt;
  const std::size_t stored = set.value().metrics.front().samples.size();
  if (runs == 0) runs = stored;
  history::HistoryWindow window;
  for (std::size_t i = 0; i < runs; ++i) {
    history::RunSummary run;
    run.id = static_cast<int64_t>(i + 1);
    run.run_id = run.git_commit = (i + 1 < 10 ? "run0" : "run") + std::to_string(i + 1);
    window.runs.push_back(run);
  }
  for (const Metric& m : set.value().metrics) {
    if (m.samples.size() < runs) return std::nullopt;
    history::MetricHistory h;
    h.metric = m;
    h.metric.samples.clear();
    h.label = MetricLabel(m.key);
    for (std::size_t i = 0; i < runs; ++i) {
      history::SeriesPoint p;
      p.run = static_cast<int64_t>(i + 1);
      p.p10 = p.p50 = m.samples[i];
      p.n = 60;
      h.points.push_back(p);
    }
    window.metrics.push_back(std::move(h));
  }
  return window;
}

}  // namespace etbench::testing
