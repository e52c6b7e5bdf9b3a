// `etbench history …` in-process, on real SQLite files and results files.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/cli_test_util.h"
#include "etbench/base/units.h"
#include "etbench/results/results.h"
#include "history/history_test_util.h"
#include "history/silent_server.h"
#include "support/test_support.h"

namespace etbench {
namespace {

using testing::RunCli;

class HistoryCommandTest : public ::testing::Test {
 protected:
  // Results files of runs 0..n-1; the convolution `factor` slower from
  // `from`; `cv` and `extra_operators` as testing::SyntheticRun's (0: its own).
  std::vector<std::string> WriteRuns(int n, double factor, int from, double cv = 0,
                                     int extra_operators = 0) {
    std::vector<std::string> paths;
    for (int i = 0; i < n; ++i) {
      testing::SyntheticRun run;
      run.index = i;
      run.conv_factor = i >= from ? factor : 1.0;
      if (cv > 0) run.cv = cv;
      if (extra_operators > 0) run.extra_operators = extra_operators;
      const std::string path = dir_.File("r" + std::to_string(i) + ".json");
      EXPECT_TRUE(results::WriteResultsFile(path, testing::MakeSyntheticResults(run)).ok());
      paths.push_back(path);
    }
    return paths;
  }
  std::vector<std::string> Args(std::vector<std::string> args) {
    args.push_back("--history");
    args.push_back(db_);
    return args;
  }

  testing::TempDir dir_;
  std::string db_ = dir_.File("h/history.db");
};

TEST_F(HistoryCommandTest, AddTwiceStoresOneRunAndListShowsIt) {
  const auto paths = WriteRuns(1, 1.0, 0);
  auto first = RunCli(Args({"history", "add", paths[0], "--commit", "abc123", "--branch", "dev"}));
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_NE(first.err.find("added " + paths[0]), std::string::npos);
  auto second = RunCli(Args({"history", "add", paths[0]}));
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_NE(second.err.find("already stored: " + paths[0]), std::string::npos);
  auto list = RunCli(Args({"history", "list", "--format", "json"}));
  ASSERT_EQ(list.exit_code, 0) << list.err;
  const auto runs = nlohmann::json::parse(list.out);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0]["commit"], "abc123");
  EXPECT_EQ(runs[0]["branch"], "dev");
  EXPECT_EQ(runs[0]["device"], "dev1");
}

TEST_F(HistoryCommandTest, ListJsonOfABranchThatIsNotUtf8HasAReplacementCharacter) {
  // A branch given on the command line is stored as given; its JSON shows
  // the bad byte as U+FFFD (it was an escaping library exception, exit 2).
  const auto paths = WriteRuns(1, 1.0, 0);
  ASSERT_EQ(RunCli(Args({"history", "add", paths[0], "--branch", "b\xffx"})).exit_code, 0);
  auto list = RunCli(Args({"history", "list", "--format", "json"}));
  ASSERT_EQ(list.exit_code, 0) << list.err;
  const auto runs = nlohmann::json::parse(list.out);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0]["branch"], "b\xef\xbf\xbdx");
}

TEST_F(HistoryCommandTest, ListHasAHeaderRowAndAlignedColumns) {
  const auto paths = WriteRuns(2, 1.0, 0);
  ASSERT_EQ(RunCli(Args({"history", "add", paths[0], paths[1], "--commit", "abc123", "--branch",
                         "dev"})).exit_code, 0);
  auto list = RunCli(Args({"history", "list"}));
  ASSERT_EQ(list.exit_code, 0) << list.err;
  std::vector<std::string> lines;
  std::istringstream in(list.out);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 4u) << list.out;  // header, two runs, the count
  EXPECT_EQ(lines[0].rfind("time ", 0), 0u) << lines[0];
  for (const char* column : {"run", "suite", "device", "host", "branch@commit", "status"}) {
    EXPECT_NE(lines[0].find(std::string("  ") + column + " "), std::string::npos) << column;
  }
  // Each column starts where its header does.
  EXPECT_EQ(lines[1].find("dev@abc123"), lines[0].find("branch@commit"));
  EXPECT_EQ(lines[1].size(), lines[0].size());
  EXPECT_EQ(lines[3], "2 runs");
}

