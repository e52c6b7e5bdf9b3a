#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "etbench/harness/orchestrator.h"
#include "etbench/harness/runner.h"
#include "etbench/inspector/etdump_file.h"
#include "harness_test_util.h"

namespace etbench::harness {
namespace {

using etbench::testing::TempDir;
using etbench::testing::TestDeps;
using ::testing::HasSubstr;

SuiteConfig BuiltinSuite(const TempDir& dir, std::vector<std::string> models, int warmup,
                         int iterations, int repetitions) {
  SuiteConfig c = etbench::testing::MakeRepoSuite(dir, models, warmup, iterations, repetitions);
  c.suite = "builtin_test";
  return c;
}

TEST(HarnessBuiltinRunnerTest, CancelStopsBetweenExecutionsNotAfterTheRepetition) {
  TempDir dir;
  SuiteConfig config = BuiltinSuite(dir, {"mlp"}, 0, 1000000, 1);
  std::unique_ptr<Runner> runner = MakeBuiltinRunner(config);
  ASSERT_NE(runner, nullptr);
  std::atomic<bool> cancel{false};
  RepetitionPlan plan;
  plan.iterations = 1000000;  // minutes of work were it not stopped
  plan.workdir = dir.path();
  plan.etdump_path = dir.File("rep0.etdp");
  plan.debug_output_path = dir.File("rep0.debug.bin");
  plan.cancel = &cancel;
  int done = 0;
  plan.on_execution = [&](int executions) {
    done = executions;
    if (executions == 3) cancel = true;  // as the SIGTERM handler would
  };
  RepetitionOutput out = runner->Run(config.models[0], plan);
  EXPECT_FALSE(out.ok);
  EXPECT_TRUE(out.interrupted);
  EXPECT_EQ(done, 3);
  EXPECT_EQ(out.error, "interrupted after 3 of 1000000 executions");
}

TEST(HarnessBuiltinRunnerTest, ConfigErrorsAreFoundByPrepareBeforeAnyRun) {
  TempDir dir;
  SuiteConfig config = BuiltinSuite(dir, {"mlp"}, 0, 1, 1);
  config.models[0].slowdown = {"no_such_op=2"};
  std::unique_ptr<Runner> runner = MakeBuiltinRunner(config);
  ASSERT_NE(runner, nullptr);
  Status prepared = runner->Prepare(config.models);
  ASSERT_FALSE(prepared.ok());
  EXPECT_EQ(prepared.error().code, ErrorCode::kUsage);
  EXPECT_THAT(prepared.error().message, HasSubstr("model 'mlp': "));
  EXPECT_THAT(prepared.error().message, HasSubstr("matches no node, op or kernel"));
  config.models[0].slowdown = {"linear=1e9"};
  runner = MakeBuiltinRunner(config);
  EXPECT_THAT(runner->Prepare(config.models).error().message, HasSubstr("between 1 and 1000"));
}

TEST(HarnessBuiltinRunnerTest, RunsWarmupPlusIterationsAndWritesTheEtdumpAndSidecar) {
  TempDir dir;
  SuiteConfig config = BuiltinSuite(dir, {"mlp"}, 2, 3, 1);
  std::unique_ptr<Runner> runner = MakeBuiltinRunner(config);
  ASSERT_NE(runner, nullptr);
  RepetitionPlan plan;
  plan.warmup = 2;
  plan.iterations = 3;
  plan.workdir = dir.path();
  plan.etdump_path = dir.File("rep0.etdp");
  plan.debug_output_path = dir.File("rep0.debug.bin");
  std::vector<int> progress;
  plan.on_execution = [&progress](int done) { progress.push_back(done); };
  RepetitionOutput out = runner->Run(config.models[0], plan);
  ASSERT_TRUE(out.ok) << out.error;
  EXPECT_EQ(progress, (std::vector<int>{1, 2, 3, 4, 5}));
  EXPECT_EQ(out.warmup_runs, 2u);
  EXPECT_EQ(*out.expected_execute_runs, 5u);
  EXPECT_EQ(out.time_source, "ns");
  EXPECT_EQ(*out.tick_rate_hz, 1e9);
  ASSERT_TRUE(out.etdump.has_value());
  EXPECT_TRUE(EtdumpFile::Open(plan.etdump_path).ok());
  EXPECT_EQ(out.metadata_path, plan.etdump_path + ".meta.json");
  EXPECT_TRUE(std::filesystem::exists(out.metadata_path));
}

TEST(HarnessBuiltinRunnerTest, BadSlowdownFailsTheModelWithItsPosition) {
  TempDir dir;
  SuiteConfig config = BuiltinSuite(dir, {"mlp"}, 0, 1, 1);
  config.models[0].slowdown = {"conv3d=2"};
  config.models[0].position = "suite.yaml:4:5";
  std::unique_ptr<Runner> runner = MakeBuiltinRunner(config);
  RepetitionPlan plan;
  plan.workdir = dir.path();
  plan.etdump_path = dir.File("x.etdp");
  RepetitionOutput out = runner->Run(config.models[0], plan);
  EXPECT_FALSE(out.ok);
  EXPECT_THAT(out.error, HasSubstr("suite.yaml:4:5: slowdown:"));
  EXPECT_THAT(out.error, HasSubstr("conv3d"));
}

TEST(HarnessBuiltinRunnerTest, EachRepetitionLoadsAFreshMethod) {
  TempDir dir;
  TestDeps t;
  SuiteConfig config = BuiltinSuite(dir, {"toy_cnn", "transformer_block"}, 1, 2, 3);
  auto run = RunSuite(config, t.deps);
  ASSERT_TRUE(run.ok()) << run.error().message;
  ASSERT_EQ(run->results.models.size(), 2u);
  for (const results::ModelResult& m : run->results.models) {
    ASSERT_EQ(m.status, results::ModelStatus::kOk) << m.error;
    ASSERT_EQ(m.repetitions.size(), 3u);
    for (const results::BlockResult& b : m.blocks) {
      // One Program::load_method per repetition; 2 measured runs each.
      EXPECT_EQ(b.run_count, b.name == "Default" ? 3u : 6u) << m.name << " " << b.name;
    }
    EXPECT_EQ(m.repetitions[2].execute_runs, 3u);
    EXPECT_EQ(m.repetitions[2].warmup_runs_dropped, 1u);
  }
}

TEST(HarnessBuiltinRunnerTest, SlowdownShowsInTheInjectedOp) {
  TempDir dir;
  TestDeps t;
  SuiteConfig config = BuiltinSuite(dir, {"toy_cnn"}, 0, 3, 1);
  ModelSpec slow = config.models[0];
  slow.name = "toy_cnn_slow";
  slow.slowdown = {"conv2d=3"};
  config.models.push_back(slow);
  auto run = RunSuite(config, t.deps);
  ASSERT_TRUE(run.ok()) << run.error().message;
  auto conv_p50 = [](const results::ModelResult& m) {
    for (const results::BlockResult& b : m.blocks) {
      for (const results::EventResult& e : b.events) {
        if (e.name == "native_call_convolution.out") return e.perf_data.p50;
      }
    }
    return 0.0;
  };
  ASSERT_EQ(run->results.models[1].status, results::ModelStatus::kOk) << run->results.models[1].error;
  EXPECT_GT(conv_p50(run->results.models[1]), 1.5 * conv_p50(run->results.models[0]));
}

}  // namespace
}  // namespace etbench::harness
