#pragma once
// The history's tables and their migrations (the same SQL for SQLite and
// PostgreSQL; only the auto-numbered key column differs).

#include "etbench/base/result.h"
#include "sql_connection.h"

namespace etbench::history {

/// The database's schema version (0 for an empty database). Errors: a
/// stored version that is not a whole number from 1 up (a damaged table),
/// named with the database and the value.
Result<int> ReadSchemaVersion(SqlConnection& db);

/// Creates or migrates the schema to kHistorySchemaVersion in one
/// transaction that holds the schema lock (SQLite: the write lock;
/// PostgreSQL: an advisory transaction lock), so any number of processes
/// opening an empty or older database at once all succeed and exactly one
/// of them migrates. Errors: a database written by a newer etbench, a
/// damaged version.
Status MigrateSchema(SqlConnection& db);

/// BEGIN that takes the write lock at once (SQLite: IMMEDIATE), so that two
/// writers wait for each other instead of failing at COMMIT; PostgreSQL:
/// READ COMMITTED whatever the database's default isolation.
Status BeginWrite(SqlConnection& db);

/// A write transaction (BeginWrite … COMMIT) that rolls back unless
/// committed.
class WriteTransaction {
 public:
  explicit WriteTransaction(SqlConnection& db) : db_(db) {}
  ~WriteTransaction();
  WriteTransaction(const WriteTransaction&) = delete;
  WriteTransaction& operator=(const WriteTransaction&) = delete;
  Status Begin();
  Status Commit();

 private:
  SqlConnection& db_;
  bool open_ = false;
};

/// Whether runs can be added: the SQLite file takes a write (rolled back);
/// the PostgreSQL session is not read-only and its role may insert into
/// every table. Errors name the database and what is missing. Nothing
/// changes.
Status CheckWritable(SqlConnection& db);

}  // namespace etbench::history
