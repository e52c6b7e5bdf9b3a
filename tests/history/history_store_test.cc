// The history store against both real databases: SQLite in a temporary
// file, and PostgreSQL 15 started by the test itself (postgres_server.h).
#include "etbench/history/history_store.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <set>
#include <vector>

#include "history_test_util.h"
#include "postgres_server.h"
#include "support/test_support.h"

namespace etbench::history {
namespace {

using testing::MakeSyntheticResults;
using testing::RunTogether;
using testing::SyntheticRun;

enum class Backend { kSqlite, kPostgres };

class HistoryStoreTest : public ::testing::TestWithParam<Backend> {
 protected:
  // The server starts with the first PostgreSQL test of the process (ctest
  // runs each test in its own) and stops after the last.
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }

  // A fresh, empty history on the parameter's database.
  std::string FreshSpec() {
    if (GetParam() == Backend::kSqlite) return dir_.File("h" + std::to_string(++count_) + ".db");
    if (server_ == nullptr) server_ = new testing::PostgresServer();
    EXPECT_EQ(server_->error(), "");
    return server_->CreateDatabase("t" + std::to_string(++databases_));
  }

  std::unique_ptr<HistoryStore> Open() {
    auto store = OpenHistory(FreshSpec());
    EXPECT_TRUE(store.ok()) << (store.ok() ? "" : store.error().message);
    return store.ok() ? std::move(store).value() : nullptr;
  }

  static RunRecord Record(int index, double conv = 1.0, const std::string& device = "dev1") {
    SyntheticRun run;
    run.index = index;
    run.conv_factor = conv;
    run.device = device;
    return MakeRunRecord(MakeSyntheticResults(run), "r" + std::to_string(index) + ".json");
  }

