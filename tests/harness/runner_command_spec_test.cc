// The command runner against a ProcessRunner double: what it asks to run,
// and how it reads outcomes, without starting anything.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <unistd.h>

#include <filesystem>

#include "etbench/harness/orchestrator.h"
#include "harness_test_util.h"

namespace etbench::harness {
namespace {

using etbench::testing::Exited;
using etbench::testing::FakeProcessRunner;
using etbench::testing::TempDir;
using etbench::testing::TestDeps;
using etbench::testing::WriteBinaryFile;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A CPU this process may run on: the check of cpu_affinity rejects the
// others, and the tests must pass under taskset too.
int AnAvailableCpu() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 0;
  for (int cpu = CPU_SETSIZE - 1; cpu >= 0; --cpu) {
    if (CPU_ISSET(cpu, &set)) return cpu;  // the highest: not always CPU 0
  }
  return 0;
}

SuiteConfig Suite(const TempDir& dir) {
  SuiteConfig c;
  c.suite = "spec";
  c.runner = RunnerKind::kCommand;
  c.has_command = true;
  c.command.argv = {"adb_run.sh", "--model={model}", "{etdump}", "{iterations}", "{args}"};
  c.command.process.env = {{"ANDROID_SERIAL", "abc"}};
  c.command.process.working_dir = dir.path();
  c.command.process.timeout_s = 42;
  c.command.process.kill_grace_s = 3;
  c.cpu_affinity = {AnAvailableCpu()};
  c.warmup = 2;
  c.iterations = 5;
  c.repetitions = 2;
  c.output_dir = dir.File("out");
  ModelSpec m;
  m.name = "mv2";
  m.path = "configs/models/mlp.yaml";
  m.args = {"--bundled_input", "0"};
  c.models.push_back(m);
  return c;
}

TEST(HarnessCommandRunnerSpecTest, ExpandsTheTemplateIntoTheProcessSpec) {
  TempDir dir;
  const std::vector<uint8_t> etdump = etbench::testing::MakeExecuteEtdump(
      {1000000, 1000000, 1000000, 1000000, 1000000, 1000000, 1000000});
  FakeProcessRunner processes([&etdump](const ProcessSpec& spec) {
    WriteBinaryFile(spec.env.at("ETBENCH_ETDUMP"), etdump);
    return Exited(0);
  });
  TestDeps t;
  t.deps.process_runner = &processes;
  auto run = RunSuite(Suite(dir), t.deps);
  ASSERT_TRUE(run.ok()) << run.error().message;
  ASSERT_EQ(run->results.models[0].status, results::ModelStatus::kOk) << run->results.models[0].error;
  ASSERT_EQ(processes.specs().size(), 2u);
  const ProcessSpec& spec = processes.specs()[1];
  const std::string model = std::filesystem::absolute("configs/models/mlp.yaml").string();
  // The run writes into its private staging directory (moved into place
  // when it finishes; see run_staging.h).
  const std::string staging = dir.File("out") + "/.etbench-run-" + std::to_string(::getpid());
  const std::string etdump_path = staging + "/mv2/rep1.etdp";
  EXPECT_THAT(spec.argv, ElementsAre("adb_run.sh", "--model=" + model, etdump_path, "7",
                                     "--bundled_input", "0"));
  EXPECT_EQ(spec.env.at("ANDROID_SERIAL"), "abc");
  EXPECT_EQ(spec.env.at("ETBENCH_MODEL"), model);
  EXPECT_EQ(spec.env.at("ETBENCH_MODEL_NAME"), "mv2");
  EXPECT_EQ(spec.env.at("ETBENCH_ITERATIONS"), "7");
  EXPECT_EQ(spec.env.at("ETBENCH_WARMUP"), "2");
  EXPECT_EQ(spec.env.at("ETBENCH_REPETITION"), "1");
  EXPECT_EQ(spec.env.at("ETBENCH_WORKDIR"), staging + "/mv2");
  EXPECT_EQ(spec.working_dir, dir.path());
  EXPECT_EQ(spec.timeout_s, 42);
  EXPECT_EQ(spec.kill_grace_s, 3);
  EXPECT_EQ(spec.cpu_affinity, std::vector<int>{AnAvailableCpu()});
  // 2 warm-up runs dropped per repetition: 5 + 5 measured.
  for (const results::BlockResult& b : run->results.models[0].blocks) {
    if (b.name == "Execute") {
      EXPECT_EQ(b.run_count, 10u);
    }
  }
}

TEST(HarnessCommandRunnerSpecTest, OutcomesBecomeClearErrors) {
  TempDir dir;
  ProcessResult next;
  FakeProcessRunner processes([&next](const ProcessSpec&) { return next; });
  TestDeps t;
  t.deps.process_runner = &processes;
  auto error_of = [&](ProcessResult r) {
    next = std::move(r);
    auto run = RunSuite(Suite(dir), t.deps);
    EXPECT_TRUE(run.ok());
    return run.ok() ? run->results.models[0].error : "";
  };
  ProcessResult not_started;
  not_started.start_error = "'adb_run.sh': not found in PATH";
  EXPECT_EQ(error_of(not_started),
            "repetition 1/2: 'adb_run.sh' could not be started: 'adb_run.sh': not found in PATH");
  ProcessResult killed = Exited(-1);
  killed.term_signal = 6;
  EXPECT_EQ(error_of(killed), "repetition 1/2: 'adb_run.sh' killed by signal 6 (SIGABRT)");
  ProcessResult stubborn = Exited(-1);
  stubborn.timed_out = true;
  stubborn.killed = true;
  stubborn.term_signal = 9;
  EXPECT_EQ(error_of(stubborn),
            "repetition 1/2: 'adb_run.sh' timed out after 42 s (ignored SIGTERM; killed with "
            "SIGKILL)");
  ProcessResult interrupted = Exited(-1);
  interrupted.interrupted = true;
  next = interrupted;
  auto run = RunSuite(Suite(dir), t.deps);
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->results.models[0].status, results::ModelStatus::kInterrupted);
}

}  // namespace
}  // namespace etbench::harness
