// Google Benchmark JSON read as a run (results/gbench_json.h).
#include "etbench/results/gbench_json.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace etbench::results {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// What Google Benchmark 1.8 writes with --benchmark_repetitions=3 (context
// trimmed of caches and load_avg): iterations, then the aggregates.
const char kThreeRepetitions[] = R"({
  "context": {
    "date": "2026-11-26T23:40:01+01:00", "host_name": "ci-runner-7",
    "executable": "/src/build-new/benchmarks/inspector/inspector_bench",
    "num_cpus": 2, "mhz_per_cpu": 2400, "cpu_scaling_enabled": false,
    "library_version": "v1.8.3", "library_build_type": "release", "json_schema_version": 1
  },
  "benchmarks": [
    {"name": "BM_A", "family_index": 0, "per_family_instance_index": 0, "run_name": "BM_A",
     "run_type": "iteration", "repetitions": 3, "repetition_index": 0, "threads": 1,
     "iterations": 100, "real_time": 1000, "cpu_time": 900, "time_unit": "ns"},
    {"name": "BM_A", "family_index": 0, "per_family_instance_index": 0, "run_name": "BM_A",
     "run_type": "iteration", "repetitions": 3, "repetition_index": 1, "threads": 1,
     "iterations": 100, "real_time": 1100, "cpu_time": 950, "time_unit": "ns"},
    {"name": "BM_A", "family_index": 0, "per_family_instance_index": 0, "run_name": "BM_A",
     "run_type": "iteration", "repetitions": 3, "repetition_index": 2, "threads": 1,
     "iterations": 100, "real_time": 1200, "cpu_time": 1000, "time_unit": "ns"},
    {"name": "BM_A_mean", "family_index": 0, "per_family_instance_index": 0, "run_name": "BM_A",
     "run_type": "aggregate", "repetitions": 3, "threads": 1, "aggregate_name": "mean",
     "aggregate_unit": "time", "iterations": 3, "real_time": 1100, "cpu_time": 950,
     "time_unit": "ns"},
    {"name": "BM_A_cv", "family_index": 0, "per_family_instance_index": 0, "run_name": "BM_A",
     "run_type": "aggregate", "repetitions": 3, "threads": 1, "aggregate_name": "cv",
     "aggregate_unit": "percentage", "iterations": 3, "real_time": 0.09, "cpu_time": 0.05,
     "time_unit": "ns"}
  ]
})";

TEST(ResultsGbenchJsonTest, RepetitionsBecomeSamplesOfOneModelNamedAfterTheBinary) {
  auto run = GbenchJsonToResults(kThreeRepetitions, "a.json");
  ASSERT_TRUE(run.ok()) << run.error().message;
  ASSERT_EQ(run->models.size(), 1u);
  const ModelResult& model = run->models[0];
  EXPECT_EQ(model.name, "inspector_bench");
  EXPECT_EQ(model.unit, "ns");
  ASSERT_EQ(model.benchmarks.size(), 1u);
  EXPECT_EQ(model.benchmarks[0].name, "BM_A");
  EXPECT_THAT(model.benchmarks[0].perf_data.raw, ElementsAre(1000, 1100, 1200));
  EXPECT_THAT(model.benchmarks[0].iterations, ElementsAre(100, 100, 100));
  const ResultsMetadata& m = run->metadata;
  EXPECT_EQ(m.suite, "inspector_bench");
  EXPECT_EQ(m.runner, "gbench");
  EXPECT_EQ(m.runner_version, "google-benchmark v1.8.3");
  EXPECT_EQ(m.device, "ci-runner-7");
  EXPECT_EQ(m.date, "2026-11-26T22:40:01Z");
  EXPECT_EQ(m.repetitions, 3);
  EXPECT_EQ(m.labels.at("gbench.num_cpus"), "2");
  EXPECT_EQ(m.labels.at("gbench.cpu_scaling_enabled"), "false");
  EXPECT_EQ(m.labels.at("gbench.metric"), "real_time");

  auto cpu = GbenchJsonToResults(kThreeRepetitions, "a.json", "cpu_time");
  ASSERT_TRUE(cpu.ok());
  EXPECT_THAT(cpu->models[0].benchmarks[0].perf_data.raw, ElementsAre(900, 950, 1000));
}

TEST(ResultsGbenchJsonTest, MixedTimeUnitsAreConvertedToNanoseconds) {
  auto run = GbenchJsonToResults(R"({"context": {}, "benchmarks": [
    {"name": "BM_Fast", "run_type": "iteration", "real_time": 250, "cpu_time": 1, "time_unit": "ns"},
    {"name": "BM_Slow", "run_type": "iteration", "real_time": 1.5, "cpu_time": 1, "time_unit": "ms"}]})",
                                 "m.json");
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_EQ(run->metadata.unit, "ns");
  EXPECT_EQ(run->models[0].name, "benchmarks");  // no executable in the context
  EXPECT_THAT(run->models[0].benchmarks[1].perf_data.raw, ElementsAre(1.5e6));
}

TEST(ResultsGbenchJsonTest, AggregatesOnlyIsARefusalThatSaysHowToRerun) {
  auto run = GbenchJsonToResults(R"({"context": {}, "benchmarks": [
    {"name": "BM_A_mean", "run_name": "BM_A", "run_type": "aggregate", "aggregate_name": "mean",
     "real_time": 5, "cpu_time": 5, "time_unit": "ns"}]})",
                                 "agg.json");
  ASSERT_FALSE(run.ok());
  EXPECT_THAT(run.error().message, HasSubstr("agg.json: a Google Benchmark file without repetitions"));
  EXPECT_THAT(run.error().message, HasSubstr("--benchmark_report_aggregates_only"));
  EXPECT_EQ(run.error().code, ErrorCode::kInvalidInput);
}

TEST(ResultsGbenchJsonTest, DatesWithAnOffsetBecomeUtcAndOthersAreDropped) {
  EXPECT_EQ(GbenchDateToUtc("2026-11-26T23:40:01+00:00"), "2026-11-26T23:40:01Z");
  EXPECT_EQ(GbenchDateToUtc("2026-01-01T00:30:00+01:00"), "2025-12-31T23:30:00Z");
  EXPECT_EQ(GbenchDateToUtc("2024-02-28T22:00:00-05:30"), "2024-02-29T03:30:00Z");
  EXPECT_EQ(GbenchDateToUtc("2019-05-03 16:39:35"), "");  // pre-2019 format: no zone
  EXPECT_EQ(GbenchDateToUtc("2026-13-01T00:00:00+00:00"), "");
  EXPECT_EQ(GbenchDateToUtc("2026-11-26T23:40:01+00:00trailing"), "");
}

}  // namespace
}  // namespace etbench::results
