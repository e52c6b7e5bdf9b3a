#include <gtest/gtest.h>

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

TEST(ConvertCommandTest, ErrorsExitTwo) {
  testing::TempDir dir;
  EXPECT_EQ(RunCli({"convert", dir.File("missing.bin"), "-o", dir.File("x.etdp")}).exit_code, 2);
  EXPECT_EQ(RunCli({"convert"}).exit_code, 2);
  EXPECT_EQ(RunCli({"convert", "--help"}).exit_code, 0);
}

}  // namespace
}  // namespace etbench
