// configs/executorch.yaml through the `command` runner: with a stand-in
// executor_runner everywhere (flags and ETDump handling), and with
// ExecuTorch's real executor_runner (`run`, `ab` with two programs, `gate`)
// when ETBENCH_EXECUTORCH_BIN points at it; those skip otherwise, saying how
// to point them at an ExecuTorch build.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>

#include "cli_test_util.h"
#include "support/test_support.h"

namespace etbench {
namespace {

using testing::CliRun;
using ::testing::HasSubstr;
using testing::RunCli;
using testing::ScopedEnv;
using testing::SourcePath;
using testing::TempDir;

// configs/executorch.yaml with absolute model paths and its output in `dir`.
std::string ShippedSuite(const TempDir& dir) {
  std::string text = testing::ReadTextFile(SourcePath("configs/executorch.yaml"));
  auto replace = [&text](const std::string& from, const std::string& to) {
    for (std::size_t at = text.find(from); at != std::string::npos;
         at = text.find(from, at + to.size())) {
      text.replace(at, from.size(), to);
    }
  };
  replace("  - configs/models/", "  - " + SourcePath("configs/models/"));
  replace("output_dir: results/{suite}", "output_dir: " + dir.File("out"));
  EXPECT_NE(text.find(dir.File("out")), std::string::npos) << "output_dir line changed";
  const std::string path = dir.File("executorch.yaml");
  testing::WriteTextFile(path, text);
  return path;
}

nlohmann::json ReadJson(const std::string& path) {
  return nlohmann::json::parse(testing::ReadTextFile(path));
}

const nlohmann::json* FindModel(const nlohmann::json& results, const std::string& name) {
  for (const auto& m : results["models"]) {
    if (m["name"] == name) return &m;
  }
  return nullptr;
}

std::vector<std::string> EventNames(const nlohmann::json& model, const std::string& block) {
  std::vector<std::string> names;
  for (const auto& b : model["blocks"]) {
    if (b["name"] != block) continue;
    for (const auto& e : b["events"]) names.push_back(e["name"]);
  }
  return names;
}

std::size_t SampleCount(const nlohmann::json& model, const std::string& event) {
  for (const auto& b : model["blocks"]) {
    for (const auto& e : b["events"]) {
      if (e["name"] == event) return e["perf_data"]["raw"].size();
    }
  }
  return 0;
}

// The suite's argv as shipped, against a stand-in that checks every flag
// and hands back a real ETDump of 10 executions: 3 warm-up + 7 measured.
TEST(ExecutorchSuiteTest, ShippedSuiteRunsWithItsFlagsAndDropsTheWarmup) {
  TempDir dir;
  ScopedEnv path("PATH", ScopedEnv::PathWith(SourcePath("tests/scripts/fakes")));
  const CliRun r = RunCli({"run", ShippedSuite(dir), "--iterations", "7", "--repetitions", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const nlohmann::json results = ReadJson(dir.File("out/results.json"));
  EXPECT_EQ(results["metadata"]["unit"], "us");
  for (const char* name : {"add", "bundled_program"}) {
    const nlohmann::json* m = FindModel(results, name);
    ASSERT_NE(m, nullptr) << name;
    EXPECT_EQ((*m)["status"], "ok") << (*m)["error"];
    EXPECT_EQ(SampleCount(*m, "native_call_add.out"), 14u);  // 7 x 2 repetitions
    EXPECT_EQ((*m)["repetitions"][0]["warmup_runs_dropped"], 3);
  }
  // People read times in the unit that fits them: Method::execute's p50
  // over the 7 measured runs of the fixture is 581 ns (0.581 us in the file).
  EXPECT_THAT(r.out, HasSubstr("581.0 ns"));
  EXPECT_EQ(SampleCount(*FindModel(results, "add"), "Method::execute"), 14u);
}

TEST(ExecutorchSuiteTest, WrongExecutionCountIsRecordedAsAFailure) {
  TempDir dir;
  ScopedEnv path("PATH", ScopedEnv::PathWith(SourcePath("tests/scripts/fakes")));
  // 3 + 8 = 11 executions: the stand-in refuses (its ETDump holds 10).
  const CliRun r = RunCli({"run", ShippedSuite(dir), "--iterations", "8", "--repetitions", "1",
                           "--model", "add", "--quiet"});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  const nlohmann::json results = ReadJson(dir.File("out/results.json"));
  const nlohmann::json* m = FindModel(results, "add");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ((*m)["status"], "failed");
  EXPECT_THAT((*m)["error"].get<std::string>(), HasSubstr("exited with status 67"));
}

class RealExecutorRunnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    bin_ = testing::ExecutorchBinDir();
    if (bin_.empty()) GTEST_SKIP() << testing::ExecutorchBinSkipMessage();
    path_.emplace("PATH", ScopedEnv::PathWith(bin_));
  }
  std::string bin_;
  std::optional<ScopedEnv> path_;
};

TEST_F(RealExecutorRunnerTest, RunRecordsEveryOperatorOfBothModels) {
  TempDir dir;
  const CliRun r = RunCli({"run", ShippedSuite(dir), "--iterations", "5", "--repetitions", "2",
                           "--summary", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const nlohmann::json results = ReadJson(dir.File("out/results.json"));
  const nlohmann::json* add = FindModel(results, "add");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(EventNames(*add, "Execute"),
            (std::vector<std::string>{"native_call_add.out", "OPERATOR_CALL", "Method::execute"}));
  EXPECT_EQ(SampleCount(*add, "Method::execute"), 10u);
  EXPECT_EQ((*add)["repetitions"][0]["execute_runs"], 8);  // 3 warm-up + 5
  const nlohmann::json* bundled = FindModel(results, "bundled_program");
  ASSERT_NE(bundled, nullptr);
  EXPECT_EQ(EventNames(*bundled, "Execute"),
            (std::vector<std::string>{"native_call_mul.out", "OPERATOR_CALL", "native_call_add.out",
                                      "OPERATOR_CALL", "native_call_add.out", "OPERATOR_CALL",
                                      "Method::execute"}));
  // Machine output keeps the suite's unit.
  const nlohmann::json summary = nlohmann::json::parse(r.out);
  EXPECT_EQ(summary["models"][0]["unit"], "us");
  EXPECT_GT(summary["models"][0]["execute_p50"].get<double>(), 0.0);
  // The ETDumps are kept and read like the reference Inspector reads them.
  const CliRun inspect = RunCli({"inspect", "--etdump_path", dir.File("out/add/rep0.etdp"),
                                 "--format", "csv"});
  ASSERT_EQ(inspect.exit_code, 0) << inspect.err;
  EXPECT_THAT(inspect.out, HasSubstr(",delegate_backend_name,start_time\n"));
}

TEST_F(RealExecutorRunnerTest, AbComparesTwoBuildsOfTheRunner) {
  TempDir dir;
  // A second "build": the same binary at another path.
  const std::string other = dir.File("other-build/executor_runner");
  std::filesystem::create_directories(dir.File("other-build"));
  std::filesystem::copy_file(bin_ + "/executor_runner", other);
  const CliRun r = RunCli({"ab", ShippedSuite(dir), "--model", "add", "--a",
                           "program=" + bin_ + "/executor_runner", "--b", "program=" + other,
                           "--blocks", "1", "--iterations", "5", "--seed", "7", "--output-dir",
                           dir.File("ab"), "--report", "json=" + dir.File("ab.json")});
  // Same code on both sides: no input error; the verdict is the machine's.
  ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.exit_code << r.err << r.out;
  // Each side's merged baseline file: 2 runs x 5 measured executions.
  for (const char* side : {"a.json", "b.json"}) {
    const nlohmann::json baseline = ReadJson(dir.File(std::string("ab/") + side));
    std::size_t samples = 0;
    for (const auto& metric : baseline["metrics"]) {
      if (metric["model"] == "add" && metric["name"] == "native_call_add.out") {
        samples = metric["samples"].size();
      }
    }
    EXPECT_EQ(samples, 10u) << side;
  }
  const nlohmann::json comparison = ReadJson(dir.File("ab.json"));
  bool saw_add = false;
  for (const auto& m : comparison["metrics"]) saw_add |= m["name"] == "native_call_add.out";
  EXPECT_TRUE(saw_add);
}

TEST_F(RealExecutorRunnerTest, GateComparesAgainstAStoredRun) {
  TempDir dir;
  const std::string suite = ShippedSuite(dir);
  const CliRun run = RunCli({"run", suite, "--iterations", "5", "--repetitions", "2", "--quiet"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::filesystem::copy_file(dir.File("out/results.json"), dir.File("baseline.json"));
  const CliRun gate = RunCli({"gate", suite, "--baseline", dir.File("baseline.json"),
                              "--iterations", "5", "--report", "json=" + dir.File("gate.json")});
  ASSERT_TRUE(gate.exit_code == 0 || gate.exit_code == 1) << gate.exit_code << gate.err;
  const nlohmann::json comparison = ReadJson(dir.File("gate.json"));
  std::set<std::string> models;
  for (const auto& m : comparison["metrics"]) models.insert(m["model"].get<std::string>());
  EXPECT_EQ(models, (std::set<std::string>{"add", "bundled_program"}));
  // No baseline: an input error.
  const CliRun missing = RunCli({"gate", suite, "--baseline", dir.File("none.json")});
  EXPECT_EQ(missing.exit_code, 2);
}

}  // namespace
}  // namespace etbench
