#include <gtest/gtest.h>

#include "cli_test_util.h"

namespace etbench {
namespace {

using testing::RunCli;

TEST(EtbenchCliTest, HelpListsCommandsOnStdout) {
  auto r = RunCli({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("inspect"), std::string::npos);
  EXPECT_TRUE(r.err.empty());
}

TEST(EtbenchCliTest, NoArgumentsIsAUsageError) {
  auto r = RunCli({});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("Usage"), std::string::npos);
}

TEST(EtbenchCliTest, UnknownCommandIsOneLineAndExitTwo) {
  auto r = RunCli({"frobnicate"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(testing::LineCount(r.err), 1u);
  EXPECT_NE(r.err.find("frobnicate"), std::string::npos);
}

TEST(EtbenchCliTest, VersionPrints) {
  auto r = RunCli({"--version"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.rfind("etbench ", 0), 0u);
}

}  // namespace
}  // namespace etbench
