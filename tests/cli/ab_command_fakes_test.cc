// `etbench ab` in-process with doubles (fake device program, manual clock,
// fixed environment, Ctrl-C flag): order, output and exit codes without the
// runtime.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_fakes.h"

namespace etbench {
namespace {

using testing::CliRun;
using testing::FakeDevice;
using ::testing::HasSubstr;
using testing::RunCliWith;
using testing::TempDir;

TEST(AbCommandFakesTest, ASlowerVariantBIsARegressionRunInTheSeededOrder) {
  TempDir dir;
  FakeDevice device(dir);
  device.SlowDown(2, "slow");
  const CliRun r = RunCliWith({"ab", device.suite(), "--b", "arg=slow", "--blocks", "8", "--min-time",
                               "0", "--warmup-time", "0", "--seed", "5", "--output-dir", dir.File("ab"), "--color", "never"},
                              device.Deps());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("etbench ab: A: the suite as it is\netbench ab: B: arg=slow\n"
                               "etbench ab: order "));
  EXPECT_THAT(r.err, HasSubstr("(--seed 5), runs in " + dir.File("ab") + "\n"));
  EXPECT_THAT(r.err, HasSubstr("etbench ab: wrote " + dir.File("ab") + "/a.json and " +
                               dir.File("ab") + "/b.json\n"));
  EXPECT_THAT(r.out, HasSubstr("regression"));
  EXPECT_EQ(device.runs(), 32);  // 8 blocks × 4 runs, one repetition each

  // The same seed gives the same order; A/A is no regression.
  TempDir again;
  FakeDevice same(again);
  const CliRun aa = RunCliWith({"ab", same.suite(), "--blocks", "8", "--min-time", "0", "--seed", "5", "--output-dir",
                                again.File("ab"), "--color", "never"},
                               same.Deps());
  EXPECT_EQ(aa.exit_code, 0) << aa.err;
  const auto order = [](const std::string& err) { return err.substr(err.find("order "), 18); };
  EXPECT_EQ(order(aa.err), order(r.err));
}

// Two models: "quiet" measures the same every run and is decided at the
// second look (9 blocks); "noisy" moves by up to ±20% between runs and is
// never decided. Once "quiet" is decided, no run runs it: counted in the
// runs kept (--keep-runs: <output_dir>/NN-a|b/results.json, one per run).
TEST(AbCommandFakesTest, AModelDecidedEarlyIsNotRunAgainAndTheOtherGetsTheBudget) {
  TempDir dir;
  FakeDevice device(dir, {"quiet", "noisy"});
  device.Noisy("noisy");
  device.SecondsPerRun(0.25);  // each model's run: 2 s per block of both, 1 s of one
  const CliRun r = RunCliWith({"ab", device.suite(), "--budget", "30", "--min-time", "0",
                               "--warmup-time", "0", "--seed", "3", "--output-dir", dir.File("ab"),
                               "--color", "never", "--keep-runs"},
                              device.Deps());
  EXPECT_EQ(r.exit_code, 0) << r.err;  // inconclusive ("noisy"), not a regression
  EXPECT_THAT(r.err, HasSubstr("etbench ab: quiet decided after 9 blocks (18 s); later blocks "
                               "ran only the undecided models\n"));
  std::map<std::string, int> runs;
  int results = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir.File("ab"))) {
    const std::filesystem::path file = entry.path() / "results.json";
    if (!std::filesystem::exists(file)) continue;
    ++results;
    const nlohmann::json results_json = nlohmann::json::parse(testing::ReadTextFile(file.string()));
    for (const auto& model : results_json["models"]) {
      ++runs[model["name"].get<std::string>()];
    }
  }
  EXPECT_EQ(runs["quiet"], 9 * 4);
  // 18 s for the first 9 blocks, then 1 s per block: 21 blocks in 30 s
  // (15 if every block still ran both).
  EXPECT_EQ(runs["noisy"], 21 * 4);
  EXPECT_EQ(results, 21 * 4);
  EXPECT_EQ(device.runs(), 9 * 4 * 2 + 12 * 4);
  EXPECT_THAT(r.err, HasSubstr("etbench ab: 21 blocks in 30 s, budget spent"));
  EXPECT_THAT(r.out, HasSubstr("inconclusive"));
}

TEST(AbCommandFakesTest, CtrlCStopsBetweenRunsExits130AndKeepsWhatRan) {
  {
    // By default each run's directory goes once read: the run before the
    // interrupted one is kept merged, as its side's file.
    TempDir dir;
    FakeDevice device(dir);
    device.InterruptAtRun(2);
    const CliRun r = RunCliWith(
        {"ab", device.suite(), "--blocks", "2", "--min-time", "0", "--warmup-time", "0", "--seed",
         "1", "--output-dir", dir.File("ab")},
        device.Deps());
    EXPECT_EQ(r.exit_code, 130) << r.err;
    EXPECT_THAT(r.err, HasSubstr("etbench ab: interrupted after 2 of 8 runs; what ran is merged in " +
                                 dir.File("ab") + "/"));
    EXPECT_THAT(r.err, HasSubstr("--keep-runs keeps them)\n"));
    EXPECT_EQ(r.out, "");
    EXPECT_NE(std::filesystem::exists(dir.File("ab/a.json")),
              std::filesystem::exists(dir.File("ab/b.json")));  // one run: one side
  }
  {
    TempDir dir;
    FakeDevice device(dir);
    device.InterruptAtRun(2);
    const CliRun r = RunCliWith(
        {"ab", device.suite(), "--blocks", "2", "--min-time", "0", "--warmup-time", "0", "--seed",
         "1", "--output-dir", dir.File("ab"), "--keep-runs"},
        device.Deps());
    EXPECT_EQ(r.exit_code, 130) << r.err;
    EXPECT_THAT(r.err, HasSubstr("etbench ab: interrupted after 2 of 8 runs; their results are in " +
                                 dir.File("ab") + "\n"));
    EXPECT_TRUE(std::filesystem::exists(dir.File("ab/01-a/results.json")) ||
                std::filesystem::exists(dir.File("ab/01-b/results.json")));
    EXPECT_FALSE(std::filesystem::exists(dir.File("ab/a.json")));
  }
}

TEST(AbCommandFakesTest, AFailedModelExitsTwoNamingTheRun) {
  TempDir dir;
  FakeDevice device(dir);
  device.Fail();
  const CliRun r = RunCliWith({"ab", device.suite(), "--min-time", "0", "--warmup-time", "0", "--seed", "1", "--output-dir",
                               dir.File("ab")},
                              device.Deps());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("etbench ab: ab run "));
  EXPECT_THAT(r.err, HasSubstr("exited with status 3"));
}

TEST(AbCommandFakesTest, AnUnusableHistoryFailsBeforeEitherSideRuns) {
  TempDir dir;
  FakeDevice device(dir);
  testing::WriteTextFile(dir.File("notes.txt"), "not a database, " + std::string(4000, 'x'));
  const CliRun r = RunCliWith({"ab", device.suite(), "--min-time", "0", "--warmup-time", "0",
                               "--seed", "1", "--output-dir", dir.File("ab"), "--history",
                               dir.File("notes.txt")},
                              device.Deps());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("etbench ab: " + dir.File("notes.txt") + ": "));
  EXPECT_THAT(r.err, HasSubstr("not a database"));
  EXPECT_EQ(device.runs(), 0);
  EXPECT_FALSE(std::filesystem::exists(dir.File("ab")));
}

}  // namespace
}  // namespace etbench
