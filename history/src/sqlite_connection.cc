// SqlConnection over SQLite (libsqlite3): prepared statements, text binding.
#include <sqlite3.h>

#include <sys/stat.h>

#include <charconv>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "etbench/base/input_file.h"
#include "sql_connection.h"

namespace etbench::history {

// How long a connection waits for another's lock (CI jobs sharing a history).
constexpr int kBusyTimeoutMs = 10000;

namespace {

struct StatementDeleter {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};
using Statement = std::unique_ptr<sqlite3_stmt, StatementDeleter>;

class SqliteCells final : public SqlCells {
 public:
  explicit SqliteCells(sqlite3_stmt* statement) : statement_(statement) {}
  std::string_view Text(std::size_t column) const override {
    const int c = static_cast<int>(column);
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(statement_, c));
    if (text == nullptr) return {};
    return {text, static_cast<std::size_t>(sqlite3_column_bytes(statement_, c))};
  }
  double Double(std::size_t column) const override {
    return sqlite3_column_double(statement_, static_cast<int>(column));
  }
  int64_t Int(std::size_t column) const override {
    return sqlite3_column_int64(statement_, static_cast<int>(column));
  }

 private:
  sqlite3_stmt* statement_;
};

class SqliteConnection final : public SqlConnection {
 public:
  SqliteConnection(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  ~SqliteConnection() override { sqlite3_close_v2(db_); }

  Status Execute(const std::string& sql, const std::vector<SqlValue>& params) override {
    return Run(sql, params, [](sqlite3_stmt*) {});
  }

  Result<std::vector<SqlRow>> Query(const std::string& sql,
                                    const std::vector<SqlValue>& params) override {
    std::vector<SqlRow> rows;
    Status s = Run(sql, params, [&rows](sqlite3_stmt* raw) { rows.push_back(RowOf(raw)); });
    if (!s.ok()) return s.error();
    return rows;
  }

  Status QueryEach(const std::string& sql, const std::vector<SqlValue>& params,
                   const std::function<void(const SqlCells&)>& each_row) override {
    return Run(sql, params, [&each_row](sqlite3_stmt* raw) { each_row(SqliteCells(raw)); });
  }

  const char* AutoIdColumn() const override { return "INTEGER PRIMARY KEY"; }
  const char* Dialect() const override { return "sqlite"; }
  const std::string& Name() const override { return path_; }

 private:
  Error Fail(const std::string& sql) const {
    return IoError(path_ + ": " + SqlErrorMessage(sql, sqlite3_errmsg(db_)));
  }

  static SqlRow RowOf(sqlite3_stmt* raw) {
    const int columns = sqlite3_column_count(raw);
    SqlRow row(static_cast<std::size_t>(columns));
    for (int c = 0; c < columns; ++c) {
      const int type = sqlite3_column_type(raw, c);
      if (type == SQLITE_NULL) continue;
      if (type == SQLITE_FLOAT) {
        // Shortest exact text: faster than SQLite's own %!.15g and lossless.
        char buffer[32];
        const auto end =
            std::to_chars(buffer, buffer + sizeof buffer, sqlite3_column_double(raw, c)).ptr;
        row[static_cast<std::size_t>(c)] = std::string(buffer, end);
        continue;
      }
      const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(raw, c));
      row[static_cast<std::size_t>(c)] =
          std::string(text, static_cast<std::size_t>(sqlite3_column_bytes(raw, c)));
    }
    return row;
  }

  // Prepares `sql`, binds `params` and calls `on_row` for every result row.
  template <typename OnRow>
  Status Run(const std::string& sql, const std::vector<SqlValue>& params, OnRow&& on_row) {
    sqlite3_stmt* raw = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), static_cast<int>(sql.size()), &raw, nullptr) !=
        SQLITE_OK) {
      return Fail(sql);
    }
    Statement statement(raw);
    for (std::size_t i = 0; i < params.size(); ++i) {
      const int index = static_cast<int>(i) + 1;
      const int rc = params[i] ? sqlite3_bind_text(raw, index, params[i]->data(),
                                                   static_cast<int>(params[i]->size()),
                                                   SQLITE_TRANSIENT)
                               : sqlite3_bind_null(raw, index);
      if (rc != SQLITE_OK) return Fail(sql);
    }
    for (;;) {
      const int rc = sqlite3_step(raw);
      if (rc == SQLITE_DONE) return Ok{};
      if (rc != SQLITE_ROW) return Fail(sql);
      on_row(raw);
    }
  }

  sqlite3* db_;
  std::string path_;
};

}  // namespace

Result<std::unique_ptr<SqlConnection>> OpenSqlite(const std::string& path) {
  // SQLite would open a device or FIFO and create PATH-journal beside it
  // (/dev/null-journal): only a regular file, or none yet, is a history.
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    return InputError(path + ": " + NonRegularFileKind(st.st_mode) +
                      ", not a history database (an SQLite file)");
  }
  std::error_code ec;
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  sqlite3* db = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                                 nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close_v2(db);
    return IoError(path + ": cannot open the history database: " + message);
  }
  // Concurrent CI jobs on one machine wait for each other instead of failing.
  sqlite3_busy_timeout(db, kBusyTimeoutMs);
  auto connection = std::make_unique<SqliteConnection>(db, path);
  if (Status s = connection->Execute("PRAGMA foreign_keys = ON", {}); !s.ok()) return s.error();
  // Not a database at all shows up here, with one clear line.
  if (auto probe = connection->Query("SELECT count(*) FROM sqlite_master", {}); !probe.ok()) {
    return probe.error();
  }
  // Write-ahead log, synced at checkpoints: a commit is one append instead
  // of two fsyncs of a rollback journal. A crash of the process loses
  // nothing; a power cut can lose the last adds, which re-adding the results
  // files (idempotent) restores.
  //
  // Switching a new database to WAL needs its exclusive lock. When several
  // first uses open it at once, SQLite answers "database is locked" at
  // once to all but one, without waiting (the busy handler is not called
  // where waiting could deadlock), so the switch is retried here for as
  // long as the busy timeout above.
  for (const char* pragma : {"PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL"}) {
    Status s = connection->Execute(pragma, {});
    for (int waited_ms = 0; !s.ok() && waited_ms < kBusyTimeoutMs &&
                            s.error().message.find("database is locked") != std::string::npos;
         waited_ms += 10) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      s = connection->Execute(pragma, {});
    }
    if (!s.ok()) return s.error();
  }
  return std::unique_ptr<SqlConnection>(std::move(connection));
}

std::string SqlErrorMessage(const std::string& sql, const std::string& message) {
  std::string head = sql.substr(0, 40);
  for (char& c : head) {
    if (c == '\n') c = ' ';
  }
  std::string m = message;
  while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
  for (char& c : m) {
    if (c == '\n') c = ' ';
  }
  if (sql.empty()) return m;
  return m + " (in \"" + head + (sql.size() > 40 ? "…" : "") + "\")";
}

}  // namespace etbench::history