TEST_F(HistoryCommandTest, ReadingAHistoryThatDoesNotExistIsAnErrorAndCreatesNothing) {
  // A mistyped --history used to create an empty SQLite file and answer
  // "no metric matches" (show) or "0 runs" (detect) with exit 0.
  const std::string missing = dir_.File("typo/histroy.db");
  const std::vector<std::vector<std::string>> reads = {
      {"history", "list"},
      {"history", "show", "*Method::execute"},
      {"history", "detect"},
      {"history", "ack", "0123456789ab"},
      {"history", "report", "--format", "markdown"}};
  for (std::vector<std::string> args : reads) {
    args.push_back("--history");
    args.push_back(missing);
    auto r = RunCli(args);
    EXPECT_EQ(r.exit_code, 2) << args[1] << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << args[1] << ": " << r.out;
    EXPECT_EQ(r.err, "etbench history: " + missing +
                         ": no such history database (runs are recorded by 'etbench gate "
                         "--baseline history', 'etbench run --history' or 'etbench history "
                         "add')\n")
        << args[1];
    EXPECT_FALSE(std::filesystem::exists(missing)) << args[1];
    EXPECT_FALSE(std::filesystem::exists(dir_.File("typo"))) << args[1];
  }
  // Adding creates it; then every read works.
  const auto paths = WriteRuns(1, 1.0, 0);
  ASSERT_EQ(RunCli({"history", "add", paths[0], "--history", missing}).exit_code, 0);
  auto list = RunCli({"history", "list", "--history", missing});
  EXPECT_EQ(list.exit_code, 0) << list.err;
  EXPECT_NE(list.out.find("1 run"), std::string::npos) << list.out;
}

TEST_F(HistoryCommandTest, ShowPrintsOneCsvRowPerRunOfTheMatchingMetric) {
  const auto paths = WriteRuns(4, 1.0, 0);
  std::vector<std::string> add = {"history", "add"};
  add.insert(add.end(), paths.begin(), paths.end());
  ASSERT_EQ(RunCli(Args(add)).exit_code, 0);
  auto show = RunCli(Args({"history", "show", "*Method::execute", "--format", "csv", "--last", "3"}));
  ASSERT_EQ(show.exit_code, 0) << show.err;
  EXPECT_EQ(testing::LineCount(show.out), 4u);  // header + 3 runs
  EXPECT_EQ(show.out.rfind("metric,unit,run_id,commit,branch,time,device,p50,n,p10\n", 0), 0u);
  EXPECT_NE(show.out.find("net/Execute/Method::execute,ms,"), std::string::npos);
  EXPECT_NE(show.out.find(",c3,main,"), std::string::npos);
  EXPECT_EQ(show.out.find(",c0,"), std::string::npos);
}

TEST_F(HistoryCommandTest, AckRefusesWhatIsNotAChangePointId) {
  // "history ack deadbeef" said "acknowledged deadbeef", exit 0, and the
  // alert it was meant for stayed open.
  const auto paths = WriteRuns(1, 1.0, 0);
  ASSERT_EQ(RunCli(Args({"history", "add", paths[0]})).exit_code, 0);
  for (const std::string id : {"deadbeef", "777C48B63CFC", "777c48b63cfcd", "777c48b63cfg"}) {
    auto r = RunCli(Args({"history", "ack", "777c48b63cfc", id}));
    EXPECT_EQ(r.exit_code, 2) << id;
    EXPECT_EQ(r.err, "etbench history: '" + id +
                         "' is not a change point id (12 hex digits, as etbench history detect "
                         "prints them)\n");
  }
  // A well-formed id still has to be one of this history's change points
  // (AckRefusesAnIdOfNoChangePointInTheHistory).
  auto none = RunCli(Args({"history", "ack", "777c48b63cfc"}));
  EXPECT_EQ(none.exit_code, 2) << none.err;
  EXPECT_EQ(none.err, "etbench history: no change point with id 777c48b63cfc in " + db_ +
                          " (etbench history detect lists the ids)\n");
}

