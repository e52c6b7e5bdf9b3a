// scripts/minibench-runner.sh against a stand-in adb (tests/scripts/fakes/
// adb: the "device" is this machine) whose `am` and `run-as`
// (tests/scripts/fakes/minibench/) do what ExecuTorch's benchmark app does:
// a real et_runner run recorded in one ETDump, and benchmark_results.json
// written as the app's Gson writes it. Real subprocesses throughout.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/cli_test_util.h"
#include "etbench/harness/process.h"
#include "etbench/inspector/etdump_file.h"
#include "etbench/inspector/inspector.h"
#include "support/test_support.h"

namespace etbench {
namespace {

using ::testing::HasSubstr;
using testing::SourcePath;
using testing::TempDir;

#ifdef ETBENCH_SCRIPTS_ET_RUNNER_PATH
constexpr const char* kEtRunner = ETBENCH_SCRIPTS_ET_RUNNER_PATH;
#else
constexpr const char* kEtRunner = "";
#endif

std::string FakesPath() {
  return testing::ScopedEnv::PathWith(SourcePath("tests/scripts/fakes/minibench") + ":" +
                                      SourcePath("tests/scripts/fakes"));
}

// The fakes' environment: the app's data directory, its ETDump path and the
// model its forwards run, all under `dir`.
std::map<std::string, std::string> FakeDevice(const TempDir& dir) {
  return {{"PATH", FakesPath()},
          {"FAKE_ADB_LOG", dir.File("adb.log")},
          {"FAKE_APP_DATA", dir.File("appdata")},
          {"FAKE_APP_ET_RUNNER", kEtRunner},
          {"FAKE_APP_MODEL", SourcePath("configs/models/mlp.yaml")},
          {"MB_DEVICE_DIR", dir.File("device")},
          {"MB_ETDUMP", dir.File("result.etdump")},
          {"MB_TIMEOUT", "3"},
          {"ET_ADB_TIMEOUT", "30"}};
}

harness::ProcessResult RunScript(const TempDir& dir, const std::vector<std::string>& args,
                                 const std::map<std::string, std::string>& extra_env = {}) {
  harness::ProcessSpec spec;
  spec.argv = {SourcePath("scripts/minibench-runner.sh")};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.env = FakeDevice(dir);
  for (const auto& [k, v] : extra_env) spec.env[k] = v;
  spec.timeout_s = 120;
  return harness::MakeSystemProcessRunner()->Run(spec, nullptr);
}

class MinibenchRunnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::string(kEtRunner).empty()) GTEST_SKIP() << "built without et_runner";
    model_ = dir_.File("mv3_xnnpack_fp32.pte");
    std::filesystem::copy_file(SourcePath("configs/models/executorch/add.pte"), model_);
  }
  TempDir dir_;
  std::string model_;
};

TEST_F(MinibenchRunnerTest, StartsTheAppWithItsIntentExtrasAndPullsResultsAndEtdump) {
  const auto r = RunScript(dir_, {model_, "2", "7", dir_.File("out.etdp")});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const std::string adb = testing::ReadTextFile(dir_.File("adb.log"));
  EXPECT_THAT(adb, HasSubstr("shell am start -W -S -n "
                             "org.pytorch.minibench/org.pytorch.minibench.BenchmarkActivity "
                             "--es model_dir '" + dir_.File("device/etbench-")));
  EXPECT_THAT(adb, HasSubstr("--ei num_iter 5 --ei num_warm_up_iter 2"));
  EXPECT_THAT(adb, HasSubstr("run-as org.pytorch.minibench cat files/benchmark_results.json"));
  // The app's results, byte for byte, beside the ETDump.
  const auto results =
      nlohmann::json::parse(testing::ReadTextFile(dir_.File("out.etdp.benchmark_results.json")));
  ASSERT_EQ(results.size(), 5u);
  EXPECT_EQ(results[0]["metric"], "avg_inference_latency(ms)");
  EXPECT_EQ(results[0]["deviceInfo"]["arch"], "Pixel 7");
  // The ETDump holds warm-up and measured forwards: 2 + 5 Execute runs.
  auto file = EtdumpFile::Open(dir_.File("out.etdp"));
  ASSERT_TRUE(file.ok()) << file.error().message;
  auto blocks = BuildEventBlocks(*file, {});
  ASSERT_TRUE(blocks.ok()) << blocks.error().message;
  ASSERT_FALSE(blocks->empty());
  EXPECT_EQ(blocks->back().run_count, 7u);
  // Nothing is left on the "device".
  EXPECT_TRUE(std::filesystem::is_empty(dir_.File("device")));
}

