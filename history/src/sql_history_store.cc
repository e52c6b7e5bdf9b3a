// HistoryStore over an SqlConnection: the one implementation of the schema,
// shared by SQLite and PostgreSQL.
#include <fnmatch.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <unordered_map>

#include "etbench/base/json_reader.h"
#include "etbench/base/json_writer.h"
#include "etbench/base/utc_date.h"
#include "etbench/compare/metric_set_json.h"
#include "etbench/history/history_store.h"
#include "etbench/stats/stats.h"
#include "schema.h"
#include "sql_connection.h"

namespace etbench::history {
namespace {

std::string JoinDoubles(const std::vector<double>& values) {
  std::string out;
  out.reserve(values.size() * 20);
  char buffer[40];
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::snprintf(buffer, sizeof buffer, "%s%.17g", i ? "," : "", values[i]);
    out += buffer;
  }
  return out;
}

std::string JoinCounts(const std::vector<uint64_t>& values) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) out += ',';
    out += std::to_string(values[i]);
  }
  return out;
}

std::vector<double> SplitDoubles(const std::string& text) {
  std::vector<double> out;
  const char* p = text.c_str();
  while (*p != '\0') {
    char* end = nullptr;
    const double v = std::strtod(p, &end);
    if (end == p) break;
    out.push_back(v);
    p = *end == ',' ? end + 1 : end;
  }
  return out;
}

std::vector<uint64_t> SplitCounts(const std::string& text) {
  std::vector<uint64_t> out;
  const char* p = text.c_str();
  while (*p != '\0') {
    char* end = nullptr;
    const unsigned long long v = std::strtoull(p, &end, 10);
    if (end == p) break;
    out.push_back(v);
    p = *end == ',' ? end + 1 : end;
  }
  return out;
}

// A JSON object of strings (labels, context); other values are skipped.
std::map<std::string, std::string> ParseStringMap(const std::string& text) {
  std::map<std::string, std::string> out;
  auto json = ParseJson(text, "");
  if (!json.ok() || !json->root().is_object()) return out;
  for (const JsonValue v : json->root()) {
    if (v.is_string()) out[std::string(v.key())] = *v.String();
  }
  return out;
}

// The JSON text of a string map (labels, context); invalid UTF-8 becomes
// U+FFFD instead of an exception.
std::string StringMapJson(const std::map<std::string, std::string>& map) {
  JsonWriter json;
  json.StringMap(map);
  return json.Take();
}

int64_t ToInt(const SqlValue& v) { return v ? std::strtoll(v->c_str(), nullptr, 10) : 0; }
std::string ToText(const SqlValue& v) { return v ? *v : std::string(); }

// The metric's JSON (metric_set_json.h) without samples.
std::string DefinitionOf(const Metric& metric) {
  MetricSet one;
  one.metrics.push_back(metric);
  one.metrics.back().samples.clear();
  one.metrics.back().group_sizes.clear();
  one.metrics.back().session_sizes.clear();
  return MetricSetToJson(one);
}

class SqlHistoryStore final : public HistoryStore {
 public:
  explicit SqlHistoryStore(std::unique_ptr<SqlConnection> db) : db_(std::move(db)) {}

  Result<bool> AddRun(const RunRecord& run) override {
    WriteTransaction transaction(*db_);
    if (Status s = transaction.Begin(); !s.ok()) return s.error();
    auto inserted = db_->Query(
        "INSERT INTO runs (run_id, suite, device, host, boot_id, git_commit, branch, time, "
        "labels, context, status, source, added) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (run_id) DO NOTHING RETURNING id",
        {run.run_id, run.suite, run.device, run.host, run.boot_id, run.git_commit, run.branch,
         run.time, StringMapJson(run.labels), StringMapJson(run.metrics.context),
         run.status, run.source,
         FormatUtcDate(std::time(nullptr))});
    if (!inserted.ok()) return inserted.error();
    if (inserted->empty()) return false;  // already stored: the transaction rolls back
    const std::string run_row = ToText(inserted->front()[0]);
    for (const ModelRecord& m : run.models) {
      if (Status s = db_->Execute(
              "INSERT INTO run_models (run, name, status, model_sha256) VALUES (?, ?, ?, ?)",
              {run_row, m.name, m.status, m.model_sha256});
          !s.ok()) {
        return s.error();
      }
    }
    auto ids = MetricIdsFor(run.metrics.metrics);
    if (!ids.ok()) return ids.error();
    for (const Metric& metric : run.metrics.metrics) {
      if (metric.samples.empty()) continue;
      if (Status s = db_->Execute(
              "INSERT INTO measurements (run, metric, p50, p10, n, samples, group_sizes, "
              "session_sizes) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (run, metric) DO NOTHING",
              {run_row, ids->at(MetricIdentity(metric.key)),
               JoinDoubles({StatisticOf(metric.samples, Statistic::kP50)}),
               JoinDoubles({StatisticOf(metric.samples, Statistic::kP10)}),
               std::to_string(metric.samples.size()), JoinDoubles(metric.samples),
               JoinCounts(metric.group_sizes), JoinCounts(metric.session_sizes)});
          !s.ok()) {
        return s.error();
      }
    }
    if (Status s = transaction.Commit(); !s.ok()) return s.error();
    return true;
  }