TEST_F(HistoryCommandTest, DetectRefusesASinceThatIsNeitherADateNorACommitOfTheHistory) {
  // Each of these printed "0 change points, 0 open regressions" and exit 0
  // on a history with open regressions: a typo in CI passed a failing night.
  const auto paths = WriteRuns(30, 1.08, 20);
  std::vector<std::string> add = {"history", "add"};
  add.insert(add.end(), paths.begin(), paths.end());
  ASSERT_EQ(RunCli(Args(add)).exit_code, 0);
  ASSERT_EQ(RunCli(Args({"history", "detect"})).exit_code, 1);
  for (const std::string since : {"garbage", "2026-13-45", "deadbeefcafe", "2026-02-30"}) {
    auto r = RunCli(Args({"history", "detect", "--since", since}));
    EXPECT_EQ(r.exit_code, 2) << since;
    EXPECT_EQ(r.out, "") << since;
    EXPECT_EQ(r.err, "etbench history: --since '" + since +
                         "' is neither a date (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ, UTC) nor a "
                         "commit (or commit prefix) of a run in the history\n");
  }
  // A date or a commit (prefix) of a run still selects from there on.
  for (const std::string since : {"2026-01-01", "2026-01-01T00:00:00Z", "c1", "c20"}) {
    auto r = RunCli(Args({"history", "detect", "--since", since}));
    EXPECT_EQ(r.exit_code, 1) << since << ": " << r.err;
  }
  EXPECT_EQ(RunCli(Args({"history", "detect", "--since", "2026-01-02"})).exit_code, 0);
  auto help = RunCli({"history", "detect", "--help"});
  EXPECT_NE(help.out.find("anything else is an error"), std::string::npos) << help.out;
}

TEST_F(HistoryCommandTest, AckRefusesAnIdOfNoChangePointInTheHistory) {
  // "ack 000000000000" said "acknowledged 000000000000", exit 0: a
  // mistyped id left the real change point open without a hint.
  const auto paths = WriteRuns(30, 1.08, 20);
  std::vector<std::string> add = {"history", "add"};
  add.insert(add.end(), paths.begin(), paths.end());
  ASSERT_EQ(RunCli(Args(add)).exit_code, 0);
  auto detect = RunCli(Args({"history", "detect", "--report", "json"}));
  ASSERT_EQ(detect.exit_code, 1) << detect.err;
  const auto groups = nlohmann::json::parse(detect.out);
  std::vector<std::string> ids;
  for (const auto& cp : groups[0]["change_points"]) {
    ids.push_back(cp["id"]);
  }
  ASSERT_FALSE(ids.empty());
  const std::string refused = "etbench history: no change point with id 000000000000 in " + db_ +
                              " (etbench history detect lists the ids)\n";
  auto typo = RunCli(Args({"history", "ack", "000000000000"}));
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_EQ(typo.out, "");
  EXPECT_EQ(typo.err, refused);
  // With a real id beside it: refused before anything is stored.
  auto mixed = RunCli(Args({"history", "ack", ids[0], "000000000000"}));
  EXPECT_EQ(mixed.exit_code, 2);
  EXPECT_EQ(mixed.err, refused);
  EXPECT_EQ(RunCli(Args({"history", "detect"})).exit_code, 1);
  // Real ids are acknowledged as before; again, nothing changes.
  std::vector<std::string> ack = {"history", "ack"};
  ack.insert(ack.end(), ids.begin(), ids.end());
  auto ok = RunCli(Args(ack));
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(ok.err.rfind("etbench history: acknowledged " + ids[0] + "\n", 0), 0u) << ok.err;
  EXPECT_EQ(RunCli(Args({"history", "detect"})).exit_code, 0);
  auto again = RunCli(Args({"history", "ack", ids[0], "--note", "later"}));
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.err, "etbench history: already acknowledged " + ids[0] + "\n");
  EXPECT_EQ(RunCli(Args({"history", "detect"})).exit_code, 0);
}

