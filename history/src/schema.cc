#include "schema.h"

#include <string>
#include <vector>

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

Status ApplyMigration(SqlConnection& db, int to_version) {
  if (Status s = BeginWrite(db); !s.ok()) return s;
  // Re-read under the write lock: another process may have migrated.
  auto current = ReadSchemaVersion(db);
  if (!current.ok() || *current >= to_version) {
    (void)db.Execute("ROLLBACK");
    if (!current.ok()) return current.error();
    return Ok{};
  }
  for (const std::string& step : MigrationSteps(to_version)) {
    if (Status s = db.Execute(WithDialect(step, db)); !s.ok()) {
      (void)db.Execute("ROLLBACK");
      return s;
    }
  }
  Status s = db.Execute("DELETE FROM schema_version");
  if (s.ok()) s = db.Execute("INSERT INTO schema_version (version) VALUES (?)",
                             {std::to_string(to_version)});
  if (s.ok()) s = db.Execute("COMMIT");
  if (!s.ok()) (void)db.Execute("ROLLBACK");
  return s;
}

}  // namespace

Status BeginWrite(SqlConnection& db) {
  return db.Execute(std::string(db.Dialect()) == "sqlite" ? "BEGIN IMMEDIATE" : "BEGIN");
}

Result<int> ReadSchemaVersion(SqlConnection& db) {
  auto rows = db.Query("SELECT max(version) FROM schema_version");
  if (!rows.ok()) return rows.error();
  if (rows->empty() || !rows->front()[0]) return 0;
  return std::stoi(*rows->front()[0]);
}

Status MigrateSchema(SqlConnection& db) {
  if (Status s = db.Execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
      !s.ok()) {
    return s;
  }
  auto version = ReadSchemaVersion(db);
  if (!version.ok()) return version.error();
  if (*version > kHistorySchemaVersion) {
    return InputError("the history database has schema version " + std::to_string(*version) +
                      "; this etbench reads up to " + std::to_string(kHistorySchemaVersion));
  }
  for (int v = *version + 1; v <= kHistorySchemaVersion; ++v) {
    if (Status s = ApplyMigration(db, v); !s.ok()) return s;
  }
  return Ok{};
}

}  // namespace etbench::history
