// SqlConnection over PostgreSQL (libpq): `?` placeholders become $1, $2, …;
// parameters go as text and PostgreSQL infers their types.
#include <libpq-fe.h>

#include <cstdlib>

#include "sql_connection.h"

namespace etbench::history {
namespace {

struct ResultDeleter {
  void operator()(PGresult* r) const { PQclear(r); }
};

// `?` → `$n`, outside quoted strings.
std::string NumberPlaceholders(const std::string& sql) {
  std::string out;
  out.reserve(sql.size() + 16);
  int n = 0;
  bool quoted = false;
  for (char c : sql) {
    if (c == '\'') quoted = !quoted;
    if (c == '?' && !quoted) {
      out += "$" + std::to_string(++n);
    } else {
      out += c;
    }
  }
  return out;
}

using PgResult = std::unique_ptr<PGresult, ResultDeleter>;

class PostgresCells final : public SqlCells {
 public:
  PostgresCells(const PGresult* result, int row) : result_(result), row_(row) {}
  std::string_view Text(std::size_t column) const override {
    const int c = static_cast<int>(column);
    return {PQgetvalue(result_, row_, c), static_cast<std::size_t>(PQgetlength(result_, row_, c))};
  }
  double Double(std::size_t column) const override {
    return std::strtod(PQgetvalue(result_, row_, static_cast<int>(column)), nullptr);
  }
  int64_t Int(std::size_t column) const override {
    return std::strtoll(PQgetvalue(result_, row_, static_cast<int>(column)), nullptr, 10);
  }

 private:
  const PGresult* result_;
  int row_;
};

class PostgresConnection final : public SqlConnection {
 public:
  explicit PostgresConnection(PGconn* conn) : conn_(conn) {}
  ~PostgresConnection() override { PQfinish(conn_); }

  Status Execute(const std::string& sql, const std::vector<SqlValue>& params) override {
    auto rows = Query(sql, params);
    if (!rows.ok()) return rows.error();
    return Ok{};
  }

  Result<std::vector<SqlRow>> Query(const std::string& sql,
                                    const std::vector<SqlValue>& params) override {
    auto result = Exec(sql, params);
    if (!result.ok()) return result.error();
    const PGresult* r = result.value().get();
    std::vector<SqlRow> rows;
    const int n = PQntuples(r);
    const int columns = PQnfields(r);
    rows.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      SqlRow row(static_cast<std::size_t>(columns));
      for (int c = 0; c < columns; ++c) {
        if (PQgetisnull(r, i, c)) continue;
        row[static_cast<std::size_t>(c)] =
            std::string(PQgetvalue(r, i, c), static_cast<std::size_t>(PQgetlength(r, i, c)));
      }
      rows.push_back(std::move(row));
    }
    return rows;
  }

  Status QueryEach(const std::string& sql, const std::vector<SqlValue>& params,
                   const std::function<void(const SqlCells&)>& each_row) override {
    auto result = Exec(sql, params);
    if (!result.ok()) return result.error();
    const int n = PQntuples(result.value().get());
    for (int i = 0; i < n; ++i) each_row(PostgresCells(result.value().get(), i));
    return Ok{};
  }

  const char* AutoIdColumn() const override { return "BIGSERIAL PRIMARY KEY"; }
  const char* Dialect() const override { return "postgresql"; }

 private:
  Result<PgResult> Exec(const std::string& sql, const std::vector<SqlValue>& params) {
    std::vector<const char*> values;
    values.reserve(params.size());
    for (const SqlValue& p : params) values.push_back(p ? p->c_str() : nullptr);
    const std::string numbered = NumberPlaceholders(sql);
    PgResult result(PQexecParams(conn_, numbered.c_str(), static_cast<int>(values.size()),
                                 nullptr, values.data(), nullptr, nullptr, 0));
    const ExecStatusType status = result ? PQresultStatus(result.get()) : PGRES_FATAL_ERROR;
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
      return IoError("postgresql: " + SqlErrorMessage(sql, PQerrorMessage(conn_)));
    }
    return result;
  }

  PGconn* conn_;
};

}  // namespace

Result<std::unique_ptr<SqlConnection>> OpenPostgres(const std::string& conninfo) {
  PGconn* conn = PQconnectdb(conninfo.c_str());
  if (conn == nullptr || PQstatus(conn) != CONNECTION_OK) {
    std::string message = conn ? PQerrorMessage(conn) : "out of memory";
    PQfinish(conn);
    return IoError("postgresql: cannot connect: " + SqlErrorMessage("", message));
  }
  auto connection = std::make_unique<PostgresConnection>(conn);
  // Notices ("relation already exists, skipping") are not for the user.
  if (Status s = connection->Execute("SET client_min_messages TO WARNING", {}); !s.ok()) {
    return s.error();
  }
  return std::unique_ptr<SqlConnection>(std::move(connection));
}

}  // namespace etbench::history
