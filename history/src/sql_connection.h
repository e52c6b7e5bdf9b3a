#pragma once
// The database behind the history store: one small interface, two real
// implementations (SQLite and PostgreSQL through libpq). Statements use `?`
// placeholders; every parameter and every result cell travels as text
// (nullopt = SQL NULL), so the store's SQL is the same for both.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "etbench/base/result.h"

namespace etbench::history {

using SqlValue = std::optional<std::string>;
using SqlRow = std::vector<SqlValue>;

/// One result row while it is being read (the views are valid until the
/// callback returns): no copy of the row is made.
class SqlCells {
 public:
  virtual ~SqlCells() = default;
  /// The cell as text ("" for NULL).
  virtual std::string_view Text(std::size_t column) const = 0;
  /// The cell as a number (0 for NULL).
  virtual double Double(std::size_t column) const = 0;
  virtual int64_t Int(std::size_t column) const = 0;
};

class SqlConnection {
 public:
  virtual ~SqlConnection() = default;

  /// Runs one statement with `params` bound to its `?` placeholders, in
  /// order. Errors carry the database's message and the statement's start.
  virtual Status Execute(const std::string& sql, const std::vector<SqlValue>& params = {}) = 0;

  /// Runs one query and returns every row (cells as text, NULL as nullopt).
  virtual Result<std::vector<SqlRow>> Query(const std::string& sql,
                                            const std::vector<SqlValue>& params = {}) = 0;

  /// Runs one query and calls `each_row` for every row as it is read,
  /// without collecting them (loading a window reads 500,000 rows).
  virtual Status QueryEach(const std::string& sql, const std::vector<SqlValue>& params,
                           const std::function<void(const SqlCells&)>& each_row) = 0;

  /// The column type of an auto-numbered 64-bit primary key
  /// ("INTEGER PRIMARY KEY" for SQLite, "BIGSERIAL PRIMARY KEY" for PostgreSQL).
  virtual const char* AutoIdColumn() const = 0;

  /// "sqlite" or "postgresql".
  virtual const char* Dialect() const = 0;

  /// The database as errors name it: the SQLite file's path, or the
  /// PostgreSQL server and database as a URI without user or password.
  virtual const std::string& Name() const = 0;
};

/// Opens (creating parent directories and the file) an SQLite database.
Result<std::unique_ptr<SqlConnection>> OpenSqlite(const std::string& path);

/// Connects to PostgreSQL with a libpq connection string or URI
/// ("postgresql://user@host/db", "postgresql:///db?host=/run/pg").
Result<std::unique_ptr<SqlConnection>> OpenPostgres(const std::string& conninfo);

/// The server and database of a libpq connection string or URI as a URI
/// without user or password ("postgresql://db.example:5432/perf",
/// "postgresql:///perf?host=/run/postgresql").
std::string PostgresTargetName(const std::string& conninfo);

/// "Statement: message" with the statement shortened for one-line errors.
std::string SqlErrorMessage(const std::string& sql, const std::string& message);

}  // namespace etbench::history
