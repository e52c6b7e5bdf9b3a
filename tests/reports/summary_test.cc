#include "etbench/reports/summary.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "report_test_data.h"
#include "support/test_support.h"

namespace etbench::reports {
namespace {

using results::BlockResult;
using results::EventResult;
using results::ModelResult;
using results::ModelStatus;
using results::RunResults;

using ::testing::HasSubstr;

EventResult Event(std::string name, int32_t instruction, std::vector<double> raw) {
  EventResult e;
  e.name = std::move(name);
  e.instruction_id = instruction;
  e.perf_data = PerfData::FromRaw(std::move(raw));
  return e;
}

RunResults Sample() {
  RunResults r;
  r.metadata.suite = "default";
  r.metadata.runner = "builtin";
  r.metadata.warmup = 3;
  r.metadata.iterations = 30;
  r.metadata.repetitions = 2;
  r.metadata.unit = "ms";
  ModelResult m;
  m.name = "toy_cnn";
  BlockResult b;
  b.name = "Execute";
  b.run_count = 4;
  b.events = {Event("native_call_convolution.out", 0, {0.25, 0.25, 0.25, 0.25}),
              Event("OPERATOR_CALL", 0, {0.9, 0.9, 0.9, 0.9}),
              Event("native_call_relu.out", 1, {0.01, 0.01, 0.01, 0.01}),
              Event("DELEGATE_CALL", 2, {0.1, 0.1, 0.1, 0.1}),
              Event("native_call_addmm.out", 3, {0.05, 0.05, 0.05, 0.05}),
              Event("Method::execute", 0, {0.5, 0.5, 0.6, 0.7})};
  b.framework_tax = PerfData::FromRaw({1.5, 1.5, 1.5, 1.5});
  m.blocks = {b};
  r.models.push_back(m);
  ModelResult failed;
  failed.name = "mlp";
  failed.status = ModelStatus::kFailed;
  failed.error = "repetition 1/2: boom";
  r.models.push_back(failed);
  return r;
}

TEST(HarnessSummaryTest, TableShowsExecutePercentilesTaxAndSlowestOps) {
  const std::string table = RenderSummaryTable(Sample(), "results/default/results.json");
  EXPECT_THAT(table, HasSubstr("suite default: 2 model(s), runner builtin, 3 warm-up + 30 "
                               "iterations x 2 repetition(s)\n"));
  EXPECT_THAT(
      table,
      HasSubstr("model    status  runs  execute p50  execute p90  tax p50  slowest (p50)\n"));
  // Times in the unit that fits each value, not the suite's ms.
  EXPECT_THAT(table, HasSubstr("toy_cnn  ok         4     550.0 us     670.0 us   1.500%  "
                               "convolution.out#0 250.0 us, DELEGATE_CALL#2 100.0 us, "
                               "addmm.out#3 50.00 us\n"));
  EXPECT_THAT(table, HasSubstr("mlp      failed     0            -            -        -\n"));
  EXPECT_THAT(table, HasSubstr("\nmlp failed: repetition 1/2: boom\n"));
  EXPECT_THAT(table, HasSubstr("results: results/default/results.json\n"));
}

TEST(HarnessSummaryTest, SubMicrosecondTimesPrintInNanoseconds) {
  RunResults r = Sample();
  r.models.resize(1);
  r.models[0].blocks[0].events = {Event("native_call_add.out", 0, {0.000131, 0.000131}),
                                  Event("Method::execute", 0, {0.000411, 0.000411})};
  const std::string table = RenderSummaryTable(r, "");
  EXPECT_THAT(table, HasSubstr("411.0 ns"));
  EXPECT_THAT(table, HasSubstr("add.out#0 131.0 ns"));
  EXPECT_THAT(table, ::testing::Not(HasSubstr("0.000411")));
  // Machine output keeps the suite's unit.
  const nlohmann::json j = nlohmann::json::parse(RenderSummaryJson(r, ""));
  EXPECT_EQ(j["models"][0]["execute_p50"], 0.000411);
  EXPECT_EQ(j["models"][0]["unit"], "ms");
}

TEST(HarnessSummaryTest, JsonCarriesTheSameNumbers) {
  const nlohmann::json j = nlohmann::json::parse(RenderSummaryJson(Sample(), "r.json"));
  EXPECT_EQ(j["suite"], "default");
  EXPECT_EQ(j["results_path"], "r.json");
  ASSERT_EQ(j["models"].size(), 2u);
  EXPECT_EQ(j["models"][0]["execute_p50"], 0.55);
  EXPECT_EQ(j["models"][0]["framework_tax_p50"], 1.5);
  EXPECT_EQ(j["models"][0]["slowest_ops"][0]["name"], "convolution.out");
  EXPECT_EQ(j["models"][0]["slowest_ops"][0]["instruction_id"], 0);
  EXPECT_EQ(j["models"][1]["status"], "failed");
  EXPECT_TRUE(j["models"][1]["execute_p50"].is_null());
}

TEST(HarnessSummaryTest, JsonBytesMatchTheGolden) {
  // `--summary json`'s bytes (a pipe's input): compared with files
  // committed before the writer changed hands.
  RunResults r = Sample();
  r.interrupted = true;
  r.metadata.suite = "s \"q\" \x7f\b";
  ModelResult bench;
  bench.name = "gbench \xff\xe2\x82 \xc2\xb5";
  bench.unit = "ns";
  bench.error = "";
  bench.status = ModelStatus::kInterrupted;
  results::BenchmarkResult fast;
  fast.name = "BM_Fast/8";
  fast.perf_data = PerfData::FromRaw({1, 2, 3});
  results::BenchmarkResult slow;
  slow.name = "BM_Slow";
  slow.perf_data = PerfData::FromRaw({1e21, 1e-5});
  bench.benchmarks = {fast, slow};
  r.models.push_back(bench);
  r.models[1].error = "tab\there\nnl \x01";
  const std::string json = RenderSummaryJson(r, "out/r.json");
  testing::ExpectMatchesGolden(json, "summary.json");
  EXPECT_EQ(json, testing::ReadTextFile(testing::SourcePath("tests/reports/golden/summary.json")));
  const std::string empty = RenderSummaryJson(RunResults{}, "");
  testing::ExpectMatchesGolden(empty, "summary_empty.json");
  EXPECT_EQ(empty,
            testing::ReadTextFile(testing::SourcePath("tests/reports/golden/summary_empty.json")));
}

}  // namespace
}  // namespace etbench::reports
