#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "etbench/harness/orchestrator.h"
#include "etbench/harness/runner.h"
#include "harness_test_util.h"

namespace etbench::harness {
namespace {

using etbench::testing::TempDir;
using etbench::testing::TestDeps;
using etbench::testing::WriteScript;
using etbench::testing::WriteTextFile;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Google Benchmark 1.7 output for two benchmarks x 3 repetitions, with the
// aggregates it adds.
const char kGbenchJson[] = R"({
  "context": {"date": "x", "library_build_type": "release"},
  "benchmarks": [
    {"name": "BM_A", "run_name": "BM_A", "run_type": "iteration", "repetitions": 3,
     "repetition_index": 0, "iterations": 100, "real_time": 1000, "cpu_time": 900, "time_unit": "ns"},
    {"name": "BM_A", "run_name": "BM_A", "run_type": "iteration", "repetitions": 3,
     "repetition_index": 1, "iterations": 100, "real_time": 2000, "cpu_time": 1900, "time_unit": "ns"},
    {"name": "BM_A", "run_name": "BM_A", "run_type": "iteration", "repetitions": 3,
     "repetition_index": 2, "iterations": 100, "real_time": 3000, "cpu_time": 2900, "time_unit": "ns"},
    {"name": "BM_B/8", "run_name": "BM_B/8", "run_type": "iteration", "repetitions": 3,
     "repetition_index": 0, "iterations": 5, "real_time": 1.5, "cpu_time": 1.5, "time_unit": "ms"},
    {"name": "BM_B/8", "run_name": "BM_B/8", "run_type": "iteration", "repetitions": 3,
     "repetition_index": 1, "iterations": 5, "real_time": 2.5, "cpu_time": 2.5, "time_unit": "ms"},
    {"name": "BM_B/8", "run_name": "BM_B/8", "run_type": "iteration", "repetitions": 3,
     "repetition_index": 2, "iterations": 5, "real_time": 3.5, "cpu_time": 3.5, "time_unit": "ms"},
    {"name": "BM_A_mean", "run_name": "BM_A", "run_type": "aggregate", "aggregate_name": "mean",
     "iterations": 3, "real_time": 2000, "cpu_time": 1900, "time_unit": "ns"}
  ]
})";

TEST(HarnessGbenchJsonTest, IterationsBecomeSamplesAndAggregatesAreSkipped) {
  auto samples = ParseGbenchJson(kGbenchJson, "real_time", "g.json");
  ASSERT_TRUE(samples.ok()) << samples.error().message;
  ASSERT_EQ(samples->size(), 6u);
  EXPECT_EQ((*samples)[0].name, "BM_A");
  EXPECT_EQ((*samples)[2].repetition, 2);
  EXPECT_EQ((*samples)[3].name, "BM_B/8");
  EXPECT_EQ((*samples)[3].time_unit, "ms");
  EXPECT_EQ((*samples)[3].iterations, 5);
  auto cpu = ParseGbenchJson(kGbenchJson, "cpu_time", "g.json");
  EXPECT_EQ((*cpu)[0].value, 900);
}

TEST(HarnessGbenchJsonTest, ErrorsAreClear) {
  EXPECT_THAT(ParseGbenchJson("nope", "real_time", "g.json").error().message,
              HasSubstr("g.json: not Google Benchmark JSON"));
  EXPECT_EQ(ParseGbenchJson("{}", "real_time", "g.json").error().message,
            "g.json: not Google Benchmark JSON (no \"benchmarks\" list)");
  EXPECT_EQ(ParseGbenchJson(R"({"benchmarks": [{"name": "BM_X", "run_type": "iteration",
            "error_occurred": true, "error_message": "boom"}]})",
                            "real_time", "g.json")
                .error()
                .message,
            "benchmark BM_X failed: boom");
}

TEST(HarnessGbenchJsonTest, OutOfRangeAndNonPositiveTimesAreErrorsNotCrashes) {
  const auto error = [](const std::string& fields) {
    auto samples = ParseGbenchJson(
        R"({"benchmarks": [{"name": "BM_X", "run_type": "iteration", )" + fields + "}]}",
        "real_time", "g.json");
    return samples.ok() ? std::string() : samples.error().message;
  };
  EXPECT_THAT(error(R"("real_time": 1e999, "time_unit": "ns")"), HasSubstr("number overflow"));
  EXPECT_EQ(error(R"("real_time": -1, "time_unit": "ns")"),
            "g.json: benchmarks[0] (BM_X): \"real_time\" is -1, not a positive time");
  // A field of the wrong type is a message, not an escaping type_error.
  EXPECT_THAT(error(R"("real_time": 1, "error_occurred": "yes")"),
              HasSubstr("g.json: not Google Benchmark JSON: $.benchmarks[0].error_occurred: "
                        "expected true or false, got string"));
  // An iteration count no integer holds is ignored, not undefined behaviour.
  EXPECT_EQ(error(R"("real_time": 1, "iterations": 1e300, "time_unit": "ns")"), "");
}

