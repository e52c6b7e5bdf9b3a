// Google Benchmark JSON files as etbench input, written by a real Google
// Benchmark program (gbench_workload.cc) with --benchmark_format=json
// --benchmark_repetitions: compare (what `compare.py benchmarks a.json
// b.json` does), gate --baseline, baseline save, history add and report.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli_test_util.h"
#include "etbench/harness/process.h"
#include "support/test_support.h"

namespace etbench {
namespace {

using ::testing::HasSubstr;
using testing::RunCli;

#ifdef ETBENCH_GBENCH_WORKLOAD_PATH
constexpr const char* kWorkload = ETBENCH_GBENCH_WORKLOAD_PATH;
#else
constexpr const char* kWorkload = "";
#endif

// BM_Work's units per iteration: the candidate does 8 times the work, a
// slowdown no load on the machine hides.
constexpr const char* kBaseWork = "20000";
constexpr const char* kSlowWork = "160000";

// Runs `binary` as a Google Benchmark user would and writes its stdout to
// `path`.
void WriteGbenchJson(const std::string& binary, const std::string& work, const std::string& path) {
  auto processes = harness::MakeSystemProcessRunner();
  harness::ProcessSpec spec;
  spec.argv = {binary, "--benchmark_format=json", "--benchmark_repetitions=5",
               "--benchmark_min_time=0.02"};
  spec.env = {{"ETBENCH_TEST_WORK", work}};
  spec.timeout_s = 120;
  const harness::ProcessResult result = processes->Run(spec, nullptr);
  ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
  testing::WriteTextFile(path, result.stdout_text);
}

class GbenchFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::string(kWorkload).empty()) GTEST_SKIP() << "Google Benchmark not available";
    base_ = dir_.File("base.json");
    slow_ = dir_.File("slow.json");
    WriteGbenchJson(kWorkload, kBaseWork, base_);
    WriteGbenchJson(kWorkload, kSlowWork, slow_);
  }

  // The comparison JSON row of `benchmark`.
  static nlohmann::json Row(const std::string& comparison_path, const std::string& benchmark) {
    const auto doc = nlohmann::json::parse(testing::ReadTextFile(comparison_path));
    for (const auto& row : doc.at("metrics")) {
      if (row.at("name") == benchmark) return row;
    }
    ADD_FAILURE() << benchmark << " not in " << comparison_path;
    return {};
  }

  testing::TempDir dir_;
  std::string base_, slow_;
};

TEST_F(GbenchFilesTest, CompareReplacesCompareDotPyWithVerdictsThatAgreeWithTheirIntervals) {
  const std::string report = dir_.File("cmp.json");
  auto slower = RunCli({"compare", base_, slow_, "--color", "never", "--report", "json=" + report});
  EXPECT_EQ(slower.exit_code, 1) << slower.out << slower.err;
  const nlohmann::json work = Row(report, "BM_Work");
  EXPECT_EQ(work.at("kind"), "benchmark");
  EXPECT_EQ(work.at("n_baseline"), 5);  // the five repetitions, not the aggregates
  EXPECT_EQ(work.at("n_candidate"), 5);
  EXPECT_EQ(work.at("verdict"), "regression");
  EXPECT_GT(work.at("ci").at(0).get<double>(), 0.0) << work.dump();  // the whole interval is slower
  EXPECT_THAT(slower.out, HasSubstr("BM_Work"));

  auto same = RunCli({"compare", base_, base_, "--color", "never"});
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
}

TEST_F(GbenchFilesTest, OneBinaryOnEachSideIsMatchedByBenchmarkNameWhateverItIsCalled) {
  const std::string renamed = dir_.File("workload_patched");
  std::filesystem::copy_file(kWorkload, renamed);
  std::filesystem::permissions(renamed, std::filesystem::perms::owner_all);
  const std::string patched = dir_.File("patched.json");
  WriteGbenchJson(renamed, kSlowWork, patched);
  auto r = RunCli({"compare", base_, patched, "--color", "never"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_THAT(r.err, HasSubstr("matching the benchmarks of 'workload_patched' with those of "
                               "'cli_gbench_workload' by name"));
}

TEST_F(GbenchFilesTest, BaselineSaveHistoryAddAndReportTakeTheFile) {
  const std::string saved = dir_.File("b/base.json");
  auto save = RunCli({"baseline", "save", base_, "--path", saved});
  ASSERT_EQ(save.exit_code, 0) << save.err;
  auto from_baseline = RunCli({"compare", saved, slow_, "--color", "never"});
  EXPECT_EQ(from_baseline.exit_code, 1) << from_baseline.out << from_baseline.err;

  const std::string db = dir_.File("history.db");
  auto add = RunCli({"history", "add", base_, "--history", db, "--commit", "c1", "--branch", "main"});
  ASSERT_EQ(add.exit_code, 0) << add.err;
  auto list = RunCli({"history", "list", "--history", db});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_THAT(list.out, HasSubstr("cli_gbench_workload"));

  auto report = RunCli({"report", base_, "--format", "markdown"});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_THAT(report.out, HasSubstr("BM_Work"));
}

TEST_F(GbenchFilesTest, GateTakesAGoogleBenchmarkFileAsTheBaselineOfAGbenchSuite) {
  const std::string suite = dir_.File("suite.yaml");
  testing::WriteTextFile(suite, "suite: work\nrunner: gbench\nrepetitions: 5\n"
                                "output_dir: " + dir_.File("out") + "\n"
                                "gbench:\n  min_time_s: 0.02\n  env: {ETBENCH_TEST_WORK: \"" +
                                    std::string(kSlowWork) + "\"}\nmodels:\n  - " + kWorkload + "\n");
  auto gate = RunCli({"gate", suite, "--baseline", base_, "--color", "never"});
  EXPECT_EQ(gate.exit_code, 1) << gate.out << gate.err;
  EXPECT_THAT(gate.out, HasSubstr("BM_Work"));
}

TEST_F(GbenchFilesTest, AFileComparesWithTheResultsOfAGbenchSuiteInTheSuitesUnit) {
  const std::string suite = dir_.File("suite.yaml");
  testing::WriteTextFile(suite, "suite: work\nrunner: gbench\nrepetitions: 5\nunit: ms\n"
                                "output_dir: " + dir_.File("out") + "\n"
                                "gbench:\n  min_time_s: 0.02\n  env: {ETBENCH_TEST_WORK: \"" +
                                    std::string(kSlowWork) + "\"}\nmodels:\n  - " + kWorkload + "\n");
  auto run = RunCli({"run", suite, "--quiet"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string report = dir_.File("cmp.json");
  auto r = RunCli({"compare", base_, dir_.File("out/results.json"), "--color", "never", "--report",
                   "json=" + report});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const nlohmann::json work = Row(report, "BM_Work");
  EXPECT_EQ(work.at("unit"), "ms");
  EXPECT_EQ(work.at("n_baseline"), 5);
  EXPECT_EQ(work.at("verdict"), "regression");
}

}  // namespace
}  // namespace etbench
