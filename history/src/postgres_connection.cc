// SqlConnection over PostgreSQL (libpq): `?` placeholders become $1, $2, …;
// parameters go as text and PostgreSQL infers their types.
#include <libpq-fe.h>

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
    std::vector<const char*> values;
    values.reserve(params.size());
    for (const SqlValue& p : params) values.push_back(p ? p->c_str() : nullptr);
    const std::string numbered = NumberPlaceholders(sql);
    std::unique_ptr<PGresult, ResultDeleter> result(
        PQexecParams(conn_, numbered.c_str(), static_cast<int>(values.size()), nullptr,
                     values.data(), nullptr, nullptr, 0));
    const ExecStatusType status = result ? PQresultStatus(result.get()) : PGRES_FATAL_ERROR;
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
      return IoError("postgresql: " + SqlErrorMessage(sql, PQerrorMessage(conn_)));
    }
    std::vector<SqlRow> rows;
    const int n = PQntuples(result.get());
    const int columns = PQnfields(result.get());
    rows.reserve(static_cast<std::size_t>(n));
    for (int r = 0; r < n; ++r) {
      SqlRow row(static_cast<std::size_t>(columns));
      for (int c = 0; c < columns; ++c) {
        if (PQgetisnull(result.get(), r, c)) continue;
        row[static_cast<std::size_t>(c)] =
            std::string(PQgetvalue(result.get(), r, c),
                        static_cast<std::size_t>(PQgetlength(result.get(), r, c)));
      }
      rows.push_back(std::move(row));
    }
    return rows;
  }

  const char* AutoIdColumn() const override { return "BIGSERIAL PRIMARY KEY"; }
  const char* Dialect() const override { return "postgresql"; }

 private:
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