class HarnessGbenchRunnerTest : public ::testing::Test {
 protected:
  SuiteConfig Suite(const std::string& binary, int repetitions) {
    SuiteConfig c;
    c.suite = "gbench_test";
    c.runner = RunnerKind::kGbench;
    c.repetitions = repetitions;
    c.output_dir = dir_.File("out");
    c.gbench.process.timeout_s = 60;
    ModelSpec m;
    m.name = "bench";
    m.path = binary;
    c.models.push_back(m);
    return c;
  }
  results::ModelResult RunOne(const SuiteConfig& config) {
    auto run = RunSuite(config, t_.deps);
    EXPECT_TRUE(run.ok()) << (run.ok() ? "" : run.error().message);
    return run.ok() ? run->results.models.at(0) : results::ModelResult{};
  }
  TempDir dir_;
  TestDeps t_;
};

TEST_F(HarnessGbenchRunnerTest, BenchmarksBecomeSamplesPerRepetitionInTheSuiteUnit) {
  const std::string json = dir_.File("canned.json");
  WriteTextFile(json, kGbenchJson);
  const std::string args = dir_.File("args");
  const std::string fake =
      WriteScript(dir_, "bench.sh",
                  "printf '%s\\n' \"$@\" > " + args +
                      "\nfor a in \"$@\"; do case $a in --benchmark_out=*) cp " + json +
                      " \"${a#--benchmark_out=}\";; esac; done");
  SuiteConfig config = Suite(fake, 3);
  config.models[0].filter = "BM_.*";
  config.gbench.min_time_s = 0.01;
  const results::ModelResult m = RunOne(config);
  ASSERT_EQ(m.status, results::ModelStatus::kOk) << m.error;
  ASSERT_EQ(m.benchmarks.size(), 2u);
  EXPECT_EQ(m.benchmarks[0].name, "BM_A");
  EXPECT_THAT(m.benchmarks[0].perf_data.raw, ElementsAre(0.001, 0.002, 0.003));  // ms
  EXPECT_EQ(m.benchmarks[0].perf_data.count, 3u);
  EXPECT_THAT(m.benchmarks[1].perf_data.raw, ElementsAre(1.5, 2.5, 3.5));
  EXPECT_THAT(m.benchmarks[1].iterations, ElementsAre(5, 5, 5));
  EXPECT_TRUE(m.blocks.empty());
  const std::string passed = etbench::testing::ReadTextFile(args);
  EXPECT_THAT(passed, HasSubstr("--benchmark_out_format=json\n"));
  EXPECT_THAT(passed, HasSubstr("--benchmark_repetitions=3\n"));
  EXPECT_THAT(passed, HasSubstr("--benchmark_filter=BM_.*\n"));
  EXPECT_THAT(passed, HasSubstr("--benchmark_min_time=0.01\n"));
}

TEST_F(HarnessGbenchRunnerTest, FailuresAreClear) {
  results::ModelResult m = RunOne(Suite(WriteScript(dir_, "crash.sh", "echo oops >&2; exit 1"), 2));
  EXPECT_EQ(m.status, results::ModelStatus::kFailed);
  EXPECT_EQ(m.error, "'crash.sh' exited with status 1");
  EXPECT_EQ(m.stderr_text, "oops\n");
  m = RunOne(Suite(WriteScript(dir_, "silent.sh", "exit 0"), 2));
  EXPECT_THAT(m.error, HasSubstr("wrote no benchmark JSON"));
  m = RunOne(Suite(WriteScript(dir_, "garbage.sh",
                               "for a in \"$@\"; do case $a in --benchmark_out=*) echo '[1,' > "
                               "\"${a#--benchmark_out=}\";; esac; done"),
                   2));
  EXPECT_THAT(m.error, HasSubstr("not Google Benchmark JSON"));
}

TEST_F(HarnessGbenchRunnerTest, RealGoogleBenchmarkBinary) {
  const std::string binary = etbench::testing::FakeGbenchPath();
  if (binary.empty()) GTEST_SKIP() << "Google Benchmark not available";
  SuiteConfig config = Suite(binary, 2);
  config.gbench.min_time_s = 0.001;
  results::ModelResult m = RunOne(config);
  ASSERT_EQ(m.status, results::ModelStatus::kOk) << m.error << m.stderr_text;
  ASSERT_EQ(m.benchmarks.size(), 2u);
  EXPECT_EQ(m.benchmarks[0].name, "BM_Sum");
  EXPECT_EQ(m.benchmarks[0].perf_data.count, 2u);
  EXPECT_EQ(m.benchmarks[0].metric, "real_time");

  config.gbench.process.env["FAKE_GBENCH_FAIL"] = "1";
  m = RunOne(config);
  EXPECT_EQ(m.status, results::ModelStatus::kFailed);
  EXPECT_EQ(m.error, "benchmark BM_Noop failed: asked to fail");
}

}  // namespace
}  // namespace etbench::harness
