// The in-memory HistoryStore (tests/support/memory_history_store.h) answers
// as the real SQLite store does: the tests moved to it rely on that.
#include "support/memory_history_store.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "history_test_util.h"
#include "support/test_support.h"

namespace etbench::history {
namespace {

using testing::MakeSyntheticResults;
using testing::SyntheticRun;

RunRecord Record(int index, const std::string& device, double conv,
                 int extra_operators) {
  SyntheticRun run;
  run.index = index;
  run.device = device;
  run.conv_factor = conv;
  run.extra_operators = extra_operators;
  run.seed = static_cast<uint64_t>(index) + 7;
  return MakeRunRecord(MakeSyntheticResults(run),
                       "r" + std::to_string(index) + ".json");
}

void ExpectSameRuns(const std::vector<RunSummary>& real,
                    const std::vector<RunSummary>& fake) {
  ASSERT_EQ(real.size(), fake.size());
  for (std::size_t i = 0; i < real.size(); ++i) {
    SCOPED_TRACE("run " + std::to_string(i));
    EXPECT_EQ(real[i].id, fake[i].id);
    EXPECT_EQ(real[i].run_id, fake[i].run_id);
    EXPECT_EQ(real[i].suite, fake[i].suite);
    EXPECT_EQ(real[i].device, fake[i].device);
    EXPECT_EQ(real[i].host, fake[i].host);
    EXPECT_EQ(real[i].boot_id, fake[i].boot_id);
    EXPECT_EQ(real[i].git_commit, fake[i].git_commit);
    EXPECT_EQ(real[i].branch, fake[i].branch);
    EXPECT_EQ(real[i].time, fake[i].time);
    EXPECT_EQ(real[i].labels, fake[i].labels);
    EXPECT_EQ(real[i].status, fake[i].status);
    EXPECT_EQ(real[i].source, fake[i].source);
    EXPECT_EQ(real[i].context, fake[i].context);
    EXPECT_EQ(real[i].metric_count, fake[i].metric_count);
  }
}

void ExpectSameWindow(const HistoryWindow& real, const HistoryWindow& fake) {
  ExpectSameRuns(real.runs, fake.runs);
  ASSERT_EQ(real.metrics.size(), fake.metrics.size());
  for (std::size_t m = 0; m < real.metrics.size(); ++m) {
    const MetricHistory& a = real.metrics[m];
    const MetricHistory& b = fake.metrics[m];
    SCOPED_TRACE(a.label);
    EXPECT_EQ(a.label, b.label);
    EXPECT_EQ(MetricSetToJson(MetricSet{{}, {a.metric}}),
              MetricSetToJson(MetricSet{{}, {b.metric}}));
    ASSERT_EQ(a.points.size(), b.points.size());
    for (std::size_t p = 0; p < a.points.size(); ++p) {
      EXPECT_EQ(a.points[p].run, b.points[p].run);
      EXPECT_EQ(a.points[p].p50, b.points[p].p50);  // bit-exact
      EXPECT_EQ(a.points[p].p10, b.points[p].p10);
      EXPECT_EQ(a.points[p].n, b.points[p].n);
      EXPECT_EQ(a.points[p].samples, b.points[p].samples);
      EXPECT_EQ(a.points[p].group_sizes, b.points[p].group_sizes);
      EXPECT_EQ(a.points[p].session_sizes, b.points[p].session_sizes);
    }
  }
}

TEST(HistoryMemoryStoreTest, AnswersAsTheSqliteStoreDoes) {
  testing::TempDir dir;
  auto sqlite = OpenHistory(dir.File("h.db"));
  ASSERT_TRUE(sqlite.ok()) << sqlite.error().message;
  HistoryStore& real = *sqlite.value();
  testing::MemoryHistoryStore fake;
  // Out of time order, two devices, a re-added run, and runs that bring new
  // metrics (extra operators) after the first: the series' numbering, the
  // run order and the idempotence all show.
  const std::vector<RunRecord> records = {
      Record(5, "dev1", 1.0, 0), Record(1, "dev1", 1.0, 0),
      Record(3, "dev2", 1.1, 2), Record(2, "dev1", 1.2, 3),
      Record(5, "dev1", 1.0, 0), Record(4, "dev1", 1.0, 1)};
  for (const RunRecord& r : records) {
    auto a = real.AddRun(r);
    auto b = fake.AddRun(r);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(*a, *b);
  }
  EXPECT_EQ(fake.runs_added(), 5);
  RunFilter dev1;
  dev1.device = "dev1";
  RunFilter last_two;
  last_two.last = 2;
  RunFilter since;
  since.since = "2026-01-01T00:03:00Z";
  for (const RunFilter& filter : {RunFilter{}, dev1, last_two, since}) {
    ExpectSameRuns(real.ListRuns(filter).value(),
                   fake.ListRuns(filter).value());
    for (const char* glob :
         {"*", "net/Execute/native_call_op*", "*Method::execute*", "none*"}) {
      for (bool with_samples : {false, true}) {
        SCOPED_TRACE(std::string(glob) + (with_samples ? " with samples" : ""));
        ExpectSameWindow(real.Load(filter, glob, with_samples).value(),
                         fake.Load(filter, glob, with_samples).value());
      }
    }
  }
  ASSERT_TRUE(real.Acknowledge("cp-1", "a").ok());
  ASSERT_TRUE(fake.Acknowledge("cp-1", "a").ok());
  ASSERT_TRUE(fake.Acknowledge("cp-1", "again").ok());
  EXPECT_EQ(real.Acknowledged().value(), fake.Acknowledged().value());
  EXPECT_EQ(real.SchemaVersion().value(), fake.SchemaVersion().value());
}

TEST(HistoryMemoryStoreTest, ARefusedWriteChangesNothing) {
  testing::MemoryHistoryStore fake;
  fake.RefuseWrites(IoError("memory: read-only"));
  EXPECT_EQ(fake.CheckWritable().error().message, "memory: read-only");
  EXPECT_FALSE(fake.AddRun(Record(1, "dev1", 1.0, 0)).ok());
  EXPECT_TRUE(fake.ListRuns({}).value().empty());
}

}  // namespace
}  // namespace etbench::history
