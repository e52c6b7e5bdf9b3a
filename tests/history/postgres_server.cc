#include "postgres_server.h"

#include <sys/stat.h>
#include <unistd.h>

#include <sys/wait.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

namespace etbench::testing {
namespace {

// Debian keeps the server programs out of PATH: /usr/lib/postgresql/N/bin.
std::string FindBinDir() {
  std::vector<std::filesystem::path> candidates;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/usr/lib/postgresql", ec)) {
    candidates.push_back(entry.path() / "bin");
  }
  std::sort(candidates.rbegin(), candidates.rend());  // newest first
  for (const auto& c : candidates) {
    if (std::filesystem::exists(c / "initdb") && std::filesystem::exists(c / "pg_ctl")) {
      return c.string();
    }
  }
  return "";
}

}  // namespace

PostgresServer::PostgresServer() {
  bin_dir_ = FindBinDir();
  if (bin_dir_.empty()) {
    error_ = "PostgreSQL server programs not found under /usr/lib/postgresql (install "
             "the Debian package postgresql: scripts/install-deps.sh)";
    return;
  }
  // A short path: unix socket paths are limited to ~100 bytes.
  char pattern[] = "/tmp/etbpg-XXXXXX";
  if (mkdtemp(pattern) == nullptr) {
    error_ = "cannot create a temporary directory";
    return;
  }
  dir_ = pattern;
  chmod(dir_.c_str(), 0777);
  if (geteuid() == 0 && Run("chown postgres: '" + dir_ + "'") != 0) {
    error_ = "cannot give " + dir_ + " to the postgres user";
    return;
  }
  if (Run("'" + bin_dir_ + "/initdb' -D '" + dir_ + "/data' -A trust -U postgres --no-sync" +
          " > '" + dir_ + "/initdb.log' 2>&1") != 0) {
    error_ = "initdb failed (see " + dir_ + "/initdb.log)";
    return;
  }
  // No TCP at all; fsync off: the data is thrown away.
  if (Run("'" + bin_dir_ + "/pg_ctl' -D '" + dir_ + "/data' -l '" + dir_ +
          "/server.log' -w -t 60 -o \"-c listen_addresses='' -k " + dir_ +
          " -c fsync=off\" start > '" + dir_ + "/pg_ctl.log' 2>&1") != 0) {
    error_ = "pg_ctl start failed (see " + dir_ + "/server.log)";
    return;
  }
  started_ = true;
}

PostgresServer::~PostgresServer() {
  if (started_) {
    Run("'" + bin_dir_ + "/pg_ctl' -D '" + dir_ + "/data' -m immediate -w stop > '" + dir_ + "/stop.log' 2>&1");
  }
  if (!dir_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
}

std::string PostgresServer::CreateDatabase(const std::string& name) {
  if (Run("'" + bin_dir_ + "/createdb' -h '" + dir_ + "' -U postgres '" + name +
          "' > '" + dir_ + "/createdb.log' 2>&1") != 0) {
    return "";
  }
  return "postgresql:///" + name + "?host=" + dir_ + "&user=postgres";
}

std::string PostgresServer::Sql(const std::string& database, const std::string& sql) {
  // Own files per call: tests run queries from several threads at once.
  static std::atomic<int> calls{0};
  const std::string id = std::to_string(++calls);
  const std::string script = dir_ + "/query" + id + ".sql";
  const std::string output = dir_ + "/query" + id + ".out";
  {
    std::ofstream file(script, std::ios::trunc);
    file << sql << "\n";
  }
  chmod(script.c_str(), 0644);
  if (Run("'" + bin_dir_ + "/psql' -X -q -At -v ON_ERROR_STOP=1 -h '" + dir_ +
          "' -U postgres -d '" + database + "' -f '" + script + "' > '" + output + "' 2>&1") != 0) {
    return "";
  }
  std::ifstream file(output);
  std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

int PostgresServer::Run(const std::string& command) const {
  const bool as_postgres = geteuid() == 0 && command.rfind("chown", 0) != 0;
  const std::string line =
      as_postgres ? "runuser -u postgres -- sh -c \"" + [&] {
        std::string escaped;
        for (char c : command) {
          if (c == '"' || c == '\\' || c == '$' || c == '`') escaped += '\\';
          escaped += c;
        }
        return escaped;
      }() + "\""
                  : command;
  const int status = std::system(line.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace etbench::testing
