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

#include "etbench/base/result.h"
#include "etbench/compare/metrics.h"
#include "etbench/history/run_record.h"
#include "etbench/results/history_view.h"

namespace etbench::history {

/// The schema this etbench writes; older databases are migrated to it.
inline constexpr int kHistorySchemaVersion = 3;

/// The default database of a checkout.
inline constexpr const char* kDefaultHistoryPath = "results/history.db";

/// Which runs to read. Runs are ordered by time, then by the order added.
struct RunFilter {
  std::string suite;   // "" = any
  std::string device;  // "" = any
  std::string host;    // "" = any
  std::string boot_id; // "" = any
  std::string since;   // ISO time: runs at or after it ("" = all)
  std::size_t last = 0;  // keep only the last N runs (0 = all)
};

/// What makes a metric the same metric over time: its kind, model, block,
/// name, instruction, delegate and occurrence. A store keeps one series per
/// identity and numbers them in the order they were first stored (those new
/// in one add in the order of this text), which is Load's metric order.
std::string MetricIdentity(const MetricKey& key);

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

  /// Whether runs can be added here: the SQLite file takes a write (rolled
  /// back); the PostgreSQL session is not read-only and its role may insert
  /// into the history's tables. Nothing changes. Errors name the database.
  virtual Status CheckWritable() = 0;

  /// "sqlite" or "postgresql".
  virtual const char* Dialect() const = 0;
};

/// True when `spec` names a PostgreSQL database ("postgresql://…" or
/// "postgres://…"); anything else is an SQLite file path.
bool IsPostgresSpec(const std::string& spec);

/// `spec` as messages show it: an SQLite path as given; a PostgreSQL URI
/// as server and database only, without user or password
/// ("postgresql://db.example:5432/perf") — errors and notes go to CI logs.
std::string HistoryDisplayName(const std::string& spec);

/// Opens the history at `spec` (SQLite path or PostgreSQL URI), creating and
/// migrating its schema. Any number of processes may open (and add to) one
/// database at once, an empty one included. PostgreSQL connections have
/// connect, statement and lock timeouts (docs/history.md, "Timeouts").
/// Errors, naming the database: cannot open or connect, no answer in time,
/// not a database, a schema newer than this etbench reads, a damaged schema
/// version.
Result<std::unique_ptr<HistoryStore>> OpenHistory(const std::string& spec);

/// Opens the history at `spec` as OpenHistory does and checks that runs can
/// be added to it (HistoryStore::CheckWritable). `run --history` and `gate`
/// call it before running the suite, so an unusable database fails in
/// seconds instead of after hours of measuring.
Status CheckHistoryForAdding(const std::string& spec);

}  // namespace etbench::history