  testing::TempDir dir_;
  int count_ = 0;
  static testing::PostgresServer* server_;
  static int databases_;
};

testing::PostgresServer* HistoryStoreTest::server_ = nullptr;
int HistoryStoreTest::databases_ = 0;

TEST_P(HistoryStoreTest, NewDatabaseHasTheCurrentSchemaVersion) {
  auto store = Open();
  ASSERT_NE(store, nullptr);
  auto version = store->SchemaVersion();
  ASSERT_TRUE(version.ok());
  EXPECT_EQ(*version, kHistorySchemaVersion);
  EXPECT_STREQ(store->Dialect(), GetParam() == Backend::kSqlite ? "sqlite" : "postgresql");
}

TEST_P(HistoryStoreTest, AddedRunIsListedWithItsMetadata) {
  auto store = Open();
  ASSERT_NE(store, nullptr);
  const RunRecord record = Record(3);
  auto added = store->AddRun(record);
  ASSERT_TRUE(added.ok()) << added.error().message;
  EXPECT_TRUE(*added);
  auto runs = store->ListRuns({});
  ASSERT_TRUE(runs.ok());
  ASSERT_EQ(runs->size(), 1u);
  const RunSummary& r = runs->front();
  EXPECT_EQ(r.run_id, record.run_id);
  EXPECT_EQ(r.suite, "default");
  EXPECT_EQ(r.device, "dev1");
  EXPECT_EQ(r.host, "host-a");
  EXPECT_EQ(r.boot_id, "boot-1");
  EXPECT_EQ(r.git_commit, "c3");
  EXPECT_EQ(r.branch, "main");
  EXPECT_EQ(r.time, "2026-01-01T00:03:00Z");
  EXPECT_EQ(r.status, "ok");
  EXPECT_EQ(r.source, "r3.json");
  EXPECT_EQ(r.labels.at("seed"), "1");
  EXPECT_EQ(r.metric_count, record.metrics.metrics.size());
}

TEST_P(HistoryStoreTest, AddingTheSameResultsTwiceChangesNothing) {
  auto store = Open();
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(*store->AddRun(Record(1)));
  auto again = store->AddRun(Record(1));
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_FALSE(*again);
  EXPECT_EQ(store->ListRuns({})->size(), 1u);
  ASSERT_TRUE(*store->AddRun(Record(2)));
  EXPECT_EQ(store->ListRuns({})->size(), 2u);
}

TEST_P(HistoryStoreTest, SamplesAndTheirGroupsRoundTripExactly) {
  auto store = Open();
  ASSERT_NE(store, nullptr);
  const RunRecord record = Record(1);
  ASSERT_TRUE(*store->AddRun(record));
  auto window = store->Load({}, "*convolution*", /*with_samples=*/true);
  ASSERT_TRUE(window.ok()) << window.error().message;
  ASSERT_EQ(window->metrics.size(), 1u);
  const MetricHistory& h = window->metrics.front();
  EXPECT_EQ(h.label, "net/Execute/native_call_convolution.out#0");
  EXPECT_EQ(h.metric.unit, "ms");
  EXPECT_TRUE(h.metric.is_kernel_or_delegate_call);
  ASSERT_EQ(h.points.size(), 1u);
  const Metric* original = nullptr;
  for (const Metric& m : record.metrics.metrics) {
    if (m.key == h.metric.key) original = &m;
  }
  ASSERT_NE(original, nullptr);
  EXPECT_EQ(h.points[0].samples, original->samples);  // bit-exact
  EXPECT_EQ(h.points[0].group_sizes, original->group_sizes);
  EXPECT_EQ(h.points[0].group_sizes, (std::vector<uint64_t>{10, 10, 10}));
  EXPECT_EQ(h.points[0].n, 30u);
  EXPECT_NEAR(h.points[0].p50, 1.0, 0.03);
  EXPECT_LT(h.points[0].p10, h.points[0].p50);
  EXPECT_GT(h.points[0].p10, 0.95);
}

TEST_P(HistoryStoreTest, LoadSelectsDeviceTimeAndLastRunsInTimeOrder) {
  auto store = Open();
  ASSERT_NE(store, nullptr);
  // Added out of time order, on two devices.
  for (int i : {5, 1, 3, 2, 4}) ASSERT_TRUE(*store->AddRun(Record(i)));
  ASSERT_TRUE(*store->AddRun(Record(9, 1.0, "dev2")));
  RunFilter filter;
  filter.device = "dev1";
  filter.last = 3;
  auto window = store->Load(filter, "net/Execute/Method::execute*", false);
  ASSERT_TRUE(window.ok()) << window.error().message;
  ASSERT_EQ(window->runs.size(), 3u);
  EXPECT_EQ(window->runs[0].git_commit, "c3");
  EXPECT_EQ(window->runs[2].git_commit, "c5");
  ASSERT_EQ(window->metrics.size(), 1u);
  ASSERT_EQ(window->metrics[0].points.size(), 3u);
  EXPECT_EQ(window->metrics[0].points[0].run, window->runs[0].id);
  EXPECT_TRUE(window->metrics[0].points[0].samples.empty());  // not asked for

  RunFilter since;
  since.since = "2026-01-01T00:04:00Z";
  EXPECT_EQ(store->ListRuns(since)->size(), 3u);  // 4, 5 and dev2's 9
}

TEST_P(HistoryStoreTest, AcknowledgingTwiceKeepsOneAcknowledgement) {
  auto store = Open();
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->Acknowledge("cp-1", "expected").ok());
  ASSERT_TRUE(store->Acknowledge("cp-1", "again").ok());
  auto ids = store->Acknowledged();
  ASSERT_TRUE(ids.ok());
  EXPECT_EQ(*ids, (std::set<std::string>{"cp-1"}));
}

constexpr int kJobs = 8;

