#include "schema.h"

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "etbench/base/parse_number.h"

#include "etbench/history/history_store.h"

namespace etbench::history {
namespace {

// Migration N brings a database from version N-1 to N. "%ID%" is the
// dialect's auto-numbered primary key. Never edit a released step: add one.
std::vector<std::string> MigrationSteps(int to_version) {
  switch (to_version) {
    case 1:
      return {
          "CREATE TABLE runs (id %ID%, run_id TEXT NOT NULL UNIQUE, suite TEXT NOT NULL, "
          "device TEXT NOT NULL, host TEXT NOT NULL, boot_id TEXT NOT NULL, "
          "git_commit TEXT NOT NULL, branch TEXT NOT NULL, time TEXT NOT NULL, "
          "labels TEXT NOT NULL, context TEXT NOT NULL, status TEXT NOT NULL, "
          "source TEXT NOT NULL, added TEXT NOT NULL)",
          "CREATE INDEX runs_by_suite_device_time ON runs (suite, device, time)",
          "CREATE TABLE run_models (run BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE, "
          "name TEXT NOT NULL, status TEXT NOT NULL, model_sha256 TEXT NOT NULL, "
          "PRIMARY KEY (run, name))",
          // One row per metric identity; `definition` is the metric's JSON
          // (metric_set_json.h) without samples: unit, op types, flags.
          "CREATE TABLE metrics (id %ID%, identity TEXT NOT NULL UNIQUE, label TEXT NOT NULL, "
          "model TEXT NOT NULL, definition TEXT NOT NULL)",
          // Raw samples as text ("%.17g" joined by ','), exact round trip.
          "CREATE TABLE measurements (run BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE, "
          "metric BIGINT NOT NULL REFERENCES metrics (id), p50 DOUBLE PRECISION NOT NULL, "
          "p10 DOUBLE PRECISION NOT NULL, "
          "n INTEGER NOT NULL, samples TEXT NOT NULL, group_sizes TEXT NOT NULL, "
          "session_sizes TEXT NOT NULL, PRIMARY KEY (run, metric))",
      };
    case 2:
      return {
          "CREATE TABLE acknowledgements (change_id TEXT PRIMARY KEY, time TEXT NOT NULL, "
          "note TEXT NOT NULL)",
          "CREATE INDEX measurements_by_metric ON measurements (metric, run)",
      };
    case 3:
      // Covering index of what detection reads: loading a window reads
      // this index only, not the rows with their raw samples (~1 KB each).
      return {
          "CREATE INDEX measurements_statistics ON measurements (run, metric, p10, p50, n)",
      };
    default:
      return {};
  }
}

std::string WithDialect(std::string sql, const SqlConnection& db) {
  const std::string token = "%ID%";
  for (std::size_t at = sql.find(token); at != std::string::npos; at = sql.find(token)) {
    sql.replace(at, token.size(), db.AutoIdColumn());
  }
  return sql;
}

bool IsPostgres(const SqlConnection& db) { return std::string(db.Dialect()) == "postgresql"; }

// Two sessions may both read version 0 and both CREATE TABLE (one then
// fails on pg_type's unique index, IF NOT EXISTS or not): PostgreSQL
// migrates under an advisory transaction lock. SQLite's write lock
// (BEGIN IMMEDIATE) serialises migrations already.
Status LockSchema(SqlConnection& db) {
  if (!IsPostgres(db)) return Ok{};
  // "etbench" in ASCII: a key no other lock of ours shares.
  return db.Execute("SELECT pg_advisory_xact_lock(?)", {std::string("111516052714344")});
}

Status FutureVersionError(const SqlConnection& db, int version) {
  return InputError(db.Name() + ": the history database has schema version " +
                    std::to_string(version) + "; this etbench reads up to " +
                    std::to_string(kHistorySchemaVersion));
}

}  // namespace

Status BeginWrite(SqlConnection& db) {
  // PostgreSQL: READ COMMITTED whatever the database's default, since an
  // add reads the metric another add inserted meanwhile (sql_history_store.cc);
  // under REPEATABLE READ or SERIALIZABLE that insert fails instead.
  return db.Execute(IsPostgres(db) ? "BEGIN ISOLATION LEVEL READ COMMITTED" : "BEGIN IMMEDIATE");
}

WriteTransaction::~WriteTransaction() {
  if (open_) (void)db_.Execute("ROLLBACK");
}

Status WriteTransaction::Begin() {
  Status s = BeginWrite(db_);
  open_ = s.ok();
  return s;
}

Status WriteTransaction::Commit() {
  Status s = db_.Execute("COMMIT");
  if (s.ok()) open_ = false;
  return s;
}

Result<int> ReadSchemaVersion(SqlConnection& db) {
  auto rows = db.Query("SELECT max(version) FROM schema_version");
  if (!rows.ok()) return rows.error();
  if (rows->empty() || !rows->front()[0]) return 0;
  const std::string& text = *rows->front()[0];
  const std::optional<int64_t> version =
      ParseInteger(text, 1, std::numeric_limits<int>::max());
  if (!version) {
    std::string shown = text.substr(0, 40);
    for (char& c : shown) {
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';  // one line, no escapes
    }
    return InputError(db.Name() + ": the history database's schema version is '" + shown +
                      (text.size() > 40 ? "…" : "") +
                      "', not a version number (1 or more): its table schema_version is "
                      "damaged");
  }
  return static_cast<int>(*version);
}

Status MigrateSchema(SqlConnection& db) {
  // Most opens find the current schema: one read, no lock. A missing table
  // (an empty database) or any other failure takes the locked path below,
  // which reports the real error.
  if (auto version = ReadSchemaVersion(db); version.ok()) {
    if (*version > kHistorySchemaVersion) return FutureVersionError(db, *version);
    if (*version == kHistorySchemaVersion) return Ok{};
  } else if (version.error().code == ErrorCode::kInvalidInput) {
    return version.error();  // a damaged version: migrating cannot repair it
  }
  WriteTransaction transaction(db);
  if (Status s = transaction.Begin(); !s.ok()) return s;
  if (Status s = LockSchema(db); !s.ok()) return s;
  if (Status s = db.Execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
      !s.ok()) {
    return s;
  }
  // Read again under the lock: another process may have migrated meanwhile.
  auto version = ReadSchemaVersion(db);
  if (!version.ok()) return version.error();
  if (*version > kHistorySchemaVersion) return FutureVersionError(db, *version);
  if (*version == kHistorySchemaVersion) return Ok{};  // rolled back: nothing changed
  for (int v = *version + 1; v <= kHistorySchemaVersion; ++v) {
    for (const std::string& step : MigrationSteps(v)) {
      if (Status s = db.Execute(WithDialect(step, db)); !s.ok()) return s;
    }
  }
  Status s = db.Execute("DELETE FROM schema_version");
  if (s.ok()) {
    s = db.Execute("INSERT INTO schema_version (version) VALUES (?)",
                   {std::to_string(kHistorySchemaVersion)});
  }
  if (s.ok()) s = transaction.Commit();
  return s;
}

Status CheckWritable(SqlConnection& db) {
  if (!IsPostgres(db)) {
    // A write, rolled back: SQLite opens a file it may not write read-only
    // without a word, and even BEGIN IMMEDIATE succeeds on it; the first
    // statement that changes a page fails.
    WriteTransaction probe(db);
    Status s = probe.Begin();
    if (s.ok()) s = db.Execute("UPDATE schema_version SET version = version");
    if (!s.ok()) {
      std::string why = s.error().message;  // "<path>: <SQLite's message> (in …)"
      if (why.rfind(db.Name() + ": ", 0) == 0) why.erase(0, db.Name().size() + 2);
      return IoError(db.Name() + ": cannot add runs to the history: " + why);
    }
    return Ok{};  // the probe rolls back
  }
  auto rows = db.Query(
      "SELECT current_setting('transaction_read_only'), "
      "has_table_privilege('runs', 'INSERT') AND has_table_privilege('run_models', 'INSERT') "
      "AND has_table_privilege('metrics', 'INSERT') "
      "AND has_table_privilege('measurements', 'INSERT') "
      "AND has_sequence_privilege(pg_get_serial_sequence('runs', 'id'), 'USAGE') "
      "AND has_sequence_privilege(pg_get_serial_sequence('metrics', 'id'), 'USAGE')");
  if (!rows.ok()) return rows.error();
  const SqlRow& row = rows->front();
  if (row[0].value_or("") == "on") {
    return IoError(db.Name() + ": cannot add runs to the history: the session is read-only "
                               "(a standby server, or default_transaction_read_only)");
  }
  if (row[1].value_or("") != "t") {
    return IoError(db.Name() + ": cannot add runs to the history: this role may not insert "
                               "into its tables (GRANT INSERT on runs, run_models, metrics, "
                               "measurements and USAGE on their sequences)");
  }
  return Ok{};
}

}  // namespace etbench::history
