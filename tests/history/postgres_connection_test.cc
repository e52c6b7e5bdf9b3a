// PostgreSQL connections never wait without a bound: a server that accepts
// and never answers, a table locked by someone else, a server that stops
// answering in the middle of a session (docs/history.md, "Timeouts").
// Bounds on elapsed time are loose (several times the timeout): they tell a
// timeout from a hang, not how fast the machine is.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

#include "etbench/history/history_store.h"
#include "history_test_util.h"
#include "postgres_server.h"
#include "silent_server.h"

namespace etbench::history {
namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Sets an environment variable for the test's duration.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) {
      setenv(name, value, 1);
    } else {
      unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (old_.empty()) {
      unsetenv(name_);
    } else {
      setenv(name_, old_.c_str(), 1);
    }
  }

 private:
  const char* name_;
  std::string old_;
};

// Errors and notes go to CI logs: the server and database, never the
// user or password.
TEST(HistoryPostgresNameTest, MessagesNameTheServerAndDatabaseWithoutCredentials) {
  EXPECT_EQ(HistoryDisplayName("postgresql://alice:s3cret@db.example:5433/perf?sslmode=require"),
            "postgresql://db.example:5433/perf");
  EXPECT_EQ(HistoryDisplayName("postgres:///perf?host=/run/postgresql&password=s3cret"),
            "postgresql:///perf?host=/run/postgresql");
  EXPECT_EQ(HistoryDisplayName("results/history.db"), "results/history.db");
  auto store = OpenHistory("postgresql://alice:s3cret@127.0.0.1:1/perf?connect_timeout=2");
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.error().message.rfind("postgresql://127.0.0.1:1/perf: cannot connect: ", 0), 0u)
      << store.error().message;
  EXPECT_EQ(store.error().message.find("s3cret"), std::string::npos);
  EXPECT_EQ(store.error().message.find("alice"), std::string::npos);
}

TEST(HistoryPostgresTimeoutTest, ServerThatNeverAnswersFailsWithinTheUrisConnectTimeout) {
  testing::SilentServer server;
  ASSERT_NE(server.port(), 0);
  const std::string name = "postgresql://127.0.0.1:" + std::to_string(server.port()) + "/perf";
  const auto start = Clock::now();
  auto store = OpenHistory(name + "?connect_timeout=2");
  const double seconds = SecondsSince(start);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.error().message.rfind(name + ": cannot connect: ", 0), 0u)
      << store.error().message;
  EXPECT_NE(store.error().message.find("timeout"), std::string::npos) << store.error().message;
  EXPECT_EQ(store.error().message.find('\n'), std::string::npos);
  EXPECT_GE(server.accepted(), 1);
  EXPECT_LT(seconds, 8.0);  // the default is 10 s
}

TEST(HistoryPostgresTimeoutTest, WithoutAnyTimeoutGivenTheDefaultEndsTheWait) {
  ScopedEnv env("PGCONNECT_TIMEOUT", nullptr);
  testing::SilentServer server;
  ASSERT_NE(server.port(), 0);
  const auto start = Clock::now();
  auto store = OpenHistory("postgresql://127.0.0.1:" + std::to_string(server.port()) + "/perf");
  const double seconds = SecondsSince(start);
  ASSERT_FALSE(store.ok());
  EXPECT_NE(store.error().message.find("timeout"), std::string::npos) << store.error().message;
  EXPECT_GE(seconds, 5.0);   // not refused: it waited
  EXPECT_LT(seconds, 40.0);  // 10 s, not libpq's "forever"
}

TEST(HistoryPostgresTimeoutTest, PgconnectTimeoutInTheEnvironmentReplacesTheDefault) {
  ScopedEnv env("PGCONNECT_TIMEOUT", "2");
  testing::SilentServer server;
  ASSERT_NE(server.port(), 0);
  const auto start = Clock::now();
  auto store = OpenHistory("postgresql://127.0.0.1:" + std::to_string(server.port()) + "/perf");
  ASSERT_FALSE(store.ok());
  EXPECT_LT(SecondsSince(start), 8.0);
}