TEST_F(MinibenchRunnerTest, AModelThatDoesNotLoadIsExitFourWithItsLoadStatus) {
  const auto r = RunScript(dir_, {model_, "1", "3", dir_.File("out.etdp")},
                           {{"FAKE_APP_LOAD_STATUS", "35"}});
  EXPECT_EQ(r.exit_code, 4);
  EXPECT_EQ(r.stderr_text, "minibench-runner.sh: the model did not load on the device "
                           "(load_status 35.0)\n");
  EXPECT_TRUE(std::filesystem::exists(dir_.File("out.etdp.benchmark_results.json")));
  EXPECT_FALSE(std::filesystem::exists(dir_.File("out.etdp")));
}

TEST_F(MinibenchRunnerTest, NoResultsOrNoEtdumpAreExitFourNamingWhy) {
  auto none = RunScript(dir_, {model_, "1", "3", dir_.File("a.etdp")}, {{"FAKE_APP_NO_RESULTS", "1"}});
  EXPECT_EQ(none.exit_code, 4);
  EXPECT_THAT(none.stderr_text, HasSubstr("the app wrote no files/benchmark_results.json in 3 s"));
  auto no_etdump = RunScript(dir_, {model_, "1", "3", dir_.File("b.etdp")}, {{"FAKE_APP_NO_ETDUMP", "1"}});
  EXPECT_EQ(no_etdump.exit_code, 4);
  EXPECT_THAT(no_etdump.stderr_text, HasSubstr("EXECUTORCH_ANDROID_PROFILING"));
}

TEST_F(MinibenchRunnerTest, UsageErrorsExitTwo) {
  EXPECT_EQ(RunScript(dir_, {model_, "1", "3"}).exit_code, 2);
  EXPECT_EQ(RunScript(dir_, {model_, "3", "3", dir_.File("o")}).exit_code, 2);  // no measured run
  EXPECT_EQ(RunScript(dir_, {SourcePath("configs/models/mlp.yaml"), "1", "3", dir_.File("o")}).exit_code, 2);
  const auto help = RunScript(dir_, {"--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_THAT(help.stdout_text, HasSubstr("Exit codes:"));
}

// The way a suite uses it: per-operator samples from the app's ETDump (its
// warm-up forwards dropped), the app's own figures and device in the same
// run (the command runner reads ETDUMP.benchmark_results.json).
TEST_F(MinibenchRunnerTest, CommandRunnerSuiteRunsTheApp) {
  const std::string suite = dir_.File("app.yaml");
  testing::WriteTextFile(suite, "suite: app\nrunner: command\nwarmup: 2\niterations: 4\n"
                                "repetitions: 2\ncommand:\n  argv: [" +
                                    SourcePath("scripts/minibench-runner.sh") +
                                    ", '{model}', '{warmup}', '{iterations}', '{etdump}']\n"
                                    "  timeout_s: 60\nmodels: [" + model_ + "]\noutput_dir: " +
                                    dir_.File("out") + "\n");
  std::vector<std::unique_ptr<testing::ScopedEnv>> env;
  for (const auto& [k, v] : FakeDevice(dir_)) env.push_back(std::make_unique<testing::ScopedEnv>(k, v));
  const auto run = testing::RunCli({"run", suite, "--quiet"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto results = nlohmann::json::parse(testing::ReadTextFile(dir_.File("out/results.json")));
  bool found_execute = false;
  for (const auto& block : results["models"][0]["blocks"]) {
    for (const auto& event : block["events"]) {
      if (event["name"] == "Method::execute") {
        found_execute = true;
        EXPECT_EQ(event["perf_data"]["raw"].size(), 8u);  // 4 measured x 2 app starts
      }
    }
  }
  EXPECT_TRUE(found_execute);
  // The app's own figures as end-to-end benchmarks, one per app start, and
  // its device as labels: one run.
  std::map<std::string, std::size_t> reported;
  for (const auto& b : results["models"][0]["benchmarks"]) {
    reported[b["name"].get<std::string>()] = b["perf_data"]["raw"].size();
    EXPECT_EQ(b["metric"], "reported");
  }
  EXPECT_EQ(reported, (std::map<std::string, std::size_t>{{"avg_inference_latency(ms)", 2},
                                                          {"model_load_time(ms)", 2},
                                                          {"trimmean_inference_latency(ms)", 2}}));
  EXPECT_EQ(results["metadata"]["labels"]["app.arch"], "Pixel 7");
  EXPECT_EQ(results["metadata"]["labels"]["app.os"], "Android 14");

  // A model the app cannot load fails the model, naming the status.
  testing::ScopedEnv fail("FAKE_APP_LOAD_STATUS", "35");
  const auto failed = testing::RunCli({"run", suite, "--quiet"});
  EXPECT_EQ(failed.exit_code, 4) << failed.err;
}

}  // namespace
}  // namespace etbench
