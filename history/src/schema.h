#pragma once
// The history's tables and their migrations (the same SQL for SQLite and
// PostgreSQL; only the auto-numbered key column differs).

#include "etbench/base/result.h"
#include "sql_connection.h"

namespace etbench::history {

/// The database's schema version (0 for an empty database).
Result<int> ReadSchemaVersion(SqlConnection& db);

/// Creates or migrates the schema to kHistorySchemaVersion, each step in one
/// transaction. Errors: a database written by a newer etbench.
Status MigrateSchema(SqlConnection& db);

/// BEGIN that takes the write lock at once (SQLite: IMMEDIATE), so that two
/// writers wait for each other instead of failing at COMMIT.
Status BeginWrite(SqlConnection& db);

}  // namespace etbench::history
