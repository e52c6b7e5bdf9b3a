#include <gtest/gtest.h>

#include <filesystem>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_test_util.h"
#include "inspector/analysis/legacy_profile_writer.h"
#include "support/test_support.h"

namespace etbench {
namespace {

using testing::RunCli;

TEST(ConvertCommandTest, LegacyProfileBecomesAnInspectableEtdump) {
  testing::TempDir dir;
  const std::string legacy = dir.File("prof_result.bin");
  testing::WriteBinaryFile(legacy, testing::WriteLegacyProfile(testing::SampleLegacyBlocks()));
  auto r = RunCli({"convert", legacy, "--output", dir.File("out.etdp")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.empty());
  auto inspect = RunCli({"inspect", "--etdump_path", dir.File("out.etdp"), "--format", "json"});
  ASSERT_EQ(inspect.exit_code, 0) << inspect.err;
  auto j = nlohmann::json::parse(inspect.out);
  bool found_execute = false;
  for (const auto& block : j["event_blocks"]) {
    if (block["name"] == "Execute") {
      found_execute = true;
      EXPECT_EQ(block["run_count"], 3);  // three iterations merge into one block
      EXPECT_FALSE(block["framework_tax"].is_null());
    }
  }
  EXPECT_TRUE(found_execute) << inspect.out;
}

TEST(ConvertCommandTest, OutputIsTheSecondPositionalOrAFlag) {
  // docs/analysis.md: `etbench convert prof_result.bin out.etdp`.
  testing::TempDir dir;
  const std::string legacy = dir.File("prof_result.bin");
  testing::WriteBinaryFile(legacy, testing::WriteLegacyProfile(testing::SampleLegacyBlocks()));
  auto positional = RunCli({"convert", legacy, dir.File("a.etdp")});
  ASSERT_EQ(positional.exit_code, 0) << positional.err;
  auto flag = RunCli({"convert", legacy, "-o", dir.File("b.etdp")});
  ASSERT_EQ(flag.exit_code, 0) << flag.err;
  EXPECT_EQ(testing::ReadBinaryFile(dir.File("a.etdp")), testing::ReadBinaryFile(dir.File("b.etdp")));
  auto both = RunCli({"convert", legacy, dir.File("c.etdp"), "--output", dir.File("d.etdp")});
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_EQ(testing::LineCount(both.err), 1u) << both.err;
  auto three = RunCli({"convert", legacy, dir.File("c.etdp"), dir.File("d.etdp")});
  EXPECT_EQ(three.exit_code, 2);
}

// Legacy files of every kind the tests know, written with upstream's layout.
std::vector<std::pair<std::string, std::vector<testing::LegacyBlockSpec>>> LegacyFiles() {
  using testing::Entry;
  std::vector<std::pair<std::string, std::vector<testing::LegacyBlockSpec>>> files;
  files.emplace_back("sample", testing::SampleLegacyBlocks());
  std::vector<testing::LegacyBlockSpec> upstream;
  for (testing::LegacyBlockSpec b : testing::SampleLegacyBlocks()) {
    upstream.push_back(testing::WithUpstreamCapacities(std::move(b)));
  }
  files.emplace_back("upstream capacities", upstream);
  files.emplace_back("nested delegate",
                     std::vector<testing::LegacyBlockSpec>{
                         testing::DelegateIteration(0, 1000000, 900000, 50000),
                         testing::DelegateIteration(2000000, 2000000, 1800000, 100000)});
  std::vector<testing::LegacyBlockSpec> open_early = testing::SampleLegacyBlocks();
  open_early[1].entries[0].end_time = 0;  // Method::execute open, started < 2^32
  files.emplace_back("open below 2^32", open_early);
  std::vector<testing::LegacyBlockSpec> open_late = testing::SampleLegacyBlocks();
  open_late[3] = testing::ExecuteIteration(0x100000000ull, 2000000, 1000000, 500000, 0);
  open_late[3].entries[0].end_time = 0;  // open, started after 2^32
  files.emplace_back("open above 2^32", open_late);
  std::vector<testing::LegacyBlockSpec> wrapped = testing::SampleLegacyBlocks();
  wrapped[2].entries[5] = Entry("delegate_execute", 0, 2, 0xFFFFFF00u, 0x100u);
  files.emplace_back("32-bit wrap", wrapped);
  std::vector<testing::LegacyBlockSpec> backwards = testing::SampleLegacyBlocks();
  backwards[2].entries[5] = Entry("delegate_execute", 0, 2, 0x100000005ull, 7);
  files.emplace_back("backwards", backwards);
  return files;
}

TEST(ConvertCommandTest, EveryConvertedFileIsReadableByInspect) {
  testing::TempDir dir;
  int converted = 0;
  for (const auto& [what, blocks] : LegacyFiles()) {
    SCOPED_TRACE(what);
    const std::string legacy = dir.File("prof_result.bin");
    const std::string etdump = dir.File("out.etdp");
    std::filesystem::remove(etdump);
    testing::WriteBinaryFile(legacy, testing::WriteLegacyProfile(blocks));
    auto convert = RunCli({"convert", legacy, etdump});
    auto tables = RunCli({"inspect", "--legacy-profile", legacy});
    // One rule: convert fails exactly when the legacy tables do.
    EXPECT_EQ(convert.exit_code, tables.exit_code) << convert.err << tables.err;
    if (convert.exit_code != 0) {
      EXPECT_EQ(convert.exit_code, 2);
      EXPECT_FALSE(std::filesystem::exists(etdump));
      continue;
    }
    ++converted;
    for (const std::vector<std::string>& view :
         {std::vector<std::string>{}, {"--view", "tree", "--run", "all"}, {"--format", "json"}}) {
      std::vector<std::string> args{"inspect", "--etdump_path", etdump};
      args.insert(args.end(), view.begin(), view.end());
      auto inspect = RunCli(args);
      EXPECT_EQ(inspect.exit_code, 0) << inspect.err;
      EXPECT_EQ(inspect.out.find("4.29"), std::string::npos) << inspect.out;
    }
  }
  EXPECT_EQ(converted, 6);
}

TEST(ConvertCommandTest, WarnsAboutUnfinishedScopes) {
  testing::TempDir dir;
  std::vector<testing::LegacyBlockSpec> blocks = testing::SampleLegacyBlocks();
  blocks[3].entries[0].end_time = 0;
  const std::string legacy = dir.File("prof_result.bin");
  testing::WriteBinaryFile(legacy, testing::WriteLegacyProfile(blocks));
  auto r = RunCli({"convert", legacy, dir.File("out.etdp")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.rfind("etbench convert: warning: " + legacy +
                            ": block 'Execute', profile entry 0 'Method::execute': unfinished in "
                            "iteration 2 of 3",
                        0),
            0u)
      << r.err;
  EXPECT_EQ(testing::LineCount(r.err), 2u) << r.err;  // the warning, "wrote …"
}

TEST(ConvertCommandTest, ErrorsExitTwo) {
  testing::TempDir dir;
  EXPECT_EQ(RunCli({"convert", dir.File("missing.bin"), "-o", dir.File("x.etdp")}).exit_code, 2);
  EXPECT_EQ(RunCli({"convert"}).exit_code, 2);
  EXPECT_EQ(RunCli({"convert", "--help"}).exit_code, 0);
}

}  // namespace
}  // namespace etbench
