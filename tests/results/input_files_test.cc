// One detector for every input file kind (results/input_files.h).
#include "etbench/results/input_files.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "etbench/compare/baseline_store.h"
#include "etbench/results/gbench_json.h"
#include "support/memory_disk.h"
#include "support/test_support.h"

namespace etbench::results {
namespace {

using ::testing::HasSubstr;

const char kGbench[] = R"({"context": {"executable": "./bm", "host_name": "h"},
  "benchmarks": [
    {"name": "BM_A", "run_name": "BM_A", "run_type": "iteration", "repetition_index": 0,
     "iterations": 10, "real_time": 2.0, "cpu_time": 1.0, "time_unit": "us"},
    {"name": "BM_A", "run_name": "BM_A", "run_type": "iteration", "repetition_index": 1,
     "iterations": 10, "real_time": 3.0, "cpu_time": 1.0, "time_unit": "us"}]})";

TEST(ResultsInputFilesTest, KindsAreToldApartByContent) {
  EXPECT_EQ(*DetectInputFileKind(R"({"metadata": {}, "models": []})", "r"), InputFileKind::kResults);
  EXPECT_EQ(*DetectInputFileKind(R"({"format": "etbench-baseline"})", "b"), InputFileKind::kBaseline);
  EXPECT_EQ(*DetectInputFileKind(kGbench, "g"), InputFileKind::kGoogleBenchmark);
  EXPECT_EQ(*DetectInputFileKind(R"({"outcome": "pass", "metrics": []})", "c"),
            InputFileKind::kComparison);
  auto other = DetectInputFileKind(R"({"benchmarks": []})", "o.json");
  ASSERT_FALSE(other.ok());
  EXPECT_THAT(other.error().message, HasSubstr("o.json: not a results file"));
  EXPECT_THAT(DetectInputFileKind("[1,", "s.json").error().message,
              HasSubstr("s.json: not valid JSON"));
}

TEST(ResultsInputFilesTest, AGoogleBenchmarkFileIsARunAndAMetricSet) {
  testing::TempDir dir;
  testing::WriteTextFile(dir.File("g.json"), kGbench);
  auto run = ReadRunFile(dir.File("g.json"));
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_EQ(run->metadata.runner, "gbench");
  auto set = LoadMetricSetFile(dir.File("g.json"));
  ASSERT_TRUE(set.ok()) << set.error().message;
  ASSERT_EQ(set->metrics.size(), 1u);
  const Metric& m = set->metrics[0];
  EXPECT_EQ(m.key.model, "bm");
  EXPECT_EQ(m.key.kind, MetricKind::kBenchmark);
  EXPECT_EQ(m.key.name, "BM_A");
  EXPECT_EQ(m.unit, "us");
  EXPECT_TRUE(m.end_to_end);
  EXPECT_EQ(m.samples, (std::vector<double>{2.0, 3.0}));
  EXPECT_EQ(ContextValue(*set, "unit"), "us");
  EXPECT_EQ(ContextValue(*set, "device"), "h");
}

TEST(ResultsInputFilesTest, InputFilesAreReadThroughTheDiskTheyAreGiven) {
  testing::MemoryDisk disk;
  disk.AddFile("/mem/g.json", kGbench);
  auto run = ReadRunFile("/mem/g.json", disk);
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_EQ(run->metadata.runner, "gbench");
  auto set = LoadMetricSetFile("/mem/g.json", disk);
  ASSERT_TRUE(set.ok()) << set.error().message;
  EXPECT_EQ(set->metrics.size(), 1u);
  EXPECT_EQ(disk.reads(), 2);
  disk.AddSpecial("/mem/fifo.json", "is a FIFO");
  EXPECT_EQ(LoadMetricSetFile("/mem/fifo.json", disk).error().message,
            "/mem/fifo.json: is a FIFO, not a regular file");
}

TEST(ResultsInputFilesTest, BaselinesAreMetricSetsButNotRunsAndComparisonsAreNeither) {
  testing::TempDir dir;
  auto gbench_set = GbenchJsonToResults(kGbench, "g.json");
  ASSERT_TRUE(gbench_set.ok());
  Baseline baseline;
  baseline.name = "b";
  baseline.metrics = ToMetricSet(*gbench_set);
  ASSERT_TRUE(SaveBaseline(dir.File("b.json"), baseline, false).ok());
  auto set = LoadMetricSetFile(dir.File("b.json"));
  ASSERT_TRUE(set.ok()) << set.error().message;
  EXPECT_EQ(set->metrics.size(), 1u);
  auto run = ReadRunFile(dir.File("b.json"));
  ASSERT_FALSE(run.ok());
  EXPECT_THAT(run.error().message, HasSubstr("b.json: a baseline, not a run"));

  testing::WriteTextFile(dir.File("c.json"), R"({"outcome": "pass", "metrics": []})");
  EXPECT_THAT(LoadMetricSetFile(dir.File("c.json")).error().message,
              HasSubstr("a comparison file holds no samples"));
  EXPECT_FALSE(LoadMetricSetFile(dir.File("missing.json")).ok());
}

}  // namespace
}  // namespace etbench::results
