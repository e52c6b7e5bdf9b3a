// `etbench gate` in-process with doubles (fake device program, manual clock,
// fixed environment, Ctrl-C flag): the command's flags, output and exit codes
// without the runtime.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
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

TEST_F(GateWithFakesTest, SustainedNightsOutOfRangeIsAUsageErrorBeforeAnyModelRuns) {
  const int runs = device_.runs();
  const CliRun r = RunCliWith(Gate({"--baseline", "history", "--history",
                                    dir_.File("history.db"), "--sustained-nights", "11"}),
                              device_.Deps());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "etbench gate: --sustained-nights must be 0..10\n");
  EXPECT_EQ(device_.runs(), runs);
  const CliRun help = RunCliWith({"gate", "--help"}, device_.Deps());
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_THAT(help.out, HasSubstr("--sustained-nights arg (=3)"));
}

// "Work thrown away late": a history that cannot take the run fails before
// the suite runs (on a device, hours), with one line and exit 2.
TEST_F(GateWithFakesTest, AnUnusableHistoryFailsBeforeAnyModelRuns) {
  testing::WriteTextFile(dir_.File("notes.txt"),
                         "not a database at all, " + std::string(4000, 'x'));
  const std::vector<std::pair<std::string, std::string>> histories = {
      {dir_.File("notes.txt"), "not a database"},              // not SQLite
      {dir_.File("notes.txt/history.db"), "cannot open"},      // under a file
      {"postgresql://127.0.0.1:1/perf?connect_timeout=2",      // refused
       "postgresql://127.0.0.1:1/perf: cannot connect"},
  };
  for (const auto& [history, why] : histories) {
    const CliRun gate =
        RunCliWith(Gate({"--baseline", "history", "--history", history}), device_.Deps());
    EXPECT_EQ(gate.exit_code, 2) << history;
    EXPECT_EQ(testing::LineCount(gate.err), 1u) << gate.err;
    EXPECT_THAT(gate.err, StartsWith("etbench gate: "));
    EXPECT_THAT(gate.err, HasSubstr(why));
    const CliRun run = RunCliWith({"run", device_.suite(), "--history", history}, device_.Deps());
    EXPECT_EQ(run.exit_code, 2) << history;
    EXPECT_EQ(testing::LineCount(run.err), 1u) << run.err;
    EXPECT_THAT(run.err, StartsWith("etbench run: "));
    EXPECT_THAT(run.err, HasSubstr(why));
    EXPECT_EQ(device_.runs(), 0) << history;
    EXPECT_FALSE(std::filesystem::exists(dir_.File("out/s/results.json"))) << history;
  }
  // Gating against a baseline file, --history is checked first as well.
  RecordBaseline();
  const int runs = device_.runs();
  const CliRun gate = RunCliWith(Gate({"--history", dir_.File("notes.txt")}), device_.Deps());
  EXPECT_EQ(gate.exit_code, 2);
  EXPECT_THAT(gate.err, HasSubstr("not a database"));
  EXPECT_EQ(device_.runs(), runs);
}

// On the nights a history is too short to judge, --report json and csv
// (on stdout or to a file) are what a judged night writes, with no rows:
// the JSON's outcome is the night's and its not_judged says why; the
// terminal keeps the run's summary.
TEST_F(GateWithFakesTest, ANightNotJudgedWritesAComparisonWithNoRowsForMachineReaders) {
  const std::string history = dir_.File("history.db");
  int nights = 0;
  const auto night = [&](std::vector<std::string> reports) {
    std::vector<std::string> extra{"--baseline", "history", "--history", history, "--sessions",
                                   "1", "--no-confirm", "--label",
                                   "night=" + std::to_string(++nights)};
    for (const std::string& r : reports) extra.insert(extra.end(), {"--report", r});
    return RunCliWith(Gate(extra), device_.Deps());
  };
  const CliRun first = night({"json"});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_THAT(first.err, HasSubstr("history too short: 0 of 5 nights"));
  const nlohmann::json doc = nlohmann::json::parse(first.out);  // stdout: the JSON alone
  EXPECT_EQ(doc["schema_version"], 1);
  EXPECT_EQ(doc["outcome"], "pass");
  EXPECT_TRUE(doc["metrics"].empty());
  EXPECT_EQ(doc["counts"]["regressions"], 0);
  EXPECT_EQ(doc["candidate_context"]["suite"], "s");
  ASSERT_TRUE(doc["not_judged"].is_object()) << first.out;
  EXPECT_EQ(doc["not_judged"]["reason"], "history_too_short");
  EXPECT_EQ(doc["not_judged"]["nights"], 0);
  EXPECT_EQ(doc["not_judged"]["nights_needed"], 5);
  EXPECT_THAT(doc["not_judged"]["message"].get<std::string>(),
              StartsWith("history too short: 0 of 5 nights of s"));

  const std::string json = dir_.File("night.json");
  const std::string csv = dir_.File("night.csv");
  const CliRun second = night({"csv", "json=" + json, "tsv=" + dir_.File("night.tsv")});
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_THAT(second.out, StartsWith("model,block,kind,name,"));  // the comparison's header...
  EXPECT_EQ(testing::LineCount(second.out), 1u) << second.out;   // ...and no rows
  auto read = ReadComparisonFile(json);
  ASSERT_TRUE(read.ok()) << read.error().message;
  EXPECT_TRUE(read->rows.empty());
  ASSERT_TRUE(read->not_judged.has_value());
  EXPECT_EQ(read->not_judged->nights, 1u);
  EXPECT_THAT(testing::ReadTextFile(dir_.File("night.tsv")), StartsWith("model\tblock\t"));

  // The terminal still shows the run's summary; a Markdown file is the run's.
  const CliRun third = night({"markdown=" + dir_.File("night.md")});
  ASSERT_EQ(third.exit_code, 0) << third.err;
  EXPECT_THAT(third.out, HasSubstr("execute p50"));
  EXPECT_THAT(third.out, HasSubstr("results: " + dir_.File("out/s/results.json")));
  EXPECT_THAT(testing::ReadTextFile(dir_.File("night.md")),
              HasSubstr("not judged: history too short: 2 of 5 nights"));

  // A judged night writes the same document, with its rows and not_judged null.
  for (int n = 4; n <= 5; ++n) ASSERT_EQ(night({}).exit_code, 0);
  const CliRun judged = night({"json"});
  EXPECT_NE(judged.exit_code, 2) << judged.err;
  const nlohmann::json judged_doc = nlohmann::json::parse(judged.out);
  EXPECT_TRUE(judged_doc["not_judged"].is_null());
  EXPECT_FALSE(judged_doc["metrics"].empty());
}

