// `etbench inspect` views, ETRecord flags and legacy tables, end to end.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_test_util.h"
#include "inspector/analysis/legacy_profile_writer.h"
#include "support/test_support.h"

namespace etbench {
namespace {

using testing::FixturePath;
using testing::RunCli;

const std::string kFixture = FixturePath("executorch_tutorial.etdp");
const std::string kEtrecord = FixturePath("executorch_sample_etrecord.bin");

TEST(InspectViewsTest, KeyAveragesGroupsByNameWithTotalsFooter) {
  auto r = RunCli({"inspect", "--etdump_path", kFixture, "--view", "key_averages", "--sort-by",
                   "self", "--time-unit", "us"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Key averages of block \"Execute\" (1 run), grouped by name"),
            std::string::npos);
  // Two convolutions: 544.783 + 1031.719 us of self time, the largest row.
  EXPECT_NE(r.out.find("native_call_convolution.out"), std::string::npos);
  EXPECT_NE(r.out.find("1576.502us"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Self time total: 1898.821us"), std::string::npos) << r.out;
}

TEST(InspectViewsTest, TreeNestsKernelsUnderOperatorCalls) {
  auto r = RunCli({"inspect", "--etdump_path", kFixture, "--view", "tree"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto exec = r.out.find("Method::execute");
  const auto op = r.out.find("├─ OPERATOR_CALL  [instr 0]");
  const auto kernel = r.out.find("│  └─ native_call_convolution.out  [instr 0]");
  ASSERT_NE(exec, std::string::npos) << r.out;
  ASSERT_NE(op, std::string::npos) << r.out;
  ASSERT_NE(kernel, std::string::npos) << r.out;
  EXPECT_LT(exec, op);
  EXPECT_LT(op, kernel);
}

TEST(InspectViewsTest, ViewFlagErrorsAreUsageErrors) {
  for (const auto& extra : std::vector<std::vector<std::string>>{
           {"--view", "flamegraph"},
           {"--view", "key_averages", "--sort-by", "colour"},
           {"--view", "key_averages", "--group-by", "op_type"},  // needs an ETRecord
           {"--view", "tree", "--run", "x"},
           {"--view", "tree", "--run=-1"},
           {"--view", "tree", "--run", "99999999999999999999999"},
           {"--view", "key_averages", "--format", "json"},
           {"--show-graph"},
       }) {
    std::vector<std::string> args{"inspect", "--etdump_path", kFixture};
    args.insert(args.end(), extra.begin(), extra.end());
    auto r = RunCli(args);
    EXPECT_EQ(r.exit_code, 2) << extra[0] << " " << extra.back();
    EXPECT_TRUE(r.out.empty());
    EXPECT_EQ(testing::LineCount(r.err), 1u) << r.err;
  }
}

TEST(InspectViewsTest, ShowGraphSummarisesTheRealEtrecord) {
  auto r = RunCli({"inspect", "--etdump_path", kFixture, "--etrecord_path", kEtrecord,
                   "--show-graph"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("aten.mul.Tensor"), std::string::npos) << r.out;
  // The sample ETRecord's maps are empty: a warning, not a failure.
  EXPECT_NE(r.err.find("warning"), std::string::npos);
}

TEST(InspectViewsTest, ModuleTotalIsPrinted) {
  auto r = RunCli({"inspect", "--etdump_path", kFixture, "--etrecord_path", kEtrecord,
                   "--module", "conv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "Total for module conv: 0 ms\n");
}

TEST(InspectViewsTest, BadEtrecordIsAnInputError) {
  auto r = RunCli({"inspect", "--etdump_path", kFixture, "--etrecord_path", kFixture});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("executorch_tutorial.etdp"), std::string::npos) << r.err;
}

TEST(InspectViewsTest, LegacyProfilePrintsThreeTablesAndExports) {
  testing::TempDir dir;
  const std::string path = dir.File("prof_result.bin");
  testing::WriteBinaryFile(path, testing::WriteLegacyProfile(testing::SampleLegacyBlocks()));
  auto table = RunCli({"inspect", "--legacy-profile", path});
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("native_call_add.out"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("Framework tax"), std::string::npos) << table.out;
  auto json = RunCli({"inspect", "--legacy-profile", path, "--format", "json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_NO_THROW(nlohmann::json::parse(json.out));
  auto csv = RunCli({"inspect", "--legacy-profile", path, "--format", "csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_NE(csv.out.find(','), std::string::npos);
  testing::WriteBinaryFile(dir.File("short.bin"), {1, 2, 3});
  auto bad = RunCli({"inspect", "--legacy-profile", dir.File("short.bin")});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(testing::LineCount(bad.err), 1u) << bad.err;
}

TEST(InspectViewsTest, LegacyProfileViewsLeaveUnfinishedScopesOut) {
  // A scope around the dump, still open (end_time 0) in the last
  // iteration: a warning naming block and event, no 4.295 s wrap.
  std::vector<testing::LegacyBlockSpec> blocks = testing::SampleLegacyBlocks();
  for (std::size_t b = 1; b < blocks.size(); ++b) {
    blocks[b].entries.push_back(testing::Entry(
        "run model", -1, 0, blocks[b].entries[0].start_time - 1000,
        b + 1 == blocks.size() ? 0 : blocks[b].entries[0].end_time + 1000));
  }
  testing::TempDir dir;
  const std::string path = dir.File("prof_result.bin");
  testing::WriteBinaryFile(path, testing::WriteLegacyProfile(blocks));
  const std::string warning =
      "etbench inspect: warning: " + path +
      ": block 'Execute', profile entry 6 'run model': unfinished in iteration 2 of 3";
  auto tree = RunCli({"inspect", "--legacy-profile", path, "--view", "tree", "--run", "all"});
  ASSERT_EQ(tree.exit_code, 0) << tree.err;
  EXPECT_EQ(tree.err.rfind(warning, 0), 0u) << tree.err;
  EXPECT_EQ(testing::LineCount(tree.err), 1u) << tree.err;
  EXPECT_NE(tree.out.find("run model"), std::string::npos) << tree.out;  // runs 0 and 1
  EXPECT_NE(tree.out.find("native_call_add.out"), std::string::npos) << tree.out;
  EXPECT_EQ(tree.out.find("4.29"), std::string::npos) << tree.out;
  auto table = RunCli({"inspect", "--legacy-profile", path});
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_EQ(table.err.rfind(warning, 0), 0u) << table.err;
  EXPECT_NE(table.out.find("unfinished |"), std::string::npos) << table.out;
  EXPECT_EQ(table.out.find("4294"), std::string::npos) << table.out;
  auto seconds = RunCli({"inspect", "--legacy-profile", path, "--view", "tree",
                         "--time-scale", "s"});
  EXPECT_EQ(seconds.exit_code, 2);
}

TEST(InspectViewsTest, EtdumpAndLegacyAreExclusive) {
  auto r = RunCli({"inspect", "--etdump_path", kFixture, "--legacy-profile", kFixture});
  EXPECT_EQ(r.exit_code, 2);
  auto none = RunCli({"inspect", "--format", "json"});
  EXPECT_EQ(none.exit_code, 2);
}

}  // namespace
}  // namespace etbench
