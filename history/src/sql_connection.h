#pragma once
// The database behind the history store: one small interface, two real
// implementations (SQLite and PostgreSQL through libpq). Statements use `?`
// placeholders; every parameter and every result cell travels as text
// (nullopt = SQL NULL), so the store's SQL is the same for both.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "etbench/base/result.h"

namespace etbench::history {

using SqlValue = std::optional<std::string>;
using SqlRow = std::vector<SqlValue>;

class SqlConnection {
 public:
  virtual ~SqlConnection() = default;

  /// Runs one statement with `params` bound to its `?` placeholders, in
  /// order. Errors carry the database's message and the statement's start.
  virtual Status Execute(const std::string& sql, const std::vector<SqlValue>& params = {}) = 0;

  /// Runs one query and returns every row (cells as text, NULL as nullopt).
  virtual Result<std::vector<SqlRow>> Query(const std::string& sql,
                                            const std::vector<SqlValue>& params = {}) = 0;

  /// The column type of an auto-numbered 64-bit primary key
  /// ("INTEGER PRIMARY KEY" for SQLite, "BIGSERIAL PRIMARY KEY" for PostgreSQL).
  virtual const char* AutoIdColumn() const = 0;

  /// "sqlite" or "postgresql".
  virtual const char* Dialect() const = 0;
};

/// Opens (creating parent directories and the file) an SQLite database.
Result<std::unique_ptr<SqlConnection>> OpenSqlite(const std::string& path);

/// Connects to PostgreSQL with a libpq connection string or URI
/// ("postgresql://user@host/db", "postgresql:///db?host=/run/pg").
Result<std::unique_ptr<SqlConnection>> OpenPostgres(const std::string& conninfo);

/// "Statement: message" with the statement shortened for one-line errors.
std::string SqlErrorMessage(const std::string& sql, const std::string& message);

}  // namespace etbench::history
