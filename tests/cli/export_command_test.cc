#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli_test_util.h"
#include "etbench/inspector/etdump_writer.h"
#include "etbench/results/results.h"
#include "reports/trace_check.h"
#include "support/test_support.h"

namespace etbench {
namespace {

using testing::RunCli;

std::size_t CompleteEvents(const std::string& trace) {
  const nlohmann::json root = nlohmann::json::parse(trace);
  std::size_t n = 0;
  for (const auto& e : root["traceEvents"]) n += e["ph"] == "X";
  return n;
}

TEST(ExportCommandTest, ChromeTraceOfTheTutorialEtdumpIsValid) {
  const auto r = RunCli({"export", "--chrome-trace", testing::FixturePath("executorch_tutorial.etdp")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(testing::ChromeTraceError(r.out), "");
  EXPECT_EQ(CompleteEvents(r.out), 31u);
  EXPECT_EQ(r.err, "");
}

TEST(ExportCommandTest, ChromeTraceToAFile) {
  testing::TempDir dir;
  const auto r = RunCli({"export", "--chrome-trace", testing::FixturePath("executorch_tutorial.etdp"),
                         "--output", dir.File("trace.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "etbench export: wrote " + dir.File("trace.json") + "\n");
  EXPECT_EQ(testing::ChromeTraceError(testing::ReadTextFile(dir.File("trace.json"))), "");
}

TEST(ExportCommandTest, InvalidUtf8EventNamesGiveAValidTrace) {
  testing::TempDir dir;
  EtdumpBuilder builder;
  builder.BeginRun("Execute");
  builder.AddProfileEvent("native_call_\xff.out", 0, 0, 100, 200);
  builder.AddProfileEvent("Method::execute", -1, 0, 50, 300);
  builder.EndRun();
  testing::WriteBinaryFile(dir.File("bad.etdp"), builder.Finish());
  const auto r = RunCli({"export", "--chrome-trace", dir.File("bad.etdp")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(testing::ChromeTraceError(r.out), "");
}

TEST(ExportCommandTest, StacksMatchTheLibraryGolden) {
  const auto r = RunCli({"export", "--stacks", testing::FixturePath("executorch_tutorial.etdp")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, testing::ReadTextFile(testing::SourcePath("tests/reports/golden/tutorial.folded")));
  const auto prefixed = RunCli({"export", "--stacks", "--prefix-block", "--run", "0",
                                testing::FixturePath("executorch_tutorial.etdp")});
  ASSERT_EQ(prefixed.exit_code, 0);
  EXPECT_NE(prefixed.out.find("Execute;Method::execute;OPERATOR_CALL;native_call_convolution.out 1576502\n"),
            std::string::npos)
      << prefixed.out;
}

TEST(ExportCommandTest, ResultsFilesExportEveryRepetitionsEtdump) {
  testing::TempDir dir;
  std::filesystem::create_directories(dir.File("etdumps"));
  std::filesystem::copy_file(testing::FixturePath("executorch_tutorial.etdp"),
                             dir.File("etdumps/toy-0.etdp"));
  std::filesystem::copy_file(testing::FixturePath("executorch_tutorial.etdp"),
                             dir.File("etdumps/toy-1.etdp"));
  results::RunResults results;
  results.metadata.suite = "s";
  results::ModelResult model;
  model.name = "toy";
  for (int i = 0; i < 2; ++i) {
    results::RepetitionRecord rep;
    rep.index = i;
    rep.etdump_path = "etdumps/toy-" + std::to_string(i) + ".etdp";
    model.repetitions.push_back(rep);
  }
  results.models.push_back(model);
  ASSERT_TRUE(results::WriteResultsFile(dir.File("results.json"), results).ok());
  const auto r = RunCli({"export", "--chrome-trace", dir.File("results.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(testing::ChromeTraceError(r.out), "");
  EXPECT_EQ(CompleteEvents(r.out), 62u);
  EXPECT_NE(r.out.find("\"name\":\"toy rep 1\""), std::string::npos);
}

TEST(ExportCommandTest, UsageAndInputErrors) {
  const std::string etdp = testing::FixturePath("executorch_tutorial.etdp");
  auto none = RunCli({"export", etdp});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_EQ(none.err, "etbench export: say what to export: --chrome-trace or --stacks (one per call)\n");
  EXPECT_EQ(RunCli({"export", "--chrome-trace", "--stacks", etdp}).exit_code, 2);
  EXPECT_EQ(RunCli({"export", "--chrome-trace"}).exit_code, 2);
  auto missing = RunCli({"export", "--stacks", "/nonexistent/a.etdp"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("/nonexistent/a.etdp"), std::string::npos);
  auto scale = RunCli({"export", "--stacks", "--source-time-scale", "parsecs", etdp});
  EXPECT_EQ(scale.exit_code, 2);
  EXPECT_NE(scale.err.find("parsecs"), std::string::npos);
  auto help = RunCli({"export", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("--chrome-trace"), std::string::npos);
}

}  // namespace
}  // namespace etbench
