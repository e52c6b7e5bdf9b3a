#pragma once
// An in-memory HistoryStore for the tests of what is computed over a history
// (detection, reports, workflows) rather than of the database itself, which
// keep the real SQLite and PostgreSQL stores
// (tests/history/history_store_test.cc, postgres_connection_test.cc). It
// answers as the SQL store does — the same run order and filters, the same
// idempotent adds, metric series numbered in the same order, p50 and p10 by the
// same statistic, definitions through the same JSON — which
// tests/history/memory_history_store_test.cc checks against a real SQLite
// history. Labels and context are kept as given (the SQL store replaces invalid
// UTF-8 in them).

#include <fnmatch.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "etbench/compare/metric_set_json.h"
#include "etbench/stats/stats.h"
#include "etbench/history/history_store.h"

namespace etbench::testing {

class MemoryHistoryStore : public history::HistoryStore {
 public:
  /// CheckWritable then fails with `error` (a read-only database).
  void RefuseWrites(Error error) { refuse_writes_ = std::move(error); }
  /// How many AddRun calls stored a run.
  int runs_added() const { return static_cast<int>(runs_.size()); }

  Result<bool> AddRun(const history::RunRecord& run) override {
    if (refuse_writes_) return *refuse_writes_;
    for (const Stored& s : runs_) {
      if (s.summary.run_id == run.run_id) return false;
    }
    Stored stored;
    static_cast<history::RunMetadata&>(stored.summary) = run;
    stored.summary.id = static_cast<int64_t>(runs_.size()) + 1;
    stored.summary.context = run.metrics.context;
    // New series are numbered in identity order within one add.
    std::map<std::string, const Metric*> missing;
    for (const Metric& m : run.metrics.metrics) {
      const std::string identity = history::MetricIdentity(m.key);
      if (!m.samples.empty() && SeriesOf(identity) < 0)
        missing.emplace(identity, &m);
    }
    for (const auto& [identity, metric] : missing)
      series_.push_back(NewSeries(identity, *metric));
    for (const Metric& m : run.metrics.metrics) {
      if (m.samples.empty()) continue;
      Series& s = series_[static_cast<std::size_t>(
          SeriesOf(history::MetricIdentity(m.key)))];
      if (s.points.count(stored.summary.id) > 0)
        continue;  // the first of a duplicate stays
      s.points.emplace(stored.summary.id, PointOf(stored.summary.id, m));
      ++stored.summary.metric_count;
    }
    runs_.push_back(std::move(stored));
    return true;
  }

  Result<std::vector<history::RunSummary>> ListRuns(
      const history::RunFilter& filter) override {
    std::vector<history::RunSummary> runs;
    for (const Stored& s : runs_) {
      const history::RunSummary& r = s.summary;
      if ((!filter.suite.empty() && r.suite != filter.suite) ||
          (!filter.device.empty() && r.device != filter.device) ||
          (!filter.host.empty() && r.host != filter.host) ||
          (!filter.boot_id.empty() && r.boot_id != filter.boot_id) ||
          (!filter.since.empty() && r.time < filter.since)) {
        continue;
      }
      runs.push_back(r);
    }
    std::stable_sort(
        runs.begin(), runs.end(),
        [](const history::RunSummary& a, const history::RunSummary& b) {
          return a.time != b.time ? a.time < b.time : a.id < b.id;
        });
    if (filter.last > 0 && runs.size() > filter.last) {
      runs.erase(runs.begin(),
                 runs.end() - static_cast<std::ptrdiff_t>(filter.last));
    }
    return runs;
  }

  Result<history::HistoryWindow> Load(const history::RunFilter& filter,
                                      const std::string& metric_glob,
                                      bool with_samples) override {
    history::HistoryWindow window;
    auto runs = ListRuns(filter);
    if (!runs.ok()) return runs.error();
    window.runs = std::move(runs).value();
    for (const Series& s : series_) {
      if (fnmatch(metric_glob.c_str(), s.label.c_str(), 0) != 0) continue;
      auto set = MetricSetFromJson(s.definition, "history metric " + s.label);
      if (!set.ok() || set->metrics.size() != 1) continue;
      history::MetricHistory h;
      h.metric = std::move(set->metrics.front());
      h.label = s.label;
      for (const history::RunSummary& run : window.runs) {
        auto point = s.points.find(run.id);
        if (point == s.points.end()) continue;
        h.points.push_back(point->second);
        if (!with_samples) {
          h.points.back().samples.clear();
          h.points.back().group_sizes.clear();
          h.points.back().session_sizes.clear();
        }
      }
      if (!h.points.empty()) window.metrics.push_back(std::move(h));
    }
    return window;
  }

  Status Acknowledge(const std::string& change_id,
                     const std::string& /*note*/) override {
    if (refuse_writes_) return *refuse_writes_;
    acknowledged_.insert(change_id);
    return Ok{};
  }

  Result<std::set<std::string>> Acknowledged() override {
    return acknowledged_;
  }
  Result<int> SchemaVersion() override {
    return history::kHistorySchemaVersion;
  }
  Status CheckWritable() override {
    if (refuse_writes_) return *refuse_writes_;
    return Ok{};
  }
  const char* Dialect() const override { return "memory"; }

 private:
  struct Stored {
    history::RunSummary summary;
  };
  struct Series {
    std::string identity;
    std::string label;
    std::string definition;  // the metric's JSON without samples, as the SQL
                             // store keeps it
    std::map<int64_t, history::SeriesPoint> points;  // by run id
  };

  int SeriesOf(const std::string& identity) const {
    for (std::size_t i = 0; i < series_.size(); ++i) {
      if (series_[i].identity == identity) return static_cast<int>(i);
    }
    return -1;
  }

  static Series NewSeries(const std::string& identity, const Metric& metric) {
    MetricSet one;
    one.metrics.push_back(metric);
    one.metrics.back().samples.clear();
    one.metrics.back().group_sizes.clear();
    one.metrics.back().session_sizes.clear();
    return Series{identity, MetricLabel(metric.key), MetricSetToJson(one), {}};
  }

  static history::SeriesPoint PointOf(int64_t run, const Metric& m) {
    std::vector<double> sorted = m.samples;
    std::sort(sorted.begin(), sorted.end());
    history::SeriesPoint p;
    p.run = run;
    p.p50 = ComputeStatistic(sorted, Statistic::kP50);
    p.p10 = ComputeStatistic(sorted, Statistic::kP10);
    p.n = m.samples.size();
    p.samples = m.samples;
    p.group_sizes = m.group_sizes;
    p.session_sizes = m.session_sizes;
    return p;
  }

  std::vector<Stored> runs_;    // in the order added: id = index + 1
  std::vector<Series> series_;  // in the order first stored
  std::set<std::string> acknowledged_;
  std::optional<Error> refuse_writes_;
};

}  // namespace etbench::testing