  Result<std::vector<RunSummary>> ListRuns(const RunFilter& filter) override {
    auto rows = db_->Query(
        "SELECT id, run_id, suite, device, host, boot_id, git_commit, branch, time, status, "
        "source, labels, context, (SELECT count(*) FROM measurements m WHERE m.run = runs.id) FROM runs "
        "WHERE (? = '' OR suite = ?) AND (? = '' OR device = ?) AND (? = '' OR host = ?) "
        "AND (? = '' OR boot_id = ?) AND (? = '' OR time >= ?) ORDER BY time, id",
        {filter.suite, filter.suite, filter.device, filter.device, filter.host, filter.host,
         filter.boot_id, filter.boot_id, filter.since, filter.since});
    if (!rows.ok()) return rows.error();
    std::vector<RunSummary> runs;
    runs.reserve(rows->size());
    for (const SqlRow& r : rows.value()) {
      RunSummary s;
      s.id = ToInt(r[0]);
      s.run_id = ToText(r[1]);
      s.suite = ToText(r[2]);
      s.device = ToText(r[3]);
      s.host = ToText(r[4]);
      s.boot_id = ToText(r[5]);
      s.git_commit = ToText(r[6]);
      s.branch = ToText(r[7]);
      s.time = ToText(r[8]);
      s.status = ToText(r[9]);
      s.source = ToText(r[10]);
      s.labels = ParseStringMap(ToText(r[11]));
      s.context = ParseStringMap(ToText(r[12]));
      s.metric_count = static_cast<std::size_t>(ToInt(r[13]));
      runs.push_back(std::move(s));
    }
    if (filter.last > 0 && runs.size() > filter.last) {
      runs.erase(runs.begin(), runs.end() - static_cast<std::ptrdiff_t>(filter.last));
    }
    return runs;
  }

  Result<HistoryWindow> Load(const RunFilter& filter, const std::string& metric_glob,
                             bool with_samples) override {
    HistoryWindow window;
    auto runs = ListRuns(filter);
    if (!runs.ok()) return runs.error();
    window.runs = std::move(runs).value();
    if (window.runs.empty()) return window;

    auto metric_rows = db_->Query("SELECT id, label, definition FROM metrics ORDER BY id");
    if (!metric_rows.ok()) return metric_rows.error();
    std::unordered_map<int64_t, std::size_t> metric_index;
    for (const SqlRow& r : metric_rows.value()) {
      const std::string label = ToText(r[1]);
      if (fnmatch(metric_glob.c_str(), label.c_str(), 0) != 0) continue;
      auto set = MetricSetFromJson(ToText(r[2]), "history metric " + label);
      if (!set.ok() || set->metrics.size() != 1) continue;
      MetricHistory h;
      h.metric = std::move(set->metrics.front());
      h.label = label;
      metric_index.emplace(ToInt(r[0]), window.metrics.size());
      window.metrics.push_back(std::move(h));
    }
    if (window.metrics.empty()) return window;

    std::unordered_map<int64_t, std::size_t> run_index;
    std::string run_list;
    for (std::size_t i = 0; i < window.runs.size(); ++i) {
      run_index.emplace(window.runs[i].id, i);
      if (i) run_list += ',';
      run_list += std::to_string(window.runs[i].id);
    }
    // Ids are integers from the database itself, so inlining them is safe.
    // (window position, point) per metric, sorted by position below.
    std::vector<std::vector<std::pair<std::size_t, SeriesPoint>>> points(window.metrics.size());
    // Rows are read as they come (no copy of 500,000 rows); without samples
    // the covering index measurements_statistics answers alone.
    Status read = db_->QueryEach(
        std::string("SELECT run, metric, p50, p10, n") +
            (with_samples ? ", samples, group_sizes, session_sizes" : "") +
            " FROM measurements WHERE run IN (" + run_list + ")",
        {}, [&](const SqlCells& r) {
          auto m = metric_index.find(r.Int(1));
          if (m == metric_index.end()) return;
          SeriesPoint p;
          p.run = r.Int(0);
          p.p50 = r.Double(2);
          p.p10 = r.Double(3);
          p.n = static_cast<std::size_t>(r.Int(4));
          if (with_samples) {
            p.samples = SplitDoubles(std::string(r.Text(5)));
            p.group_sizes = SplitCounts(std::string(r.Text(6)));
            p.session_sizes = SplitCounts(std::string(r.Text(7)));
          }
          points[m->second].emplace_back(run_index.at(p.run), std::move(p));
        });
    if (!read.ok()) return read.error();
    for (std::size_t m = 0; m < points.size(); ++m) {
      std::sort(points[m].begin(), points[m].end(),
                [](const auto& a, const auto& b) { return a.first < b.first; });
      window.metrics[m].points.reserve(points[m].size());
      for (auto& [position, point] : points[m]) window.metrics[m].points.push_back(std::move(point));
    }
    // Metrics that none of the selected runs recorded are not part of it.
    window.metrics.erase(std::remove_if(window.metrics.begin(), window.metrics.end(),
                                        [](const MetricHistory& h) { return h.points.empty(); }),
                         window.metrics.end());
    return window;
  }

