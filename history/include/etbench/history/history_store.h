#pragma once
// Results over time: runs and their metrics in a database. One interface,
// two databases with the same schema: SQLite (a file, the default
// `results/history.db`) and PostgreSQL (`postgresql://…`, for teams).
//
// Every add is one transaction; adding a run whose run id is already stored
// changes nothing. The schema carries its version (table schema_version) and
// opening an older database migrates it forward in a transaction.

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "etbench/compare/metrics.h"
#include "etbench/history/run_record.h"
#include "etbench/base/result.h"

namespace etbench::history {

/// The schema this etbench writes; older databases are migrated to it.
inline constexpr int kHistorySchemaVersion = 3;

/// The default database of a checkout.
inline constexpr const char* kDefaultHistoryPath = "results/history.db";
/// Runs of a machine that `gate --baseline history` records before it gates:
/// with one run the machine's drift between runs cannot be seen, and a
/// second run that merely lands in another machine state would fail.
inline constexpr std::size_t kMinBaselineRuns = 3;

/// A stored run without its metrics (`history list`).
struct RunSummary : RunMetadata {
  int64_t id = 0;  // the database's row id: the order runs were added
  /// The run's MetricSet context (time source, unit, tick rate, …).
  std::map<std::string, std::string> context;
  std::size_t metric_count = 0;
};

/// Which runs to read. Runs are ordered by time, then by the order added.
struct RunFilter {
  std::string suite;   // "" = any
  std::string device;  // "" = any
  std::string host;    // "" = any
  std::string boot_id; // "" = any
  std::string since;   // ISO time: runs at or after it ("" = all)
  std::size_t last = 0;  // keep only the last N runs (0 = all)
};

/// One run's value of a metric.
struct SeriesPoint {
  int64_t run = 0;  // RunSummary::id
  double p50 = 0;   // median of the run's samples (what reports show)
  /// Lower decile of the run's samples: the statistic change points are
  /// detected on. Background load only ever adds time, so on a shared
  /// machine the fast tail of a run is what the code costs, while its
  /// median moves with whatever else the machine was doing.
  double p10 = 0;
  std::size_t n = 0;
  /// Raw samples with their groups (only when asked for).
  std::vector<double> samples;
  std::vector<uint64_t> group_sizes;
  std::vector<uint64_t> session_sizes;
};

/// A metric over the runs that recorded it, in run order.
struct MetricHistory {
  /// The metric's identity and attributes (samples empty).
  Metric metric;
  std::string label;  // MetricLabel(metric.key)
  std::vector<SeriesPoint> points;
};

/// A filtered window of the history: the runs and every matching metric.
struct HistoryWindow {
  std::vector<RunSummary> runs;  // in order
  std::vector<MetricHistory> metrics;
};

class HistoryStore {
 public:
  virtual ~HistoryStore() = default;

  /// Stores `run` in one transaction. Returns true when added, false when a
  /// run with its run_id was already stored (nothing changes).
  virtual Result<bool> AddRun(const RunRecord& run) = 0;

  /// The runs matching `filter`, in order.
  virtual Result<std::vector<RunSummary>> ListRuns(const RunFilter& filter) = 0;

  /// The runs matching `filter` and the metrics whose label matches the
  /// shell glob `metric_glob` ("*" = all), raw samples only when
  /// `with_samples`.
  virtual Result<HistoryWindow> Load(const RunFilter& filter, const std::string& metric_glob,
                                     bool with_samples) = 0;

  /// Marks the change point `change_id` as acknowledged (idempotent).
  virtual Status Acknowledge(const std::string& change_id, const std::string& note) = 0;

  /// Every acknowledged change-point id.
  virtual Result<std::set<std::string>> Acknowledged() = 0;

  /// The schema version of the open database.
  virtual Result<int> SchemaVersion() = 0;

  /// "sqlite" or "postgresql".
  virtual const char* Dialect() const = 0;
};

/// True when `spec` names a PostgreSQL database ("postgresql://…" or
/// "postgres://…"); anything else is an SQLite file path.
bool IsPostgresSpec(const std::string& spec);

/// Opens the history at `spec` (SQLite path or PostgreSQL URI), creating and
/// migrating its schema. Errors: cannot open or connect, not a database, a
/// schema newer than this etbench reads.
Result<std::unique_ptr<HistoryStore>> OpenHistory(const std::string& spec);

}  // namespace etbench::history
