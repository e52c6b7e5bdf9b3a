#pragma once
// A throw-away PostgreSQL server for tests: initdb into a temporary
// directory, pg_ctl start listening only on a private unix socket there,
// stopped and removed on destruction. PostgreSQL refuses to run as root, so
// under root the server runs as the `postgres` user (runuser).

#include <string>

namespace etbench::testing {

class PostgresServer {
 public:
  PostgresServer();
  ~PostgresServer();
  PostgresServer(const PostgresServer&) = delete;
  PostgresServer& operator=(const PostgresServer&) = delete;

  /// "" when the server started; otherwise what went wrong.
  const std::string& error() const { return error_; }
  /// A libpq URI of a fresh database on this server ("postgresql:///db?host=…").
  std::string CreateDatabase(const std::string& name);
  /// Runs `sql` with psql on `database` as the superuser and returns its
  /// unaligned, tuples-only output ("" when psql failed).
  std::string Sql(const std::string& database, const std::string& sql);

 private:
  int Run(const std::string& command) const;

  std::string bin_dir_;
  std::string dir_;
  std::string error_;
  bool started_ = false;
};

}  // namespace etbench::testing