class HistoryPostgresSessionTest : public ::testing::Test {
 protected:
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  void SetUp() override {
    if (server_ == nullptr) server_ = new testing::PostgresServer();
    ASSERT_EQ(server_->error(), "");
    database_ = "s" + std::to_string(++databases_);
    spec_ = server_->CreateDatabase(database_);
    ASSERT_NE(spec_, "");
    ASSERT_TRUE(OpenHistory(spec_).ok());  // the schema
  }

  struct LockedAdd {
    std::string error;  // "" = added
    double seconds = 0;
  };

  // Adds a run through `spec` while psql holds the metrics table (a long
  // migration, a stuck job) for up to 90 s; the holder is cancelled after.
  LockedAdd AddWhileMetricsIsLocked(const std::string& spec) {
    std::thread holder([this] {
      server_->Sql(database_, "BEGIN; LOCK TABLE metrics IN ACCESS EXCLUSIVE MODE; "
                              "SELECT pg_sleep(90); COMMIT;");
    });
    for (int i = 0; i < 200; ++i) {
      if (server_->Sql(database_, "SELECT count(*) FROM pg_locks l JOIN pg_class c ON "
                                  "c.oid = l.relation WHERE c.relname = 'metrics' AND "
                                  "l.mode = 'AccessExclusiveLock' AND l.granted") == "1") {
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    LockedAdd result;
    auto store = OpenHistory(spec);
    if (!store.ok()) {
      result.error = "open: " + store.error().message;
    } else {
      testing::SyntheticRun run;
      const auto start = Clock::now();
      auto added =
          store.value()->AddRun(MakeRunRecord(testing::MakeSyntheticResults(run), "r.json"));
      result.seconds = SecondsSince(start);
      if (!added.ok()) result.error = added.error().message;
    }
    server_->Sql(database_, "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE "
                            "query LIKE '%pg_sleep(90)%' AND pid <> pg_backend_pid()");
    holder.join();
    return result;
  }

  static testing::PostgresServer* server_;
  static int databases_;
  std::string database_;
  std::string spec_;
};

testing::PostgresServer* HistoryPostgresSessionTest::server_ = nullptr;
int HistoryPostgresSessionTest::databases_ = 0;

TEST_F(HistoryPostgresSessionTest, LockTimeoutFromTheUriEndsTheWaitForALockedTable) {
  const LockedAdd add = AddWhileMetricsIsLocked(spec_ + "&options=-c%20lock_timeout%3D1s");
  ASSERT_FALSE(add.error.empty());
  EXPECT_NE(add.error.find("lock timeout"), std::string::npos) << add.error;
  EXPECT_EQ(add.error.rfind("postgresql:///" + database_, 0), 0u) << add.error;
  EXPECT_LT(add.seconds, 15.0);  // the default lock_timeout is 30 s
}

TEST_F(HistoryPostgresSessionTest, LockTimeoutOfTheDatabaseIsKept) {
  server_->Sql(database_, "ALTER DATABASE " + database_ + " SET lock_timeout = '1s'");
  const LockedAdd add = AddWhileMetricsIsLocked(spec_);
  EXPECT_NE(add.error.find("lock timeout"), std::string::npos) << add.error;
  EXPECT_LT(add.seconds, 15.0);  // not replaced by etbench's 30 s
}

// With nothing configured anywhere, etbench's own lock_timeout (30 s) ends
// the wait: without it the add would wait for the holder (90 s) and succeed.
TEST_F(HistoryPostgresSessionTest, WithNothingConfiguredTheDefaultLockTimeoutEndsTheWait) {
  const LockedAdd add = AddWhileMetricsIsLocked(spec_);
  EXPECT_NE(add.error.find("lock timeout"), std::string::npos) << add.error;
  EXPECT_GT(add.seconds, 20.0);
  EXPECT_LT(add.seconds, 80.0);
}

TEST_F(HistoryPostgresSessionTest, ServerThatStopsAnsweringMidSessionFailsOnTheClientsClock) {
  auto store = OpenHistory(spec_ + "&options=-c%20statement_timeout%3D1s");
  ASSERT_TRUE(store.ok()) << store.error().message;
  const std::string pid = server_->Sql(
      "postgres", "SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend' AND datname = '" +
                      database_ + "'");
  ASSERT_NE(pid, "");
  ASSERT_EQ(pid.find('\n'), std::string::npos) << "one session expected: " << pid;
  // The server process stops (as a wedged host or a dead network would):
  // its own statement_timeout cannot fire, only the client's wait can.
  const pid_t backend = static_cast<pid_t>(std::atoi(pid.c_str()));
  ASSERT_EQ(kill(backend, SIGSTOP), 0);
  const auto start = Clock::now();
  auto runs = store.value()->ListRuns({});
  const double seconds = SecondsSince(start);
  auto again = store.value()->ListRuns({});  // the connection is closed: at once
  kill(backend, SIGCONT);
  ASSERT_FALSE(runs.ok());
  EXPECT_NE(runs.error().message.find("no answer from the server within 2 s"), std::string::npos)
      << runs.error().message;
  EXPECT_EQ(runs.error().message.rfind("postgresql:///" + database_, 0), 0u);
  EXPECT_LT(seconds, 15.0);
  ASSERT_FALSE(again.ok());
  EXPECT_LT(SecondsSince(start), seconds + 1.0);
}

// A team's database may default to a stricter isolation; an add relies on
// READ COMMITTED (it reads the metric another add inserted meanwhile) and
// asks for it, so parallel adds of new metrics still all succeed.
TEST_F(HistoryPostgresSessionTest, ParallelAddsSucceedWhenTheDatabaseDefaultsToSerializable) {
  server_->Sql(database_, "ALTER DATABASE " + database_ +
                              " SET default_transaction_isolation = 'serializable'");
  constexpr int kJobs = 8;
  std::vector<std::unique_ptr<HistoryStore>> stores(kJobs);
  for (auto& store : stores) {
    auto opened = OpenHistory(spec_);
    ASSERT_TRUE(opened.ok()) << opened.error().message;
    store = std::move(opened).value();
  }
  std::vector<std::string> errors(kJobs);
  testing::RunTogether(kJobs, [&](int i) {
    testing::SyntheticRun run;
    run.index = i + 1;
    run.extra_operators = 12;
    auto added = stores[i]->AddRun(
        MakeRunRecord(testing::MakeSyntheticResults(run), "r" + std::to_string(i) + ".json"));
    if (!added.ok() || !*added) errors[i] = added.ok() ? "not added" : added.error().message;
  });
  for (int i = 0; i < kJobs; ++i) EXPECT_EQ(errors[i], "") << "job " << i;
  EXPECT_EQ(stores[0]->ListRuns({})->size(), static_cast<std::size_t>(kJobs));
}

TEST_F(HistoryPostgresSessionTest, ReadOnlySessionCannotAddRunsAndSaysSoBeforehand) {
  EXPECT_TRUE(CheckHistoryForAdding(spec_).ok());
  Status s = CheckHistoryForAdding(spec_ + "&options=-c%20default_transaction_read_only%3Don");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("cannot add runs to the history: the session is read-only"),
            std::string::npos)
      << s.error().message;
}

TEST_F(HistoryPostgresSessionTest, RoleWithoutInsertCannotAddRunsAndSaysSoBeforehand) {
  server_->Sql(database_, "CREATE ROLE reader LOGIN; GRANT SELECT ON ALL TABLES IN SCHEMA public "
                          "TO reader");
  const std::string as_reader = spec_.substr(0, spec_.find("&user=")) + "&user=reader";
  ASSERT_TRUE(OpenHistory(as_reader).ok());  // it may read
  Status s = CheckHistoryForAdding(as_reader);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("this role may not insert"), std::string::npos)
      << s.error().message;
}

}  // namespace
}  // namespace etbench::history