// A night of several sessions joins the history whole while its results
// file holds the first session: the line that says it was recorded says so.
TEST_F(GateWithFakesTest, TheRecordedLineCountsTheNightsSessions) {
  const std::string history = dir_.File("history.db");
  const CliRun three = RunCliWith(Gate({"--baseline", "history", "--history", history,
                                        "--sessions", "3", "--no-confirm"}),
                                  device_.Deps());
  ASSERT_EQ(three.exit_code, 0) << three.err;
  EXPECT_THAT(three.err, HasSubstr("etbench gate: added the night's 3 sessions (the first: " +
                                   dir_.File("out/s/results.json") + ") to the history"));
  // The summary of a night not judged is the first session's, and says so.
  EXPECT_THAT(three.out, HasSubstr("(session 1 of the night's 3; sessions 2-3 under " +
                                   dir_.File("out/s") + "/sessions/; all 3 are in the history)"));
  const CliRun one = RunCliWith(Gate({"--baseline", "history", "--history", history,
                                      "--sessions", "1", "--no-confirm", "--label", "night=2"}),
                                device_.Deps());
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_THAT(one.err, HasSubstr("etbench gate: added " + dir_.File("out/s/results.json") +
                                 " to the history"));
  EXPECT_THAT(one.out, Not(HasSubstr("session 1 of")));
}

// Every file under `dir` with its contents ("" when `dir` does not exist).
std::map<std::string, std::string> FilesUnder(const std::string& dir) {
  std::map<std::string, std::string> files;
  if (!std::filesystem::exists(dir)) return files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) files[entry.path().string()] = testing::ReadTextFile(entry.path().string());
  }
  return files;
}

// "Work thrown away late": a --baseline file that cannot be read, or is no
// baseline, fails before the suite runs, with the message the comparison
// would have given, and leaves last night's results (and the history) as
// they were.
TEST_F(GateWithFakesTest, ABadBaselineFileFailsBeforeAnyModelRunsAndKeepsTheResults) {
  RecordBaseline();
  const std::string out_dir = dir_.File("out");
  const auto before = FilesUnder(out_dir);
  ASSERT_FALSE(before.empty());
  testing::WriteTextFile(dir_.File("README.md"), "# etbench\n\nNot a baseline.\n");
  const std::string history = dir_.File("history.db");
  const std::vector<std::pair<std::string, std::string>> baselines = {
      {dir_.File("nonexist.json"), dir_.File("nonexist.json") + ": cannot open"},
      {dir_.File("README.md"), dir_.File("README.md") + ": not valid JSON: 1:1: "},
      {device_.suite(), device_.suite() + ": not valid JSON: 1:1: "},
  };
  const int runs = device_.runs();
  for (const auto& [baseline, why] : baselines) {
    for (const bool with_history : {false, true}) {
      std::vector<std::string> extra{"--baseline", baseline};
      if (with_history) extra.insert(extra.end(), {"--history", history});
      const CliRun r = RunCliWith(Gate(extra), device_.Deps());
      EXPECT_EQ(r.exit_code, 2) << baseline;
      EXPECT_EQ(testing::LineCount(r.err), 1u) << r.err;
      EXPECT_THAT(r.err, StartsWith("etbench gate: " + why)) << r.err;
      EXPECT_EQ(r.out, "");
      EXPECT_EQ(device_.runs(), runs) << baseline;
      EXPECT_EQ(FilesUnder(out_dir), before) << baseline;
      EXPECT_FALSE(std::filesystem::exists(history)) << baseline;
    }
  }
  // The same file, read once before the run, is what the gate compares with.
  const CliRun good =
      RunCliWith(Gate({"--baseline", dir_.File("baselines/fake/s.json")}), device_.Deps());
  EXPECT_EQ(good.exit_code, 0) << good.err;
  EXPECT_GT(device_.runs(), runs);
}

}  // namespace
}  // namespace etbench
