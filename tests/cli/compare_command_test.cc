// compare / baseline / gate through the CLI: exit codes and files.
#include <gtest/gtest.h>

#include "cli_test_util.h"
#include "etbench/compare/baseline_store.h"
#include "etbench/compare/comparison_json_reader.h"
#include "etbench/results/results.h"
#include "support/compare_test_util.h"
#include "support/test_support.h"

namespace etbench {
namespace {

using testing::RunCli;

// A baseline file with one per-operator metric and Method::execute; the
// candidate's samples are `factor` times the baseline's (small, fixed jitter).
std::string WriteSet(const testing::TempDir& dir, const std::string& file, double factor) {
  MetricSet set;
  set.context = {{"suite", "s"}, {"device", "d"}, {"time_source", "ns"}, {"unit", "ms"}};
  auto metric = [&](const std::string& name, double base, bool e2e) {
    Metric m;
    m.key.model = "toy";
    m.key.block = "Execute";
    m.key.name = name;
    m.key.instruction_id = 0;
    m.unit = "ms";
    m.end_to_end = e2e;
    m.is_kernel_or_delegate_call = !e2e;
    for (int i = 0; i < 60; ++i) m.samples.push_back(factor * base * (1.0 + 0.002 * (i % 7)));
    return m;
  };
  set.metrics = {metric("native_call_convolution.out", 1.0, false),
                 metric("Method::execute", 1.2, true)};
  Baseline baseline;
  baseline.name = file;
  baseline.metrics = set;
  const std::string path = dir.File(file);
  EXPECT_TRUE(SaveBaseline(path, baseline, false).ok());
  return path;
}

TEST(CompareCommandTest, ExitCodesFollowTheVerdict) {
  testing::TempDir dir;
  const std::string base = WriteSet(dir, "base.json", 1.0);
  const std::string same = WriteSet(dir, "same.json", 1.0);
  const std::string slow = WriteSet(dir, "slow.json", 1.3);
  auto pass = RunCli({"compare", base, same, "--color", "never"});
  EXPECT_EQ(pass.exit_code, 0) << pass.out << pass.err;
  auto regression = RunCli({"compare", base, slow, "--color", "never"});
  EXPECT_EQ(regression.exit_code, 1) << regression.out << regression.err;
  EXPECT_NE(regression.out.find("REGRESSION"), std::string::npos) << regression.out;
  auto junit = RunCli({"compare", base, slow, "--report", "junit=" + dir.File("gate.xml")});
  EXPECT_EQ(junit.exit_code, 1);
  EXPECT_NE(testing::ReadTextFile(dir.File("gate.xml")).find("<failure"), std::string::npos);
  // Every row of both comparisons: the interval agrees with its p.
  for (const std::string& candidate : {same, slow}) {
    const std::string json = dir.File("c.json");
    RunCli({"compare", base, candidate, "--report", "json=" + json});
    auto c = ReadComparisonFile(json);
    ASSERT_TRUE(c.ok()) << c.error().message;
    testing::ExpectConsistentRows(*c);
    for (const MetricComparison& row : c->rows) EXPECT_TRUE(row.ci_alpha.has_value()) << row.label;
  }
}

TEST(CompareCommandTest, BadInputsExitTwo) {
  testing::TempDir dir;
  const std::string base = WriteSet(dir, "base.json", 1.0);
  testing::WriteTextFile(dir.File("bad.yaml"), "default:\n  relative: lots\n");
  EXPECT_EQ(RunCli({"compare", base, dir.File("missing.json")}).exit_code, 2);
  EXPECT_EQ(RunCli({"compare", base}).exit_code, 2);
  auto thresholds = RunCli({"compare", base, base, "--thresholds", dir.File("bad.yaml")});
  EXPECT_EQ(thresholds.exit_code, 2);
  EXPECT_NE(thresholds.err.find("bad.yaml:"), std::string::npos) << thresholds.err;
}

// A results file of a run in which every model failed.
std::string WriteAllFailedResults(const testing::TempDir& dir) {
  results::RunResults results;
  results.metadata.suite = "s";
  results.metadata.device = "d";
  results::ModelResult failed;
  failed.name = "toy";
  failed.status = results::ModelStatus::kFailed;
  failed.error = "exited with status 3";
  results.models.push_back(failed);
  const std::string path = dir.File("failed/results.json");
  EXPECT_TRUE(results::WriteResultsFile(path, results).ok());
  return path;
}

TEST(CompareCommandTest, ACandidateWithNoModelsIsNotAPass) {
  testing::TempDir dir;
  const std::string base = WriteSet(dir, "base.json", 1.0);
  auto r = RunCli({"compare", base, WriteAllFailedResults(dir)});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "etbench compare: the candidate has no metrics: no model finished (toy "
                   "failed); nothing to compare\n");
}

TEST(BaselineCommandTest, ResultsOfAFailedRunNeverReplaceABaseline) {
  testing::TempDir dir;
  const std::string base = WriteSet(dir, "base.json", 1.0);
  const std::string before = testing::ReadTextFile(base);
  auto r = RunCli({"baseline", "save", WriteAllFailedResults(dir), "--path", base, "--force"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("not saved: the results has no metrics"), std::string::npos) << r.err;
  EXPECT_EQ(testing::ReadTextFile(base), before);
}

TEST(BaselineCommandTest, PathEqualToTheInputIsRefused) {
  testing::TempDir dir;
  const std::string base = WriteSet(dir, "base.json", 1.0);
  const std::string before = testing::ReadTextFile(base);
  auto r = RunCli({"baseline", "save", base, "--path", base, "--force"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "etbench baseline: " + base +
                       ": is an input of this command; refusing to overwrite it\n");
  EXPECT_EQ(testing::ReadTextFile(base), before);
}

TEST(BaselineCommandTest, ShowAndRefuseToOverwrite) {
  testing::TempDir dir;
  const std::string base = WriteSet(dir, "base.json", 1.0);
  auto show = RunCli({"baseline", "show", base});
  EXPECT_EQ(show.exit_code, 0) << show.err;
  EXPECT_NE(show.out.find("native_call_convolution.out"), std::string::npos) << show.out;
  // save from a baseline file works too (any MetricSet source); a second
  // save to the same path needs --force.
  const std::string target = dir.File("stored.json");
  EXPECT_EQ(RunCli({"baseline", "save", base, "--path", target}).exit_code, 0);
  auto again = RunCli({"baseline", "save", base, "--path", target});
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_EQ(RunCli({"baseline", "save", base, "--path", target, "--force"}).exit_code, 0);
  EXPECT_EQ(RunCli({"baseline", "frobnicate", base}).exit_code, 2);
  const auto two = RunCli({"baseline", "show", base, base});  // show takes one file
  EXPECT_EQ(two.exit_code, 2);
  EXPECT_EQ(testing::LineCount(two.err), 1u);
  EXPECT_EQ(two.err.rfind("etbench baseline show: ", 0), 0u) << two.err;
}

TEST(BaselineCommandTest, SeveralResultsMergeIntoOneBaseline) {
  testing::TempDir dir;
  const std::string first = WriteSet(dir, "first.json", 1.0);
  const std::string second = WriteSet(dir, "second.json", 1.1);
  const std::string target = dir.File("merged.json");
  auto saved = RunCli({"baseline", "save", first, second, "--path", target});
  ASSERT_EQ(saved.exit_code, 0) << saved.err;
  EXPECT_NE(saved.err.find("from " + first + " and 1 more"), std::string::npos) << saved.err;
  auto merged = LoadBaseline(target);
  ASSERT_TRUE(merged.ok()) << merged.error().message;
  ASSERT_EQ(merged->metrics.metrics.size(), 2u);
  EXPECT_EQ(merged->metrics.metrics[0].samples.size(), 120u);

  // Runs of another suite do not belong in the same baseline.
  auto other = LoadBaseline(second);
  other->metrics.context["suite"] = "other";
  ASSERT_TRUE(SaveBaseline(dir.File("other.json"), *other, false).ok());
  auto refused = RunCli({"baseline", "save", first, dir.File("other.json"), "--path",
                         dir.File("x.json")});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_EQ(refused.err, "etbench baseline: " + dir.File("other.json") +
                             ": suite 'other' differs from 's' in " + first + "\n");
}

TEST(GateCommandTest, MissingBaselineIsAnError) {
  testing::TempDir dir;
  auto r = RunCli({"gate", "configs/default.yaml", "--model", "mlp", "--iterations", "3",
                   "--root", dir.path(), "--label", "device=test-device"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("test-device"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace etbench

namespace etbench {
namespace {

TEST(RunCommandReportTest, RunWritesRequestedReportsOfItsResults) {
  testing::TempDir dir;
  auto r = testing::RunCli({"run", "configs/default.yaml", "--model", "mlp", "--iterations", "3",
                            "--repetitions", "1", "--output-dir", dir.File("out"), "--quiet",
                            "--report", "markdown=" + dir.File("run.md"), "--report",
                            "junit=" + dir.File("run.xml")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(testing::ReadTextFile(dir.File("run.md")).find("mlp"), std::string::npos);
  EXPECT_NE(testing::ReadTextFile(dir.File("run.xml")).find("<testsuite"), std::string::npos);
  EXPECT_EQ(testing::RunCli({"run", "configs/default.yaml", "--report", "pdf"}).exit_code, 2);
}

}  // namespace
}  // namespace etbench

namespace etbench {
namespace {

// A real baseline of mlp made twice as fast, so that this machine's run is
// a clear regression against it; `host` replaces the recorded host name.
std::string HalvedBaseline(const testing::TempDir& dir, const std::string& host) {
  const std::string name = host.empty() ? "here" : host;
  auto run = RunCli({"run", "configs/default.yaml", "--model", "mlp", "--iterations", "5",
                     "--output-dir", dir.File("base-" + name), "--quiet"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  const std::string path = dir.File(name + ".json");
  EXPECT_EQ(RunCli({"baseline", "save", dir.File("base-" + name + "/results.json"), "--path", path})
                .exit_code,
            0);
  auto baseline = LoadBaseline(path);
  EXPECT_TRUE(baseline.ok());
  for (Metric& m : baseline->metrics.metrics) {
    if (m.key.kind == MetricKind::kEvent) {
      for (double& x : m.samples) x *= 0.5;
    }
  }
  if (!host.empty()) baseline->metrics.context["host"] = host;
  EXPECT_TRUE(SaveBaseline(path, *baseline, /*force=*/true).ok());
  return path;
}

TEST(GateCommandTest, OtherMachineAdvisoryShowsVerdictsButExitsZero) {
  testing::TempDir dir;
  const std::string elsewhere = HalvedBaseline(dir, "elsewhere");
  const std::vector<std::string> gate = {"gate",         "configs/default.yaml", "--model",
                                         "mlp",          "--iterations",         "5",
                                         "--baseline",   elsewhere,              "--color",
                                         "never"};
  auto strict = RunCli(gate);
  EXPECT_EQ(strict.exit_code, 1) << strict.out << strict.err;
  std::vector<std::string> advisory = gate;
  advisory.insert(advisory.end(), {"--other-machine", "advisory"});
  auto advice = RunCli(advisory);
  EXPECT_EQ(advice.exit_code, 0) << advice.err;
  EXPECT_NE(advice.out.find("REGRESSION"), std::string::npos) << advice.out;
  EXPECT_NE(advice.err.find("etbench gate: advisory: the baseline was measured on another "
                            "machine (host 'elsewhere'"),
            std::string::npos)
      << advice.err;
  EXPECT_NE(advice.err.find("exit 1 becomes 0"), std::string::npos) << advice.err;

  // A baseline of this very machine still gates.
  std::vector<std::string> here = advisory;
  here[7] = HalvedBaseline(dir, "");
  auto gated = RunCli(here);
  EXPECT_EQ(gated.exit_code, 1) << gated.out << gated.err;
  advisory.back() = "sometimes";
  EXPECT_EQ(RunCli(advisory).err, "etbench gate: --other-machine must be gate or advisory\n");
}

TEST(GateCommandTest, BaselineOfAnotherSuiteIsAnErrorAnotherDeviceAWarning) {
  testing::TempDir dir;
  const std::string path = HalvedBaseline(dir, "");
  auto baseline = LoadBaseline(path);
  ASSERT_TRUE(baseline.ok());
  baseline->metrics.context["device"] = "pixel-9";
  ASSERT_TRUE(SaveBaseline(path, *baseline, /*force=*/true).ok());
  auto warned = RunCli({"gate", "configs/default.yaml", "--model", "mlp", "--iterations", "5",
                        "--baseline", path, "--color", "never"});
  EXPECT_EQ(warned.exit_code, 1) << warned.err;
  EXPECT_NE(warned.err.find("etbench gate: WARNING: baseline was recorded on device 'pixel-9'"),
            std::string::npos)
      << warned.err;

  baseline->metrics.context["suite"] = "nightly-big";
  ASSERT_TRUE(SaveBaseline(path, *baseline, /*force=*/true).ok());
  auto refused = RunCli({"gate", "configs/default.yaml", "--model", "mlp", "--iterations", "5",
                         "--baseline", path});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_EQ(refused.err,
            "etbench gate: " + path + ": baseline is for suite 'nightly-big', not 'default'\n");
}

}  // namespace
}  // namespace etbench