TEST_F(HistoryCommandTest, AckTakesAnIdDetectFoundWithOtherOptions) {
  // ack has none of detect's options: a part's change that only
  // --every-part reports is still this history's and acknowledged.
  std::vector<std::string> add = {"history", "add"};
  for (const std::string& path : WriteRuns(30, 1.015, 10, 0.005, 10)) add.push_back(path);
  ASSERT_EQ(RunCli(Args(add)).exit_code, 0);
  auto every = RunCli(Args({"history", "detect", "--every-part", "--report", "json"}));
  const auto cps = nlohmann::json::parse(every.out)[0]["change_points"];
  ASSERT_FALSE(cps.empty()) << every.out;
  const std::string id = cps[0]["id"];
  auto ack = RunCli(Args({"history", "ack", id}));
  EXPECT_EQ(ack.exit_code, 0) << ack.err;
  EXPECT_EQ(ack.err, "etbench history: acknowledged " + id + "\n");
}

TEST_F(HistoryCommandTest, ShowPrintsTheLowerDecileTheGateAndDetectJudgeBesideTheMedian) {
  // The nightly gate's rows say "p10 46.83 us -> 52.94 us"; show printed
  // only the median, so a user could not find the gate's numbers in it.
  const auto paths = WriteRuns(1, 1.0, 0);
  ASSERT_EQ(RunCli(Args({"history", "add", paths[0]})).exit_code, 0);
  const auto results = results::ReadResultsFile(paths[0]);
  ASSERT_TRUE(results.ok());
  const PerfData* execute = nullptr;
  for (const auto& block : results->models.front().blocks) {
    for (const auto& e : block.events) {
      if (e.name == "Method::execute") execute = &e.perf_data;
    }
  }
  ASSERT_NE(execute, nullptr);
  std::vector<double> sorted = execute->raw;
  std::sort(sorted.begin(), sorted.end());
  auto json = RunCli(Args({"history", "show", "*Method::execute", "--format", "json"}));
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto point = nlohmann::json::parse(json.out)[0]["points"][0];
  EXPECT_LT(point["p10"].get<double>(), point["p50"].get<double>());
  EXPECT_GE(point["p10"].get<double>(), sorted.front());
  EXPECT_LE(point["p10"].get<double>(), sorted[sorted.size() / 5]);
  auto text = RunCli(Args({"history", "show", "*Method::execute"}));
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("(per run: p10 of its samples, what detect judges; the gate's night "
                          "value is the lower decile of its sessions' p10s; p50)\n"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("  p10 " + FormatQuantity(point["p10"].get<double>(), "ms") + "  p50 " +
                          FormatQuantity(point["p50"].get<double>(), "ms") + "  n="),
            std::string::npos)
      << text.out;
}