TEST_P(HistoryStoreTest, ParallelFirstUsesOfAnEmptyDatabaseAllSucceed) {
  const std::string spec = FreshSpec();  // no tables yet
  std::vector<std::string> errors(kJobs);
  RunTogether(kJobs, [&](int i) {
    auto store = OpenHistory(spec);
    if (!store.ok()) {
      errors[i] = "open: " + store.error().message;
      return;
    }
    auto added = store.value()->AddRun(Record(i + 1));
    if (!added.ok() || !*added) errors[i] = "add: " + (added.ok() ? "not added" : added.error().message);
  });
  for (int i = 0; i < kJobs; ++i) EXPECT_EQ(errors[i], "") << "job " << i;
  auto store = OpenHistory(spec);
  ASSERT_TRUE(store.ok()) << store.error().message;
  EXPECT_EQ(*store.value()->SchemaVersion(), kHistorySchemaVersion);
  EXPECT_EQ(store.value()->ListRuns({})->size(), static_cast<std::size_t>(kJobs));
}

TEST_P(HistoryStoreTest, ParallelAddsOfNewMetricsAllSucceedAndStoreEachRunOnce) {
  const std::string spec = FreshSpec();
  ASSERT_TRUE(OpenHistory(spec).ok());  // the schema exists; every metric is new to it
  std::vector<RunRecord> records;
  for (int i = 0; i < kJobs; ++i) {
    SyntheticRun run;
    run.index = i + 1;
    run.extra_operators = 12;  // 16 metrics of one model, new to every job
    records.push_back(MakeRunRecord(MakeSyntheticResults(run), "r" + std::to_string(i) + ".json"));
  }
  std::vector<std::unique_ptr<HistoryStore>> stores(kJobs);
  for (auto& store : stores) {
    auto opened = OpenHistory(spec);
    ASSERT_TRUE(opened.ok()) << opened.error().message;
    store = std::move(opened).value();
  }
  std::vector<std::string> errors(kJobs);
  RunTogether(kJobs, [&](int i) {
    auto added = stores[i]->AddRun(records[i]);
    if (!added.ok() || !*added) errors[i] = added.ok() ? "not added" : added.error().message;
  });
  for (int i = 0; i < kJobs; ++i) EXPECT_EQ(errors[i], "") << "job " << i;

  auto window = stores[0]->Load({}, "*", /*with_samples=*/false);
  ASSERT_TRUE(window.ok()) << window.error().message;
  std::set<std::string> run_ids;
  for (const RunSummary& r : window->runs) run_ids.insert(r.run_id);
  EXPECT_EQ(window->runs.size(), static_cast<std::size_t>(kJobs));
  EXPECT_EQ(run_ids.size(), static_cast<std::size_t>(kJobs));
  // Each metric stored once, with one point from every run.
  std::set<std::string> labels;
  for (const MetricHistory& h : window->metrics) {
    labels.insert(h.label);
    EXPECT_EQ(h.points.size(), static_cast<std::size_t>(kJobs)) << h.label;
  }
  EXPECT_EQ(labels.size(), window->metrics.size());
  std::size_t with_samples = 0;
  for (const Metric& m : records[0].metrics.metrics) with_samples += !m.samples.empty();
  EXPECT_EQ(window->metrics.size(), with_samples);
}

TEST_P(HistoryStoreTest, TheSameRunAddedByParallelJobsIsStoredOnce) {
  const std::string spec = FreshSpec();
  ASSERT_TRUE(OpenHistory(spec).ok());
  std::vector<std::unique_ptr<HistoryStore>> stores(kJobs);
  for (auto& store : stores) {
    auto opened = OpenHistory(spec);
    ASSERT_TRUE(opened.ok()) << opened.error().message;
    store = std::move(opened).value();
  }
  const RunRecord record = Record(7);
  std::vector<int> outcome(kJobs, -1);  // 1 added, 0 already stored, -1 error
  std::vector<std::string> errors(kJobs);
  RunTogether(kJobs, [&](int i) {
    auto added = stores[i]->AddRun(record);
    if (added.ok()) {
      outcome[i] = *added ? 1 : 0;
    } else {
      errors[i] = added.error().message;
    }
  });
  for (int i = 0; i < kJobs; ++i) EXPECT_EQ(errors[i], "") << "job " << i;
  EXPECT_EQ(std::count(outcome.begin(), outcome.end(), 1), 1);
  EXPECT_EQ(std::count(outcome.begin(), outcome.end(), 0), kJobs - 1);
  EXPECT_EQ(stores[0]->ListRuns({})->size(), 1u);
}

