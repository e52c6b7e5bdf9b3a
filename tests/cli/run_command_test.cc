// `etbench run` and `etbench merge`, driven in-process.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli_test_util.h"
#include "etbench/results/results.h"
#include "support/test_support.h"

namespace etbench {
namespace {

using testing::CliRun;
using ::testing::HasSubstr;
using testing::RunCli;
using ::testing::StartsWith;
using testing::TempDir;
using testing::WriteTextFile;

std::string Script(const TempDir& dir, const std::string& name, const std::string& body) {
  const std::string path = dir.File(name);
  WriteTextFile(path, "#!/bin/bash\n" + body + "\n");
  chmod(path.c_str(), 0755);
  return path;
}

// A command suite over the repo's model files whose program is `script`
// (called as: script NAME ETDUMP ITERATIONS).
std::string CommandSuite(const TempDir& dir, const std::string& script,
                         const std::string& extra = "") {
  const std::string path = dir.File("suite.yaml");
  WriteTextFile(path,
                "suite: cli\n"
                "runner: command\n"
                "warmup: 0\n"
                "iterations: 2\n"
                "repetitions: 1\n"
                "command:\n"
                "  argv: [" +
                    script +
                    ", '{name}', '{etdump}', '{iterations}']\n"
                    "  timeout_s: 20\n"
                    "models: [configs/models/mlp.yaml, configs/models/toy_cnn.yaml]\n"
                    "output_dir: " +
                    dir.File("out") + "\n" + extra);
  return path;
}

// Runs the builtin runner for one model and keeps its ETDump for fake
// programs to copy.
std::string CannedEtdump(const TempDir& dir) {
  const CliRun r =
      RunCli({"run", "configs/default.yaml", "--model", "mlp", "--warmup", "0", "--iterations", "2",
              "--repetitions", "1", "--output-dir", dir.File("canned"), "--quiet"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return dir.File("canned/mlp/rep0.etdp");
}

TEST(RunCommandTest, HelpListsTheExitCodes) {
  const CliRun r = RunCli({"run", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr("Usage: etbench run CONFIG"));
  EXPECT_THAT(r.out, HasSubstr("4 some models failed"));
  EXPECT_THAT(r.out, HasSubstr("130 interrupted"));
  EXPECT_THAT(r.out, HasSubstr("--shard"));
  EXPECT_THAT(RunCli({"--help"}).out, HasSubstr("run "));
}

TEST(RunCommandTest, DefaultSuiteRunsWithOverridesAndWritesResults) {
  TempDir dir;
  const CliRun r = RunCli({"run", "configs/default.yaml", "--iterations", "2", "--warmup", "1",
                           "--repetitions", "2", "--output-dir", dir.File("out"), "--model", "mlp",
                           "--model", "transformer_block", "--label", "device=ci-box"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("suite default: 2 model(s), runner builtin, 1 warm-up + 2 "
                               "iterations x 2 repetition(s)\n"));
  EXPECT_THAT(r.out, HasSubstr("\nmlp "));
  EXPECT_THAT(r.out, HasSubstr("\ntransformer_block "));
  EXPECT_EQ(r.err, "etbench run: wrote " + dir.File("out") + "/results.json (2 ok, 0 failed)\n");
  auto results = results::ReadResultsFile(dir.File("out/results.json"));
  ASSERT_TRUE(results.ok()) << results.error().message;
  EXPECT_EQ(results->metadata.device, "ci-box");
  EXPECT_EQ(results->metadata.iterations, 2);
  ASSERT_EQ(results->models.size(), 2u);
  EXPECT_EQ(results->models[0].repetitions.size(), 2u);
  EXPECT_TRUE(std::filesystem::exists(dir.File("out/mlp/rep1.etdp")));
}

TEST(RunCommandTest, SummaryJsonIsMachineReadable) {
  TempDir dir;
  const CliRun r =
      RunCli({"run", "configs/default.yaml", "--iterations", "1", "--warmup", "0", "--repetitions",
              "1", "--output-dir", dir.File("out"), "--model", "toy_cnn", "--summary", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["models"][0]["name"], "toy_cnn");
  EXPECT_TRUE(j["models"][0]["execute_p50"].is_number());
}

TEST(RunCommandTest, QuietPrintsNothing) {
  TempDir dir;
  const CliRun r =
      RunCli({"run", "configs/default.yaml", "--iterations", "1", "--warmup", "0", "--repetitions",
              "1", "--output-dir", dir.File("out"), "--model", "mlp", "--quiet"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
}

TEST(RunCommandTest, BadConfigsAndFlagsExitTwoWithOneLine) {
  TempDir dir;
  WriteTextFile(dir.File("bad.yaml"), "suite: s\nmodels: [configs/models/mlp.yaml]\nwarmp: 1\n");
  CliRun r = RunCli({"run", dir.File("bad.yaml")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, StartsWith("etbench run: " + dir.File("bad.yaml") +
                                ":3:1: unknown key 'warmp' (accepted: "));
  EXPECT_EQ(testing::LineCount(r.err), 1u);
  r = RunCli({"run", "configs/default.yaml", "--shard", "0/2"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "etbench run: --shard: shard must be I/N with 1 <= I <= N (e.g. 1/3), got "
            "'0/2'\n");
  r = RunCli({"run", "configs/default.yaml", "--model", "resnet"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--model 'resnet': the suite has no such model"));
  r = RunCli({"run"});
  EXPECT_EQ(r.exit_code, 2);
  r = RunCli({"run", dir.File("missing.yaml")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "etbench run: " + dir.File("missing.yaml") +
                       ": cannot open (No such file or directory)\n");
}

TEST(RunCommandTest, AnOutputDirectoryHoldingSourceCodeExitsTwoWithOneLine) {
  // A suite named "src" writes to results/src by default: the results
  // library's sources in a checkout.
  TempDir dir;
  std::filesystem::create_directories(dir.File("results/src"));
  WriteTextFile(dir.File("results/src/CMakeLists.txt"), "add_library(x x.cc)\n");
  WriteTextFile(dir.File("suite.yaml"), "suite: src\nmodels: [configs/models/mlp.yaml]\n"
                                        "output_dir: " + dir.File("results/{suite}") + "\n");
  const CliRun r = RunCli({"run", dir.File("suite.yaml"), "--quiet"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "etbench run: " + dir.File("results/src") + ": holds source code (" +
                       dir.File("results/src/CMakeLists.txt") +
                       "), not a run's outputs; refusing to write a run there (set the suite's "
                       "output_dir or --output-dir to another directory)\n");
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(std::filesystem::exists(dir.File("results/src/results.json")));
  // ab too, before it announces its start.
  const CliRun ab = RunCli({"ab", dir.File("suite.yaml"), "--output-dir", dir.File("results")});
  EXPECT_EQ(ab.exit_code, 2);
  EXPECT_EQ(testing::LineCount(ab.err), 1u) << ab.err;
  EXPECT_THAT(ab.err, StartsWith("etbench ab: " + dir.File("results") + ": holds source code ("));
  EXPECT_FALSE(std::filesystem::exists(dir.File("results/a.json")));
}

TEST(RunCommandTest, FailedModelsExitFourAfterWritingResults) {
  TempDir dir;
  const std::string canned = CannedEtdump(dir);
  const std::string script = Script(
      dir, "fake.sh",
      "if [ \"$1\" = mlp ]; then echo 'no device' >&2; exit 7; fi\ncp " + canned + " \"$2\"");
  const CliRun r = RunCli({"run", CommandSuite(dir, script)});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_THAT(r.err, HasSubstr("etbench run: mlp: failed: repetition 1/1: 'fake.sh' exited with "
                               "status 7\n"));
  EXPECT_THAT(r.err, HasSubstr("(1 ok, 1 failed)"));
  EXPECT_THAT(r.out, HasSubstr("mlp failed: repetition 1/1: 'fake.sh' exited with status 7"));
  auto results = results::ReadResultsFile(dir.File("out/results.json"));
  ASSERT_TRUE(results.ok());
  EXPECT_EQ(results->models[0].stderr_text, "no device\n");
  EXPECT_EQ(results->models[1].status, results::ModelStatus::kOk);
}

TEST(RunCommandTest, CtrlCStopsCleanlyExits130AndKeepsWhatFinished) {
  TempDir dir;
  const std::string canned = CannedEtdump(dir);
  // The first model finishes; during the second, the program sends SIGINT
  // to etbench (its parent: this test process) and then hangs.
  const std::string script = Script(
      dir, "fake.sh",
      "if [ \"$1\" = toy_cnn ]; then kill -INT $PPID; sleep 20; fi\ncp " + canned + " \"$2\"");
  const CliRun r = RunCli({"run", CommandSuite(dir, script)});
  EXPECT_EQ(r.exit_code, 130) << r.err;
  EXPECT_THAT(r.err, HasSubstr("(1 ok, 0 failed, interrupted)"));
  auto results = results::ReadResultsFile(dir.File("out/results.json"));
  ASSERT_TRUE(results.ok());
  EXPECT_TRUE(results->interrupted);
  ASSERT_EQ(results->models.size(), 2u);
  EXPECT_EQ(results->models[0].status, results::ModelStatus::kOk);
  EXPECT_EQ(results->models[1].status, results::ModelStatus::kInterrupted);
}

// (Here for the command-suite helpers: gate runs the suite first.)
TEST(GateCommandTest, CtrlCExits130WithoutAVerdict) {
  TempDir dir;
  const std::string canned = CannedEtdump(dir);
  const std::string script = Script(
      dir, "fake.sh",
      "if [ \"$1\" = toy_cnn ]; then kill -INT $PPID; sleep 20; fi\ncp " + canned + " \"$2\"");
  // (A named baseline file is read before the run: the history's is not.)
  const CliRun r = RunCli({"gate", CommandSuite(dir, script), "--baseline", "history", "--history",
                           dir.File("h.db")});
  EXPECT_EQ(r.exit_code, 130) << r.err;
  EXPECT_THAT(r.err, HasSubstr("etbench gate: interrupted; no verdict"));
  EXPECT_EQ(r.out, "");
}

TEST(RunCommandTest, ConfigErrorsStopTheRunBeforeAnyModelRuns) {
  TempDir dir;
  WriteTextFile(dir.File("broken.yaml"), "name: broken\nnodes: [\n");
  const std::string suite = dir.File("suite.yaml");
  WriteTextFile(suite, "suite: s\nmodels:\n  - configs/models/mlp.yaml\n  - " +
                           dir.File("broken.yaml") + "\noutput_dir: " + dir.File("out") + "\n");
  CliRun r = RunCli({"run", suite, "--iterations", "1", "--warmup", "0", "--repetitions", "1"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("model 'broken': "));
  EXPECT_FALSE(std::filesystem::exists(dir.File("out/results.json")));

  WriteTextFile(suite, "suite: s\nmodels:\n  - {path: configs/models/mlp.yaml, slowdown: "
                       "[no_such_op=2]}\noutput_dir: " + dir.File("out") + "\n");
  r = RunCli({"run", suite, "--iterations", "1", "--warmup", "0", "--repetitions", "1"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("matches no node, op or kernel"));

  WriteTextFile(suite, "suite: s\nmodels: [configs/models/mlp.yaml]\ncpu_affinity: [999]\n"
                       "output_dir: " + dir.File("out") + "\n");
  r = RunCli({"run", suite, "--iterations", "1", "--warmup", "0", "--repetitions", "1"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("cpu_affinity: CPU 999 is not available"));
}

TEST(RunCommandTest, ShardsMergeIntoTheFullModelSet) {
  TempDir dir;
  std::vector<std::string> shards;
  for (const char* shard : {"1/2", "2/2"}) {
    const CliRun r = RunCli({"run", "configs/default.yaml", "--iterations", "1", "--warmup", "0",
                             "--repetitions", "1", "--output-dir", dir.File("out"), "--shard",
                             shard, "--quiet"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  const CliRun merged =
      RunCli({"merge", dir.File("out/results-shard-2-of-2.json"),
              dir.File("out/results-shard-1-of-2.json"), "--output", dir.File("merged.json")});
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  EXPECT_EQ(merged.err,
            "etbench merge: wrote " + dir.File("merged.json") + " (4 models from 2 files)\n");
  auto results = results::ReadResultsFile(dir.File("merged.json"));
  ASSERT_TRUE(results.ok());
  std::vector<std::string> names;
  for (const auto& m : results->models) names.push_back(m.name);
  EXPECT_EQ(names, (std::vector<std::string>{"toy_cnn", "mlp", "mobilenet_v2_block",
                                             "transformer_block"}));
  EXPECT_EQ(results->models[1].repetitions[0].etdump_path, "out/mlp/rep0.etdp");

  const CliRun partial = RunCli(
      {"merge", dir.File("out/results-shard-2-of-2.json"), "--output", dir.File("partial.json")});
  EXPECT_EQ(partial.exit_code, 2);
  EXPECT_EQ(partial.err, "etbench merge: incomplete shard set: shard(s) 1 of 2 missing\n");
  EXPECT_EQ(RunCli({"merge", "--output", dir.File("x.json")}).exit_code, 2);
}

}  // namespace
}  // namespace etbench
