// SqlConnection over PostgreSQL (libpq): `?` placeholders become $1, $2, …;
// parameters go as text and PostgreSQL infers their types.
//
// Nothing waits on the server without a bound (docs/history.md, "Timeouts"):
// - connecting: libpq's connect_timeout, kDefaultConnectTimeout unless the
//   URI's connect_timeout or libpq's PGCONNECT_TIMEOUT says otherwise;
// - on the server, per session: kSessionLimits (statement, lock, idle in a
//   transaction), each set only where nothing else chose a value (the
//   server's configuration, the database, the role, or the client: the URI's
//   options=-c NAME=VALUE or PGOPTIONS);
// - on the client, per statement: an answer must come within the session's
//   statement_timeout plus as much again (at most 10 s more), else the
//   connection is closed with an error. The server's own timeout cannot fire
//   when the server or the network stopped answering. statement_timeout 0
//   turns this off too.
#include <libpq-fe.h>
#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include "etbench/base/parse_number.h"
#include "sql_connection.h"

namespace etbench::history {
namespace {

constexpr const char* kDefaultConnectTimeout = "10";  // seconds, libpq's unit

struct SessionLimit {
  const char* name;
  const char* value;
};
constexpr SessionLimit kSessionLimits[] = {
    {"statement_timeout", "60s"},
    {"lock_timeout", "30s"},
    {"idle_in_transaction_session_timeout", "60s"},
};
constexpr int64_t kDefaultStatementTimeoutMs = 60000;
constexpr int64_t kMaxClientMarginMs = 10000;

// How long the client waits for an answer when the server's statement
// timeout is `server_ms` (0 = no limit).
int64_t ClientWaitMs(int64_t server_ms) {
  return server_ms <= 0 ? 0 : server_ms + std::min(server_ms, kMaxClientMarginMs);
}

struct ResultDeleter {
  void operator()(PGresult* r) const { PQclear(r); }
};
using PgResult = std::unique_ptr<PGresult, ResultDeleter>;

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
  PostgresConnection(PGconn* conn, std::string name) : conn_(conn), name_(std::move(name)) {}
  ~PostgresConnection() override { PQfinish(conn_); }

  // Quiet notices, the session limits, and the client's wait per statement.
  Status Setup() {
    // Notices ("relation already exists, skipping") are not for the user.
    if (Status s = Execute("SET client_min_messages TO WARNING", {}); !s.ok()) return s;
    auto unset = Query(
        "SELECT name FROM pg_settings WHERE source = 'default' AND name IN "
        "('statement_timeout', 'lock_timeout', 'idle_in_transaction_session_timeout')",
        {});
    if (!unset.ok()) return unset.error();
    for (const SqlRow& row : unset.value()) {
      for (const SessionLimit& limit : kSessionLimits) {
        if (row[0].value_or("") != limit.name) continue;
        if (Status s = Execute("SELECT set_config(?, ?, false)", {limit.name, limit.value});
            !s.ok()) {
          return s;
        }
      }
    }
    // In milliseconds whatever unit it was set in.
    auto timeout = Query("SELECT setting FROM pg_settings WHERE name = 'statement_timeout'", {});
    if (!timeout.ok()) return timeout.error();
    const std::string text = timeout->empty() ? "" : timeout->front()[0].value_or("");
    const std::optional<int64_t> ms = ParseInteger(text, 0);
    if (!ms) {
      return IoError(name_ + ": the server's statement_timeout is '" + text +
                     "', not a number of milliseconds");
    }
    wait_ms_ = ClientWaitMs(*ms);
    return Ok{};
  }

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
  const std::string& Name() const override { return name_; }

 private:
  Error Fail(const std::string& sql, const std::string& message) const {
    return IoError(name_ + ": " + SqlErrorMessage(sql, message));
  }