  Status Acknowledge(const std::string& change_id, const std::string& note) override {
    return db_->Execute(
        "INSERT INTO acknowledgements (change_id, time, note) VALUES (?, ?, ?) "
        "ON CONFLICT (change_id) DO NOTHING",
        {change_id, FormatUtcDate(std::time(nullptr)), note});
  }

  Result<std::set<std::string>> Acknowledged() override {
    auto rows = db_->Query("SELECT change_id FROM acknowledgements");
    if (!rows.ok()) return rows.error();
    std::set<std::string> ids;
    for (const SqlRow& r : rows.value()) ids.insert(ToText(r[0]));
    return ids;
  }

  Result<int> SchemaVersion() override { return ReadSchemaVersion(*db_); }

  Status CheckWritable() override { return history::CheckWritable(*db_); }

  const char* Dialect() const override { return db_->Dialect(); }

 private:
  // The row id of every metric with samples in `metrics` (by identity),
  // inserting the ones not stored yet. Part of the add's transaction. Two
  // adds bringing the same new metric at once: the second's insert waits
  // for the first to commit, does nothing, and reads the first's row
  // (PostgreSQL; SQLite's write lock runs adds one after the other). New
  // metrics are inserted in identity order, so two adds wait for each other
  // in one order only and never deadlock.
  Result<std::unordered_map<std::string, std::string>> MetricIdsFor(
      const std::vector<Metric>& metrics) {
    auto rows = db_->Query("SELECT identity, id FROM metrics");
    if (!rows.ok()) return rows.error();
    std::unordered_map<std::string, std::string> ids;
    for (const SqlRow& r : rows.value()) ids.emplace(ToText(r[0]), ToText(r[1]));
    std::map<std::string, const Metric*> missing;  // ordered by identity
    for (const Metric& metric : metrics) {
      if (metric.samples.empty()) continue;
      const std::string identity = MetricIdentity(metric.key);
      if (ids.count(identity) == 0) missing.emplace(identity, &metric);
    }
    for (const auto& [identity, metric] : missing) {
      auto id = db_->Query(
          "INSERT INTO metrics (identity, label, model, definition) VALUES (?, ?, ?, ?) "
          "ON CONFLICT (identity) DO NOTHING RETURNING id",
          {identity, MetricLabel(metric->key), metric->key.model, DefinitionOf(*metric)});
      if (!id.ok()) return id.error();
      if (id->empty()) {  // another add stored it since the read above
        id = db_->Query("SELECT id FROM metrics WHERE identity = ?", {identity});
        if (!id.ok()) return id.error();
        if (id->empty()) {
          return IoError(db_->Name() + ": metric '" + MetricLabel(metric->key) +
                         "' was neither inserted nor found");
        }
      }
      ids[identity] = ToText(id->front()[0]);
    }
    return ids;
  }

  std::unique_ptr<SqlConnection> db_;
};

}  // namespace

std::string MetricIdentity(const MetricKey& k) {
  return std::string(MetricKindName(k.kind)) + '\t' + k.model + '\t' + k.block + '\t' + k.name +
         '\t' + (k.instruction_id ? std::to_string(*k.instruction_id) : "-") + '\t' +
         k.delegate_id + '\t' + std::to_string(k.occurrence);
}

bool IsPostgresSpec(const std::string& spec) {
  return spec.rfind("postgresql://", 0) == 0 || spec.rfind("postgres://", 0) == 0;
}

std::string HistoryDisplayName(const std::string& spec) {
  return IsPostgresSpec(spec) ? PostgresTargetName(spec) : spec;
}

Result<std::unique_ptr<HistoryStore>> OpenHistory(const std::string& spec) {
  auto db = IsPostgresSpec(spec) ? OpenPostgres(spec) : OpenSqlite(spec);
  if (!db.ok()) return db.error();
  if (Status s = MigrateSchema(*db.value()); !s.ok()) return s.error();
  return std::unique_ptr<HistoryStore>(std::make_unique<SqlHistoryStore>(std::move(db).value()));
}

Status CheckHistoryForAdding(const std::string& spec) {
  auto store = OpenHistory(spec);
  if (!store.ok()) return store.error();
  return store.value()->CheckWritable();
}

}  // namespace etbench::history
