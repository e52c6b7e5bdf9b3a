// scripts/adb-runner.sh against a stand-in adb (tests/scripts/fakes/adb:
// the "device" is this machine) and a stand-in executor_runner; with
// ExecuTorch's real executor_runner pushed to the "device" when
// ETBENCH_EXECUTORCH_BIN points at it. Real subprocesses throughout.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "etbench/cli/etbench_cli.h"
#include "etbench/harness/process.h"
#include "etbench/inspector/etdump_file.h"
#include "etbench/inspector/inspector.h"
#include "cli/cli_test_util.h"
#include "support/test_support.h"

namespace etbench {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using testing::SourcePath;
using testing::TempDir;

const std::string kModel = SourcePath("configs/models/executorch/add.pte");

struct Call {
  harness::ProcessResult result;
  std::vector<std::string> adb_calls;  // one line per adb invocation
};

// Runs the script with the fakes first in PATH and the device directory in
// `dir`; `env` adds to (or overrides) the environment.
Call RunScript(const TempDir& dir, std::vector<std::string> args,
               std::map<std::string, std::string> env = {}) {
  harness::ProcessSpec spec;
  spec.argv = {SourcePath("scripts/adb-runner.sh")};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.env = {{"PATH", testing::ScopedEnv::PathWith(SourcePath("tests/scripts/fakes"))},
              {"FAKE_ADB_LOG", dir.File("adb.log")},
              {"ET_DEVICE_DIR", dir.File("device")},
              {"ET_RUNNER", SourcePath("tests/scripts/fakes/executor_runner")},
              {"ET_ADB_TIMEOUT", "20"}};
  for (auto& [k, v] : env) spec.env[k] = v;
  spec.timeout_s = 60;
  Call call;
  call.result = harness::MakeSystemProcessRunner()->Run(spec, nullptr);
  if (std::filesystem::exists(dir.File("adb.log"))) {
    std::string log = testing::ReadTextFile(dir.File("adb.log"));
    for (std::size_t at = 0, end; (end = log.find('\n', at)) != std::string::npos; at = end + 1) {
      call.adb_calls.push_back(log.substr(at, end - at));
    }
  }
  return call;
}

std::size_t Lines(const std::string& s) {
  std::size_t n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

TEST(AdbRunnerTest, PushesRunsPullsAndCleansUp) {
  TempDir dir;
  const Call call = RunScript(dir, {kModel, "10", dir.File("out.etdp")});
  ASSERT_EQ(call.result.exit_code, 0) << call.result.stderr_text;
  EXPECT_EQ(testing::ReadBinaryFile(dir.File("out.etdp")),
            testing::ReadBinaryFile(testing::FixturePath("executorch/add.etdp")));
  ASSERT_EQ(call.adb_calls.size(), 6u);
  EXPECT_EQ(call.adb_calls[0], "get-state");
  EXPECT_THAT(call.adb_calls[1], StartsWith("shell mkdir -p '" + dir.File("device") + "'"));
  EXPECT_THAT(call.adb_calls[2], StartsWith("push " + kModel + " " + dir.File("device/model-")));
  EXPECT_THAT(call.adb_calls[3], HasSubstr("--num_executions 10 --etdump_path '"));
  EXPECT_THAT(call.adb_calls[3], HasSubstr("--print_output none"));
  EXPECT_THAT(call.adb_calls[4], StartsWith("pull " + dir.File("device/etdump-")));
  EXPECT_THAT(call.adb_calls[5], StartsWith("shell rm -f "));
  // Nothing is left on the device or beside the output.
  EXPECT_TRUE(std::filesystem::is_empty(dir.File("device")));
  EXPECT_FALSE(std::filesystem::exists(dir.File("out.etdp.adb-tmp")));
  // The runner's output is passed on (stderr), stdout stays clean.
  EXPECT_THAT(call.result.stderr_text, HasSubstr("Model executed successfully"));
  EXPECT_TRUE(call.result.stdout_text.empty());
}

TEST(AdbRunnerTest, ExtraArgumentsAndOddPathsAreQuotedForTheDeviceShell) {
  TempDir dir;
  const Call call = RunScript(dir, {kModel, "10", dir.File("out.etdp"), "--print_output", "none"},
                              {{"ET_DEVICE_DIR", dir.File("it's a device dir")}});
  // The stand-in accepts the repeated flag; the path with a quote survived.
  ASSERT_EQ(call.result.exit_code, 0) << call.result.stderr_text;
  EXPECT_THAT(call.adb_calls.at(3), HasSubstr("--print_output none '--print_output' 'none'"));
  EXPECT_TRUE(std::filesystem::is_empty(dir.File("it's a device dir")));
}

TEST(AdbRunnerTest, EachFailureIsOneLineNamingTheStepWithItsExitCode) {
  struct Case {
    std::map<std::string, std::string> env;
    int exit_code;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{{"FAKE_ADB_STATE", "unauthorized"}}, 3, "no usable device (adb get-state: 'unauthorized')"},
      {{{"FAKE_ADB_FAIL", "get-state"}}, 3, "checking the device failed (adb exit 1): adb: error"},
      {{{"FAKE_ADB_FAIL", "push"}}, 3, "pushing the model failed (adb exit 1): adb: error"},
      {{{"FAKE_ADB_FAIL", "pull"}}, 3, "pulling the ETDump failed (adb exit 1)"},
      {{{"FAKE_RUNNER_EXIT", "7"}}, 4, "executor_runner exited with status 7 on the device"},
      {{{"FAKE_RUNNER_NO_ETDUMP", "1"}}, 4, "executor_runner wrote no ETDump"},
      {{{"ADB", "/nonexistent/adb"}}, 3, "adb not found"},
      {{{"ET_PUSH_RUNNER", "/nonexistent/executor_runner"}}, 2, "ET_PUSH_RUNNER"},
  };
  for (const Case& c : cases) {
    TempDir dir;
    const Call call = RunScript(dir, {kModel, "10", dir.File("out.etdp")}, c.env);
    SCOPED_TRACE(c.message);
    EXPECT_EQ(call.result.exit_code, c.exit_code) << call.result.stderr_text;
    const std::string& err = call.result.stderr_text;
    const std::size_t last = err.rfind("adb-runner.sh: ");
    ASSERT_NE(last, std::string::npos) << err;
    EXPECT_THAT(err.substr(last), StartsWith("adb-runner.sh: " + c.message));
    EXPECT_EQ(Lines(err.substr(last)), 1u) << err;
    EXPECT_FALSE(std::filesystem::exists(dir.File("out.etdp")));
    EXPECT_FALSE(std::filesystem::exists(dir.File("out.etdp.adb-tmp")));
  }
}

TEST(AdbRunnerTest, AHangingAdbStepIsStoppedAfterTheTimeout) {
  TempDir dir;
  const Call call = RunScript(dir, {kModel, "10", dir.File("out.etdp")},
                              {{"FAKE_ADB_HANG", "push"}, {"ET_ADB_TIMEOUT", "1"}});
  EXPECT_EQ(call.result.exit_code, 3);
  EXPECT_FALSE(call.result.timed_out);  // the script's own timeout, not the test's
  EXPECT_THAT(call.result.stderr_text,
              HasSubstr("adb-runner.sh: pushing the model: adb timed out after 1 s"));
  EXPECT_LT(call.result.wall_s, 30);
}

TEST(AdbRunnerTest, UsageErrorsExitTwo) {
  TempDir dir;
  const std::vector<std::vector<std::string>> cases = {
      {},
      {kModel, "10"},
      {dir.File("missing.pte"), "10", dir.File("out.etdp")},
      {kModel, "ten", dir.File("out.etdp")},
      {kModel, "10", dir.File("no/such/dir/out.etdp")},
  };
  for (const auto& args : cases) {
    const Call call = RunScript(dir, args);
    EXPECT_EQ(call.result.exit_code, 2) << call.result.stderr_text;
    EXPECT_EQ(Lines(call.result.stderr_text), 1u) << call.result.stderr_text;
    EXPECT_TRUE(call.adb_calls.empty());
  }
}

TEST(AdbRunnerTest, HelpListsUsageEnvironmentAndExitCodes) {
  TempDir dir;
  const Call call = RunScript(dir, {"--help"});
  EXPECT_EQ(call.result.exit_code, 0);
  EXPECT_THAT(call.result.stdout_text,
              StartsWith("Runs ExecuTorch's executor_runner on an Android device"));
  for (const char* text : {"Usage: scripts/adb-runner.sh MODEL EXECUTIONS ETDUMP", "ET_ADB_TIMEOUT",
                           "Exit codes: 0 ETDump written; 2 usage error; 3 adb"}) {
    EXPECT_THAT(call.result.stdout_text, HasSubstr(text));
  }
  EXPECT_TRUE(call.adb_calls.empty());
}

// The way a suite uses it: etbench's command runner calls the script.
TEST(AdbRunnerTest, CommandRunnerSuiteRunsThroughTheScript) {
  TempDir dir;
  const std::string suite = dir.File("device.yaml");
  testing::WriteTextFile(suite, "suite: device\nrunner: command\nunit: us\nwarmup: 2\n"
                                "iterations: 8\nrepetitions: 2\ncommand:\n  argv: [" +
                                    SourcePath("scripts/adb-runner.sh") +
                                    ", '{model}', '{iterations}', '{etdump}']\n"
                                    "  timeout_s: 60\nmodels: [" + kModel + "]\noutput_dir: " +
                                    dir.File("out") + "\n");
  testing::ScopedEnv path("PATH", testing::ScopedEnv::PathWith(SourcePath("tests/scripts/fakes")));
  testing::ScopedEnv device("ET_DEVICE_DIR", dir.File("device"));
  testing::ScopedEnv runner("ET_RUNNER", SourcePath("tests/scripts/fakes/executor_runner"));
  const auto run = testing::RunCli({"run", suite, "--quiet"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto results = nlohmann::json::parse(testing::ReadTextFile(dir.File("out/results.json")));
  const auto& blocks = results["models"][0]["blocks"];
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(blocks[0]["name"], "Default");
  const auto& events = blocks[1]["events"];
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events[0]["name"], "native_call_add.out");
  EXPECT_EQ(events[0]["perf_data"]["raw"].size(), 16u);  // 8 measured x 2 repetitions
}

TEST(AdbRunnerTest, RealExecutorRunnerPushedToTheDevice) {
  const std::string bin = testing::ExecutorchBinDir();
  if (bin.empty()) GTEST_SKIP() << testing::ExecutorchBinSkipMessage();
  TempDir dir;
  const Call call = RunScript(dir, {kModel, "4", dir.File("out.etdp")},
                              {{"ET_PUSH_RUNNER", bin + "/executor_runner"},
                               {"ET_RUNNER", dir.File("device/executor_runner")}});
  ASSERT_EQ(call.result.exit_code, 0) << call.result.stderr_text;
  auto file = EtdumpFile::Open(dir.File("out.etdp"));
  ASSERT_TRUE(file.ok()) << file.error().message;
  auto blocks = BuildEventBlocks(*file, {});
  ASSERT_TRUE(blocks.ok()) << blocks.error().message;
  ASSERT_EQ(blocks->size(), 2u);
  EXPECT_EQ((*blocks)[1].run_count, 4u);
  EXPECT_EQ((*blocks)[1].events[0].name, "native_call_add.out");
}

}  // namespace
}  // namespace etbench
