// `etbench ab` in-process with doubles (fake device program, manual clock,
// fixed environment, Ctrl-C flag): order, output and exit codes without the
// runtime.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

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
                               "0", "--warmup-time", "0", "--seed", "5", "--output_dir", dir.File("ab"), "--color", "never"},
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
  const CliRun aa = RunCliWith({"ab", same.suite(), "--blocks", "8", "--min-time", "0", "--seed", "5", "--output_dir",
                                again.File("ab"), "--color", "never"},
                               same.Deps());
  EXPECT_EQ(aa.exit_code, 0) << aa.err;
  const auto order = [](const std::string& err) { return err.substr(err.find("order "), 18); };
  EXPECT_EQ(order(aa.err), order(r.err));
}

TEST(AbCommandFakesTest, CtrlCStopsBetweenRunsExits130AndKeepsWhatRan) {
  TempDir dir;
  FakeDevice device(dir);
  device.InterruptAtRun(2);
  const CliRun r = RunCliWith(
      {"ab", device.suite(), "--blocks", "2", "--min-time", "0", "--warmup-time", "0", "--seed", "1",
       "--output_dir", dir.File("ab")},
      device.Deps());
  EXPECT_EQ(r.exit_code, 130) << r.err;
  EXPECT_THAT(r.err, HasSubstr("etbench ab: interrupted after 2 of 8 runs; their results are in " +
                               dir.File("ab") + "\n"));
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(std::filesystem::exists(dir.File("ab/a.json")));
}

TEST(AbCommandFakesTest, AFailedModelExitsTwoNamingTheRun) {
  TempDir dir;
  FakeDevice device(dir);
  device.Fail();
  const CliRun r = RunCliWith({"ab", device.suite(), "--min-time", "0", "--warmup-time", "0", "--seed", "1", "--output_dir",
                               dir.File("ab")},
                              device.Deps());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("etbench ab: ab run "));
  EXPECT_THAT(r.err, HasSubstr("exited with status 3"));
}

}  // namespace
}  // namespace etbench