  // Sends the statement and waits for its one result, at most wait_ms_.
  Result<PgResult> Exec(const std::string& sql, const std::vector<SqlValue>& params) {
    if (!broken_.empty()) return Fail(sql, broken_);
    std::vector<const char*> values;
    values.reserve(params.size());
    for (const SqlValue& p : params) values.push_back(p ? p->c_str() : nullptr);
    const std::string numbered = NumberPlaceholders(sql);
    if (PQsendQueryParams(conn_, numbered.c_str(), static_cast<int>(values.size()), nullptr,
                          values.data(), nullptr, nullptr, 0) == 0) {
      return Fail(sql, PQerrorMessage(conn_));
    }
    using Clock = std::chrono::steady_clock;
    const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(wait_ms_);
    PgResult result;
    for (;;) {
      while (PQisBusy(conn_)) {
        int wait = -1;
        if (wait_ms_ > 0) {
          const auto left =
              std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
          if (left.count() <= 0) {
            // The session cannot be used after an unanswered statement.
            broken_ = "no answer from the server within " + std::to_string(wait_ms_ / 1000) +
                      " s (statement_timeout plus a margin); connection closed";
            return Fail(sql, broken_);
          }
          wait = static_cast<int>(std::min<int64_t>(left.count(), 1000));
        }
        pollfd socket{PQsocket(conn_), POLLIN, 0};
        const int ready = poll(&socket, 1, wait);
        if (ready < 0 && errno != EINTR) return Fail(sql, std::strerror(errno));
        if (ready > 0 && PQconsumeInput(conn_) == 0) return Fail(sql, PQerrorMessage(conn_));
      }
      PGresult* next = PQgetResult(conn_);
      if (next == nullptr) break;
      // One statement gives one result; an error wins over a success.
      const bool keep = !result || (PQresultStatus(next) == PGRES_FATAL_ERROR &&
                                    PQresultStatus(result.get()) != PGRES_FATAL_ERROR);
      if (keep) {
        result.reset(next);
      } else {
        PQclear(next);
      }
    }
    const ExecStatusType status = result ? PQresultStatus(result.get()) : PGRES_FATAL_ERROR;
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
      const char* message = result ? PQresultErrorMessage(result.get()) : "";
      return Fail(sql, *message != '\0' ? message : PQerrorMessage(conn_));
    }
    return result;
  }

  PGconn* conn_;
  std::string name_;
  int64_t wait_ms_ = ClientWaitMs(kDefaultStatementTimeoutMs);  // until Setup reads the session's
  std::string broken_;  // why the connection is unusable ("" = usable)
};

}  // namespace

std::string PostgresTargetName(const std::string& conninfo) {
  char* error = nullptr;
  PQconninfoOption* options = PQconninfoParse(conninfo.c_str(), &error);
  if (options == nullptr) {
    PQfreemem(error);
    return "postgresql";
  }
  std::string host;
  std::string port;
  std::string dbname;
  for (const PQconninfoOption* o = options; o->keyword != nullptr; ++o) {
    if (o->val == nullptr) continue;
    const std::string keyword = o->keyword;
    if (keyword == "host" || (keyword == "hostaddr" && host.empty())) host = o->val;
    if (keyword == "port") port = o->val;
    if (keyword == "dbname") dbname = o->val;
  }
  PQconninfoFree(options);
  const bool socket_directory = !host.empty() && host[0] == '/';
  std::string name = "postgresql://" + (socket_directory ? std::string() : host);
  if (!port.empty()) name += ":" + port;
  name += "/" + dbname;
  if (socket_directory) name += "?host=" + host;
  for (char& c : name) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  }
  return name;
}

Result<std::unique_ptr<SqlConnection>> OpenPostgres(const std::string& conninfo) {
  const std::string name = PostgresTargetName(conninfo);
  // The default comes before the expanded URI, so the URI's connect_timeout
  // wins; with PGCONNECT_TIMEOUT set, libpq's own default applies it.
  std::vector<const char*> keys;
  std::vector<const char*> values;
  if (std::getenv("PGCONNECT_TIMEOUT") == nullptr) {
    keys.push_back("connect_timeout");
    values.push_back(kDefaultConnectTimeout);
  }
  keys.push_back("dbname");
  values.push_back(conninfo.c_str());
  keys.push_back(nullptr);
  values.push_back(nullptr);
  PGconn* conn = PQconnectdbParams(keys.data(), values.data(), /*expand_dbname=*/1);
  if (conn == nullptr || PQstatus(conn) != CONNECTION_OK) {
    std::string message = conn ? PQerrorMessage(conn) : "out of memory";
    PQfinish(conn);
    return IoError(name + ": cannot connect: " + SqlErrorMessage("", message));
  }
  auto connection = std::make_unique<PostgresConnection>(conn, name);
  if (Status s = connection->Setup(); !s.ok()) return s.error();
  return std::unique_ptr<SqlConnection>(std::move(connection));
}

}  // namespace etbench::history
