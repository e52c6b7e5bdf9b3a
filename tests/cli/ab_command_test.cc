// `etbench ab`, driven in-process: real builtin runs and real programs.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli_test_util.h"
#include "support/test_support.h"

namespace etbench {
namespace {

using testing::CliRun;
using ::testing::HasSubstr;
using testing::RunCli;
using ::testing::StartsWith;
using testing::TempDir;
using testing::WriteTextFile;

TEST(AbCommandTest, HelpDescribesSettingsAndExitCodes) {
  const CliRun r = RunCli({"ab", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, StartsWith("Usage: etbench ab CONFIG"));
  for (const char* key : {"config=FILE", "program=PATH", "command=ARGV", "model=PATH",
                          "model.NAME=PATH", "arg=VALUE", "env.NAME=VALUE", "slowdown=OP=FACTOR",
                          "--blocks", "--seed", "130 interrupted"}) {
    EXPECT_THAT(r.out, HasSubstr(key));
  }
  EXPECT_THAT(RunCli({"--help"}).out, HasSubstr("  ab "));
}

TEST(AbCommandTest, BadSettingsExitTwoWithOneLineNamingTheFlag) {
  CliRun r = RunCli({"ab", "configs/default.yaml", "--b", "modle=x"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, StartsWith("etbench ab: --b modle=x: unknown key 'modle'"));
  EXPECT_EQ(testing::LineCount(r.err), 1u);
  r = RunCli({"ab", "configs/default.yaml", "--a", "program=/bin/true"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "etbench ab: --a program=/bin/true: program applies to the command runner; this "
            "suite uses builtin\n");
  r = RunCli({"ab", "configs/default.yaml", "--blocks", "0"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "etbench ab: --blocks must be at least 1\n");
}

TEST(AbCommandTest, CatchesAnInjectedSlowdownAndWritesBothSides) {
  TempDir dir;
  // Sequential, as users run it, on short runs. A fixed number of blocks
  // (it was --blocks 14) fails on a busy machine: a block whose run a
  // neighbour slowed is left out for interference, and with 5 or 6 of 14
  // left out (4 of 14 seen at load 10) the exact block test cannot reach
  // the operators' level at all (p ≥ 2/2^9). The sequential loop replaces
  // such blocks within the budget: a busy machine costs time, not the
  // verdict. The convolutions are decided after 4-14 blocks; the run goes
  // on until the other rows are decided or the block limit (~35 s at load
  // 10); 120 s is for a machine much busier still.
  const CliRun r = RunCli({"ab", "configs/default.yaml", "--model", "toy_cnn", "--iterations",
                           "10", "--warmup", "1", "--budget", "120", "--seed", "5", "--b",
                           "slowdown=conv2d=2",
                           "--output-dir", dir.File("ab"), "--report",
                           "json=" + dir.File("cmp.json"), "--color", "never"});
  EXPECT_EQ(r.exit_code, 1) << r.err << r.out;
  EXPECT_THAT(r.err, HasSubstr("etbench ab: B: slowdown=conv2d=2\n"));
  EXPECT_THAT(r.err, HasSubstr("(--seed 5)"));
  EXPECT_TRUE(std::filesystem::exists(dir.File("ab/a.json")));
  EXPECT_TRUE(std::filesystem::exists(dir.File("ab/b.json")));
  // Each run's directory is removed once read (--keep-runs keeps it).
  EXPECT_FALSE(std::filesystem::exists(dir.File("ab/01-a")) ||
               std::filesystem::exists(dir.File("ab/01-b")));
  const auto json = nlohmann::json::parse(testing::ReadTextFile(dir.File("cmp.json")));
  EXPECT_EQ(json["outcome"], "regression");
  for (const auto& row : json["metrics"]) {
    if (row["name"].get<std::string>().rfind("native_call_convolution", 0) != 0) continue;
    EXPECT_EQ(row["verdict"], "regression") << row.dump();
    EXPECT_EQ(row["test"], "paired_signed_rank");
    EXPECT_TRUE(row["decided"].get<bool>());
    EXPECT_THAT(row["reason"].get<std::string>(), HasSubstr("decided after "));
  }
  std::string first_kernel;
  for (const auto& item : json["attribution"].at(0)["items"]) {
    if (item["kind"] == "kernel" && first_kernel.empty()) first_kernel = item["label"];
  }
  EXPECT_THAT(first_kernel, StartsWith("native_call_convolution"));
  // The merged sides compare again like any baseline files.
  const CliRun again = RunCli({"compare", dir.File("ab/a.json"), dir.File("ab/b.json")});
  EXPECT_EQ(again.exit_code, 1) << again.err;
}

// Two real builds of an external runner, linked alike: et_runner_base and
// et_runner_slow_conv, whose convolution kernel does ~25% more real work.
// Both link the same kernel code; only the amount of extra work differs
// (runtime/src/kernels/conv_extra_work.h), so the optimiser cannot
// make the slow build's other convolution faster (issue 33).
// The gate must fail on the convolutions and name them first.
TEST(AbCommandTest, TwoBuildsOfAnExternalRunnerWithASlowerKernel) {
#if !defined(ETBENCH_ET_RUNNER_BASE_PATH) || !defined(ETBENCH_ET_RUNNER_SLOW_CONV_PATH)
  GTEST_SKIP() << "et_runner is not built (ETBENCH_BUILD_RUNTIME=OFF)";
#else
  TempDir dir;
  const std::string suite = dir.File("suite.yaml");
  WriteTextFile(suite, std::string("suite: two_builds\nrunner: command\ntime_source: ns\n"
                                   "warmup: 1\niterations: 10\n"
                                   "command: {argv: [") +
                           ETBENCH_ET_RUNNER_BASE_PATH +
                           ", --model_path, '{model}', --num_executions, '{iterations}', "
                           "--etdump_path, '{etdump}', --time_source, '{time_source}']}\n"
                           "models: [configs/models/toy_cnn.yaml]\noutput_dir: " +
                           dir.File("out") + "\n");
  // Sequential, as users run it: blocks hit by interference are replaced
  // within the budget, so a busy test machine costs time, not the verdict.
  // The run stops when every metric is decided (14 blocks, ~15 s on a quiet
  // machine); the budget is for a busy one: at load 23 on 2 cores a block
  // took ~3.5 s and 45 s ended with both convolutions +30% but undecided,
  // 120 s decided them after 14 blocks (issue 33).
  const CliRun r = RunCli({"ab", suite, "--b",
                           std::string("program=") + ETBENCH_ET_RUNNER_SLOW_CONV_PATH,
                           "--min-time", "0.05", "--warmup-time", "0.01", "--budget", "120",
                           "--seed", "7", "--report", "json=" + dir.File("cmp.json")});
  EXPECT_EQ(r.exit_code, 1) << r.err << r.out;
  const auto json = nlohmann::json::parse(testing::ReadTextFile(dir.File("cmp.json")));
  EXPECT_EQ(json["outcome"], "regression");
  // Both convolutions got slower; on a busy test machine one of them may
  // still be undecided when the budget ends, never the other way round.
  int conv_rows = 0, conv_regressions = 0;
  for (const auto& row : json["metrics"]) {
    if (row["name"].get<std::string>().rfind("native_call_convolution", 0) != 0) continue;
    ++conv_rows;
    conv_regressions += row["verdict"] == "regression";
    EXPECT_NE(row["verdict"], "improvement") << row.dump();
    EXPECT_NE(row["verdict"], "unchanged") << row.dump();
    EXPECT_GT(row["change"].get<double>(), 0.10) << row.dump();
  }
  EXPECT_EQ(conv_rows, 2);
  EXPECT_GE(conv_regressions, 1);
  std::string first_kernel;
  for (const auto& item : json["attribution"].at(0)["items"]) {
    if (item["kind"] == "kernel" && first_kernel.empty()) first_kernel = item["label"];
  }
  EXPECT_THAT(first_kernel, StartsWith("native_call_convolution"));

  // The same build on both sides: nothing regresses.
  const CliRun aa = RunCli({"ab", suite, "--blocks", "14", "--seed", "8", "--output-dir",
                            dir.File("aa")});
  EXPECT_NE(aa.exit_code, 1) << aa.err << aa.out;
  EXPECT_NE(aa.exit_code, 2) << aa.err << aa.out;
#endif
}

// Two "builds" of a runner program: both copy the same canned ETDump, so
// the A/A comparison is exactly equal and must pass; B's program leaves a
// mark to show it ran.
TEST(AbCommandTest, TwoProgramsOfACommandSuite) {
  TempDir dir;
  const CliRun canned =
      RunCli({"run", "configs/default.yaml", "--model", "mlp", "--warmup", "0", "--iterations",
              "6", "--repetitions", "1", "--output-dir", dir.File("canned"), "--quiet"});
  ASSERT_EQ(canned.exit_code, 0) << canned.err;
  auto script = [&](const std::string& name, const std::string& extra) {
    const std::string path = dir.File(name);
    WriteTextFile(path, "#!/bin/bash\n" + extra + "cp " + dir.File("canned/mlp/rep0.etdp") +
                            " \"$1\"\n");
    chmod(path.c_str(), 0755);
    return path;
  };
  const std::string main_build = script("main.sh", "");
  const std::string pr_build = script("pr.sh", "echo ran >> " + dir.File("pr.marks") + "\n");
  const std::string suite = dir.File("suite.yaml");
  WriteTextFile(suite,
                "suite: two_builds\nrunner: command\nwarmup: 0\niterations: 6\n"
                "command: {argv: [" + main_build + ", '{etdump}']}\n"
                "models: [configs/models/mlp.yaml]\noutput_dir: " + dir.File("out") + "\n");
  const CliRun r = RunCli({"ab", suite, "--b", "program=" + pr_build, "--blocks", "1"});
  EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_EQ(testing::ReadTextFile(dir.File("pr.marks")), "ran\nran\n");
  EXPECT_TRUE(std::filesystem::exists(dir.File("out/ab/b.json")));
  EXPECT_THAT(r.out, HasSubstr("two_builds: A: the suite as it is → B: program=" + pr_build));
}

}  // namespace
}  // namespace etbench