TEST_F(HistoryCommandTest, DetectFailsOnASlowdownUntilItIsAcknowledged) {
  const auto paths = WriteRuns(30, 1.08, 20);
  std::vector<std::string> add = {"history", "add"};
  add.insert(add.end(), paths.begin(), paths.end());
  ASSERT_EQ(RunCli(Args(add)).exit_code, 0);
  const std::string md = dir_.File("detect.md");
  auto detect = RunCli(Args({"history", "detect", "--report", "json", "--report", "markdown=" + md}));
  ASSERT_EQ(detect.exit_code, 1) << detect.err;
  const std::string markdown = testing::ReadTextFile(md);
  EXPECT_EQ(markdown.rfind("### default on dev1: 30 runs, 4 metrics tested", 0), 0u) << markdown;
  EXPECT_NE(markdown.find("| `net/Execute/native_call_convolution.out#0` | `c19..c20` |"),
            std::string::npos)
      << markdown;
  const auto groups = nlohmann::json::parse(detect.out);
  ASSERT_EQ(groups.size(), 1u);
  std::vector<std::string> ack = {"history", "ack"};
  bool conv = false;
  for (const auto& cp : groups[0]["change_points"]) {
    EXPECT_EQ(cp["commit_before"], "c19");
    EXPECT_EQ(cp["commit_after"], "c20");
    conv |= cp["metric"] == "net/Execute/native_call_convolution.out#0";
    ack.push_back(cp["id"]);
  }
  EXPECT_TRUE(conv);
  ASSERT_EQ(RunCli(Args(ack)).exit_code, 0);
  auto after = RunCli(Args({"history", "detect"}));
  EXPECT_EQ(after.exit_code, 0) << after.err;
  EXPECT_NE(after.out.find("regression (acknowledged)"), std::string::npos);
  // --since after the change: nothing to report.
  auto since = RunCli(Args({"history", "detect", "--since", "c25", "--report", "json"}));
  EXPECT_EQ(since.exit_code, 0);
  EXPECT_TRUE(nlohmann::json::parse(since.out)[0]["change_points"].empty());
}

TEST_F(HistoryCommandTest, SinceLeavesOutOlderPartsNotCountedToo) {
  // The convolution +1.5% from run 10: 0.015 ms of a 2.25 ms Method::execute
  // (0.7%), a part's change too small to count. --since after it leaves it
  // out of the count as it leaves older change points out of the list.
  std::vector<std::string> add = {"history", "add"};
  for (const std::string& path : WriteRuns(30, 1.015, 10, 0.005, 10)) add.push_back(path);
  ASSERT_EQ(RunCli(Args(add)).exit_code, 0);
  auto all = RunCli(Args({"history", "detect", "--report", "json"}));
  ASSERT_EQ(all.exit_code, 0) << all.err;
  const auto groups = nlohmann::json::parse(all.out);
  EXPECT_TRUE(groups[0]["change_points"].empty()) << all.out;
  EXPECT_GE(groups[0].value("parts_not_counted", 0), 1) << all.out;
  auto since = RunCli(Args({"history", "detect", "--since", "c20", "--report", "json"}));
  ASSERT_EQ(since.exit_code, 0) << since.err;
  EXPECT_FALSE(nlohmann::json::parse(since.out)[0].contains("parts_not_counted")) << since.out;
}

TEST_F(HistoryCommandTest, ReportShowsAMachineShiftThatFailsUntilAcknowledged) {
  // Every operator (10 of them) 5% slower from run 22 (c22) to the newest:
  // a machine shift or a code change that slowed everything, open until
  // acknowledged; no metric has a change point of its own.
  std::vector<std::string> add = {"history", "add"};
  for (int i = 0; i < 30; ++i) {
    testing::SyntheticRun run;
    run.index = i;
    run.extra_operators = 8;
    run.load_factor = i >= 22 ? 1.05 : 1.0;
    const std::string path = dir_.File("r" + std::to_string(i) + ".json");
    ASSERT_TRUE(results::WriteResultsFile(path, testing::MakeSyntheticResults(run)).ok());
    add.push_back(path);
  }
  ASSERT_EQ(RunCli(Args(add)).exit_code, 0);
  auto detect = RunCli(Args({"history", "detect", "--report", "json"}));
  ASSERT_EQ(detect.exit_code, 1) << detect.err;
  const auto groups = nlohmann::json::parse(detect.out);
  ASSERT_EQ(groups[0]["machine_shifts"].size(), 1u) << detect.out;
  EXPECT_TRUE(groups[0]["change_points"].empty()) << detect.out;
  const std::string id = groups[0]["machine_shifts"][0]["id"];

  const std::string md = dir_.File("report.md"), html = dir_.File("report.html");
  ASSERT_EQ(RunCli(Args({"history", "report", "--format", "markdown", "-o", md})).exit_code, 0);
  ASSERT_EQ(RunCli(Args({"history", "report", "--format", "html", "-o", html})).exit_code, 0);
  std::string text = testing::ReadTextFile(md);
  EXPECT_EQ(text.rfind("### ❌ default on dev1: 1 open regression, 0 change points, 1 machine "
                       "shift in 30 runs\n", 0), 0u) << text;
  EXPECT_EQ(text.find("#### Open change points"), std::string::npos) << text;
  EXPECT_NE(text.find("| `" + id + "` | `c21..c22` | **+"), std::string::npos) << text;
  EXPECT_NE(text.find("| **FAILS until acknowledged** | machine shift or a code change that "
                      "slowed every operator |"), std::string::npos) << text;
  const std::string page = testing::ReadTextFile(html);
  EXPECT_NE(page.find("<tr class=\"machine-shift fails\">"), std::string::npos);
  EXPECT_NE(page.find("class=\"machine-line\""), std::string::npos);

  ASSERT_EQ(RunCli(Args({"history", "ack", id})).exit_code, 0);
  EXPECT_EQ(RunCli(Args({"history", "detect"})).exit_code, 0);
  ASSERT_EQ(RunCli(Args({"history", "report", "--format", "markdown", "-o", md})).exit_code, 0);
  text = testing::ReadTextFile(md);
  EXPECT_EQ(text.rfind("### ✅ default on dev1: 0 open regressions, ", 0), 0u) << text;
  EXPECT_NE(text.find("| acknowledged | machine shift or a code change"), std::string::npos)
      << text;
}

