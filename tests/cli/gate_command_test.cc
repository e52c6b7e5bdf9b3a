// `etbench gate` in-process with doubles (fake device program, manual clock,
// fixed environment, Ctrl-C flag): the command's flags, output and exit codes
// without the runtime.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli_fakes.h"
#include "etbench/compare/comparison_json_reader.h"
#include "support/compare_test_util.h"

namespace etbench {
namespace {

using testing::CliRun;
using testing::FakeDevice;
using ::testing::HasSubstr;
using testing::RunCliWith;
using ::testing::StartsWith;
using testing::TempDir;

class GateWithFakesTest : public ::testing::Test {
 protected:
  // Runs the suite once and saves it as the baseline under dir/baselines.
  void RecordBaseline() {
    CliRun run = RunCliWith({"run", device_.suite(), "--quiet"}, device_.Deps());
    ASSERT_EQ(run.exit_code, 0) << run.err;
    CliRun save = RunCliWith({"baseline", "save", dir_.File("out/s/results.json"), "--root",
                              dir_.path()},
                             device_.Deps());
    ASSERT_EQ(save.exit_code, 0) << save.err;
  }

  std::vector<std::string> Gate(std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"gate", device_.suite(), "--root", dir_.path(), "--color",
                                  "never"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }

  TempDir dir_;
  FakeDevice device_{dir_};
};

TEST_F(GateWithFakesTest, PassesAgainstItsOwnBaselineWithTheComparisonOnStdout) {
  RecordBaseline();
  const CliRun r = RunCliWith(Gate(), device_.Deps());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("Method::execute"));
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(device_.runs(), 12);  // 6 repetitions, twice
}

TEST_F(GateWithFakesTest, ASlowerDeviceIsARegressionAndTheReportsAreWritten) {
  RecordBaseline();
  device_.SlowDown(2);
  const CliRun r =
      RunCliWith(Gate({"--report", "junit=" + dir_.File("gate.xml")}), device_.Deps());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr("regression"));
  EXPECT_THAT(testing::ReadTextFile(dir_.File("gate.xml")), HasSubstr("<failure"));
}

// A clear regression against a saved baseline (6 repetitions a side, every
// candidate repetition twice as slow): exit 1, and in the JSON report every
// row's interval agrees with its p, the regression's interval above 0.
TEST_F(GateWithFakesTest, AFixedBaselineRegressionHasItsIntervalAndPAgree) {
  RecordBaseline();
  device_.SlowDown(2);
  const std::string json = dir_.File("gate.json");
  const CliRun r = RunCliWith(Gate({"--report", "json=" + json}), device_.Deps());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  auto c = ReadComparisonFile(json);
  ASSERT_TRUE(c.ok()) << c.error().message;
  testing::ExpectConsistentRows(*c);
  std::size_t regressions = 0;
  for (const MetricComparison& row : c->rows) {
    if (row.verdict != Verdict::kRegression) continue;
    ++regressions;
    EXPECT_EQ(row.test, "rank_repetition") << row.label;
    ASSERT_TRUE(row.ci_alpha.has_value());
    EXPECT_GT(row.ci_low, 0) << row.label;
    EXPECT_LE(row.p_adjusted.value_or(row.p_value), row.level) << row.label;
    EXPECT_LE(row.p_value, *row.ci_alpha) << row.label;
    EXPECT_NEAR(row.change, 1.0, 0.05) << row.label;  // twice as slow
  }
  EXPECT_GE(regressions, 3u);  // Method::execute and both operators
}

TEST_F(GateWithFakesTest, ABaselineFromAnotherMachineIsAdviceWhenAsked) {
  RecordBaseline();
  const std::string baseline = dir_.File("baselines/fake/s.json");
  nlohmann::json json = nlohmann::json::parse(testing::ReadTextFile(baseline));
  json["context"]["host"] = "elsewhere";
  testing::WriteTextFile(baseline, json.dump(1));
  device_.SlowDown(2);
  EXPECT_EQ(RunCliWith(Gate(), device_.Deps()).exit_code, 1);
  const CliRun r = RunCliWith(Gate({"--other-machine", "advisory"}), device_.Deps());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("etbench gate: advisory: the baseline was measured on another "
                               "machine (host 'elsewhere'"));
  EXPECT_THAT(r.err, HasSubstr("(exit 1 becomes 0)"));
  EXPECT_THAT(r.err, HasSubstr("etbench baseline save " + dir_.File("out/s/results.json") +
                               " --force\n"));
}

TEST_F(GateWithFakesTest, MissingBaselineAndFailedModelExitTwoCtrlCExits130WithOneLine) {
  CliRun r = RunCliWith(Gate(), device_.Deps());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, StartsWith("etbench gate: "));
  EXPECT_THAT(r.err, HasSubstr("baselines/fake/s.json"));
  EXPECT_EQ(testing::LineCount(r.err), 1u);

  RecordBaseline();
  device_.InterruptAtRun(device_.runs() + 1);
  r = RunCliWith(Gate(), device_.Deps());
  EXPECT_EQ(r.exit_code, 130);
  EXPECT_EQ(r.err, "etbench gate: interrupted; no verdict (partial results in " +
                       dir_.File("out/s/results.json") + ")\n");

  device_.Fail();
  r = RunCliWith(Gate(), device_.Deps());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("some models did not run"));
}

}  // namespace
}  // namespace etbench