TEST_P(HistoryStoreTest, DamagedSchemaVersionIsOneLineNamingTheDatabaseAndTheValue) {
  const std::string spec = FreshSpec();
  ASSERT_TRUE(OpenHistory(spec).ok());
  if (GetParam() == Backend::kSqlite) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(spec.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "UPDATE schema_version SET version = -5", nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(db);
  } else {
    server_->Sql("t" + std::to_string(databases_), "UPDATE schema_version SET version = -5");
  }
  auto store = OpenHistory(spec);
  ASSERT_FALSE(store.ok());
  const std::string& message = store.error().message;
  EXPECT_NE(message.find("the history database's schema version is '-5', not a version number"),
            std::string::npos)
      << message;
  EXPECT_EQ(message.rfind(GetParam() == Backend::kSqlite ? spec + ": "
                                                         : "postgresql:///t" +
                                                               std::to_string(databases_),
                          0),
            0u)
      << message;
  EXPECT_EQ(message.find('\n'), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Databases, HistoryStoreTest,
                         ::testing::Values(Backend::kSqlite, Backend::kPostgres),
                         [](const ::testing::TestParamInfo<Backend>& param_info) {
                           return param_info.param == Backend::kSqlite ? "Sqlite" : "Postgres";
                         });

// An SQLite file written by a version-1 etbench (before acknowledgements).
TEST(HistorySqliteMigrationTest, Version1DatabaseIsMigratedOnOpen) {
  testing::TempDir dir;
  const std::string path = dir.File("old.db");
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  const char* v1 =
      "CREATE TABLE schema_version (version INTEGER NOT NULL);"
      "INSERT INTO schema_version VALUES (1);"
      "CREATE TABLE runs (id INTEGER PRIMARY KEY, run_id TEXT NOT NULL UNIQUE, suite TEXT NOT "
      "NULL, device TEXT NOT NULL, host TEXT NOT NULL, boot_id TEXT NOT NULL, git_commit TEXT "
      "NOT NULL, branch TEXT NOT NULL, time TEXT NOT NULL, labels TEXT NOT NULL, context TEXT NOT "
      "NULL, status TEXT NOT NULL, source TEXT NOT NULL, added TEXT NOT NULL);"
      "CREATE TABLE run_models (run BIGINT NOT NULL, name TEXT NOT NULL, status TEXT NOT NULL, "
      "model_sha256 TEXT NOT NULL, PRIMARY KEY (run, name));"
      "CREATE TABLE metrics (id INTEGER PRIMARY KEY, identity TEXT NOT NULL UNIQUE, label TEXT "
      "NOT NULL, model TEXT NOT NULL, definition TEXT NOT NULL);"
      "CREATE TABLE measurements (run BIGINT NOT NULL, metric BIGINT NOT NULL, p50 DOUBLE "
      "PRECISION NOT NULL, p10 DOUBLE PRECISION NOT NULL, n INTEGER NOT NULL, samples TEXT NOT NULL, group_sizes TEXT NOT NULL, "
      "session_sizes TEXT NOT NULL, PRIMARY KEY (run, metric));";
  ASSERT_EQ(sqlite3_exec(db, v1, nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);

  auto store = OpenHistory(path);
  ASSERT_TRUE(store.ok()) << store.error().message;
  EXPECT_EQ(*store.value()->SchemaVersion(), 3);
  EXPECT_TRUE(store.value()->Acknowledge("cp", "").ok());  // the version-2 table
  store.value().reset();
  // Version 3: the covering index detection reads instead of the rows.
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  int indexes = 0;
  ASSERT_EQ(sqlite3_exec(
                db,
                "SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'measurements_statistics'",
                [](void* count, int, char**, char**) {
                  ++*static_cast<int*>(count);
                  return 0;
                },
                &indexes, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  EXPECT_EQ(indexes, 1);
}

TEST(HistorySqliteMigrationTest, NewerSchemaIsRefusedWithOneLine) {
  testing::TempDir dir;
  const std::string path = dir.File("new.db");
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db,
                         "CREATE TABLE schema_version (version INTEGER NOT NULL);"
                         "INSERT INTO schema_version VALUES (99);",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  auto store = OpenHistory(path);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.error().message,
            path + ": the history database has schema version 99; this etbench reads up to 3");
}

// Values no etbench writes: a one-line error naming the file and the value,
// never an exception ("internal error: stoi").
TEST(HistorySqliteMigrationTest, SchemaVersionThatIsNoVersionNumberIsRefusedWithOneLine) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"'abc'", "abc"}, {"0", "0"}, {"2.5", "2.5"}, {"''", ""},
      {"'1' || char(10) || '2'", "1?2"}, {"99999999999", "99999999999"}};
  int n = 0;
  for (const auto& [sql, shown] : cases) {
    testing::TempDir dir;
    const std::string path = dir.File("damaged" + std::to_string(++n) + ".db");
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    const std::string script = "CREATE TABLE schema_version (version INTEGER NOT NULL);"
                               "INSERT INTO schema_version VALUES (" + sql + ");";
    ASSERT_EQ(sqlite3_exec(db, script.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sql;
    sqlite3_close(db);
    auto store = OpenHistory(path);
    ASSERT_FALSE(store.ok()) << sql;
    EXPECT_EQ(store.error().code, ErrorCode::kInvalidInput);
    EXPECT_EQ(store.error().message,
              path + ": the history database's schema version is '" + shown +
                  "', not a version number (1 or more): its table schema_version is damaged");
  }
}

// A file this process may not write: SQLite opens it read-only without a
// word; the check before a suite runs must still say so. As root, where
// file modes do not stop writes, the file is made immutable (chattr +i).
TEST(HistorySqliteMigrationTest, FileThatCannotBeWrittenFailsTheCheckBeforeAnyRun) {
  testing::TempDir dir;
  const std::string path = dir.File("ro.db");
  ASSERT_TRUE(OpenHistory(path).ok());
  const bool root = geteuid() == 0;
  if (root) {
    if (std::system(("chattr +i '" + path + "' 2>/dev/null").c_str()) != 0) {
      GTEST_SKIP() << "chattr +i is not supported here";
    }
  } else {
    ASSERT_EQ(chmod(path.c_str(), 0444), 0);
  }
  auto store = OpenHistory(path);  // reading works
  Status check = CheckHistoryForAdding(path);
  if (root) (void)std::system(("chattr -i '" + path + "'").c_str());
  ASSERT_TRUE(store.ok()) << store.error().message;
  ASSERT_FALSE(check.ok());
  EXPECT_EQ(check.error().message.rfind(path + ": cannot add runs to the history: ", 0), 0u)
      << check.error().message;
  EXPECT_NE(check.error().message.find("readonly"), std::string::npos) << check.error().message;
}

TEST(HistorySqliteMigrationTest, FileThatIsNotADatabaseIsAnError) {
  testing::TempDir dir;
  const std::string path = dir.File("notes.txt");
  testing::WriteTextFile(path, "these are not the tables you are looking for, repeated. " +
                                   std::string(2000, 'x'));
  auto store = OpenHistory(path);
  ASSERT_FALSE(store.ok());
  EXPECT_NE(store.error().message.find(path + ": "), std::string::npos);
  EXPECT_NE(store.error().message.find("not a database"), std::string::npos);
  EXPECT_EQ(store.error().message.find('\n'), std::string::npos);
}

TEST(HistoryPostgresTest, UnreachableServerIsAnError) {
  auto store = OpenHistory("postgresql:///nope?host=/nonexistent-etbench-dir&connect_timeout=2");
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.error().message.rfind(
                "postgresql:///nope?host=/nonexistent-etbench-dir: cannot connect: ", 0),
            0u)
      << store.error().message;
  EXPECT_EQ(store.error().message.find('\n'), std::string::npos);
}

}  // namespace
}  // namespace etbench::history