// The main job's flow on the built-in runtime: the first five gates of a
// machine only record its history (showing the run's summary and writing
// the reports), the next ones judge the night against those nights.
TEST_F(HistoryCommandTest, GateAgainstHistoryRecordsFiveNightsThenJudgesTheNight) {
  const std::string suite = dir_.File("suite.yaml");
  testing::WriteTextFile(suite,
                         "suite: hist\nrunner: builtin\nwarmup: 1\niterations: 5\n"
                         "repetitions: 2\nmodels: [" +
                             testing::SourcePath("configs/models/mlp.yaml") + "]\n"
                             "output_dir: " + dir_.File("out") + "\n");
  const std::string md = dir_.File("night.md");
  for (int k = 1; k <= 5; ++k) {
    auto baseline = RunCli(Args({"gate", suite, "--baseline", "history", "--label", "device=d",
                                 "--report", "markdown=" + md}));
    ASSERT_EQ(baseline.exit_code, 0) << baseline.err;
    EXPECT_NE(baseline.err.find("history too short: " + std::to_string(k - 1) +
                                " of 5 nights of hist on this machine"),
              std::string::npos)
        << baseline.err;
    EXPECT_NE(baseline.err.find("recorded in " + db_), std::string::npos);
    EXPECT_NE(baseline.out.find("mlp"), std::string::npos) << baseline.out;  // the run's summary
    EXPECT_NE(testing::ReadTextFile(md).find("mlp"), std::string::npos);  // the run's report
    // ...which says it was not judged, in the stderr line's words.
    EXPECT_NE(testing::ReadTextFile(md).find("\n> not judged: history too short: " +
                                             std::to_string(k - 1) + " of 5 nights of hist"),
              std::string::npos)
        << testing::ReadTextFile(md);
  }
  auto gated = RunCli(Args({"gate", suite, "--baseline", "history", "--label", "device=d"}));
  EXPECT_NE(gated.exit_code, 2) << gated.err;
  EXPECT_NE(gated.out.find("history: 5 earlier runs (no change point before tonight)"),
            std::string::npos)
      << gated.out;
  EXPECT_NE(gated.err.find("judged against 5 earlier nights"), std::string::npos) << gated.err;
  auto list = RunCli(Args({"history", "list", "--format", "json"}));
  ASSERT_EQ(list.exit_code, 0);
  EXPECT_EQ(nlohmann::json::parse(list.out).size(), 6u);  // every run joined the history
}

TEST_F(HistoryCommandTest, BaselineUpdateFromHistoryTakesTheRunsSinceTheChange) {
  const auto paths = WriteRuns(30, 1.08, 20);
  std::vector<std::string> add = {"history", "add"};
  add.insert(add.end(), paths.begin(), paths.end());
  ASSERT_EQ(RunCli(Args(add)).exit_code, 0);
  const std::string suite = dir_.File("default.yaml");
  testing::WriteTextFile(suite, "suite: default\nrunner: builtin\nmodels: [" +
                                    testing::SourcePath("configs/models/mlp.yaml") + "]\n");
  const std::string out = dir_.File("b.json");
  auto update = RunCli({"baseline", "update", suite, "--from-history", db_, "--path", out});
  ASSERT_EQ(update.exit_code, 0) << update.err;
  EXPECT_NE(update.err.find("10 runs since the change point at c20"), std::string::npos)
      << update.err;
  auto show = RunCli({"baseline", "show", out});
  ASSERT_EQ(show.exit_code, 0) << show.err;
  EXPECT_NE(show.out.find("native_call_convolution.out"), std::string::npos);
}

TEST_F(HistoryCommandTest, BadInputIsOneLineAndExitTwo) {
  const auto paths = WriteRuns(1, 1.0, 0);
  auto date = RunCli(Args({"history", "add", paths[0], "--date", "yesterday"}));
  EXPECT_EQ(date.exit_code, 2);
  EXPECT_EQ(testing::LineCount(date.err), 1u);
  testing::WriteTextFile(dir_.File("bad.json"), "{");
  auto bad = RunCli(Args({"history", "add", dir_.File("bad.json")}));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("bad.json"), std::string::npos);
  EXPECT_EQ(RunCli({"history", "frobnicate"}).exit_code, 2);
  auto help = RunCli({"history", "detect", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("Exit codes"), std::string::npos);
  EXPECT_NE(help.out.find("--load-cutoff"), std::string::npos);
  EXPECT_NE(help.out.find("--no-machine-level"), std::string::npos);
  EXPECT_NE(help.out.find("--fail-on-machine-shift"), std::string::npos);
  auto cutoff = RunCli(Args({"history", "detect", "--load-cutoff", "-1"}));
  EXPECT_EQ(cutoff.exit_code, 2);
  EXPECT_EQ(testing::LineCount(cutoff.err), 1u);
}

// A damaged history is one line and exit 2, never "internal error: stoi".
TEST_F(HistoryCommandTest, DamagedSchemaVersionIsOneLineNamingTheFileAndTheValue) {
  const auto paths = WriteRuns(1, 1.0, 0);
  ASSERT_EQ(RunCli(Args({"history", "add", paths[0]})).exit_code, 0);
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(db_.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "UPDATE schema_version SET version = 'three'", nullptr, nullptr,
                         nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  auto list = RunCli(Args({"history", "list"}));
  EXPECT_EQ(list.exit_code, 2);
  EXPECT_EQ(list.out, "");
  EXPECT_EQ(list.err, "etbench history: " + db_ +
                          ": the history database's schema version is 'three', not a version "
                          "number (1 or more): its table schema_version is damaged\n");
}

// A server that accepts the connection and never answers: `history list`
// gives up at the connect timeout with one line naming the server.
TEST_F(HistoryCommandTest, ServerThatNeverAnswersIsOneLineAndExitTwoInSeconds) {
  testing::SilentServer server;
  ASSERT_NE(server.port(), 0);
  const std::string name = "postgresql://127.0.0.1:" + std::to_string(server.port()) + "/perf";
  const auto start = std::chrono::steady_clock::now();
  auto list = RunCli({"history", "list", "--history", name + "?connect_timeout=2"});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(list.exit_code, 2);
  EXPECT_EQ(list.out, "");
  EXPECT_EQ(testing::LineCount(list.err), 1u);
  EXPECT_EQ(list.err.rfind("etbench history: " + name + ": cannot connect: ", 0), 0u) << list.err;
  EXPECT_LT(seconds, 8.0);  // loose: the timeout is 2 s, the default 10 s
}

}  // namespace
}  // namespace etbench
