// Every command's --help, walked from `etbench --help` and the subcommand
// lists (no list of commands kept here): complete, with exit codes, defaults
// as a person writes them, one spelling convention with the other spelling
// still accepted.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>

#include "cli/cli_help_walk.h"
#include "cli/cli_test_util.h"
#include "support/test_support.h"

namespace etbench {
namespace {

using testing::AllCommands;
using testing::Join;
using testing::ListedFlags;
using testing::RunCli;
using ::testing::HasSubstr;
using ::testing::Not;

// The reference Inspector CLI's names, which inspect keeps
// (devtools/inspector/inspector_cli.py).
const std::set<std::string> kReferenceNames = {"etdump_path", "etrecord_path", "debug_buffer_path",
                                               "source_time_scale", "target_time_scale"};

// True unless etbench says the flag is unknown. The flag is given last and
// alone: one that takes a value then fails for want of it; a switch may run
// its command, which the fixture confines to a scratch directory.
bool Accepts(const std::vector<std::string>& command, const std::string& flag) {
  std::vector<std::string> args = command;
  args.push_back(flag);
  return RunCli(args).err.find("unrecognised option '" + flag + "'") == std::string::npos;
}

// Runs the test in a scratch working directory (a switch such as
// `history detect --every-part` opens results/history.db there).
class CliHelpTest : public ::testing::Test {
 protected:
  CliHelpTest() : old_(std::filesystem::current_path()) {
    std::filesystem::current_path(scratch_.path());
  }
  ~CliHelpTest() override { std::filesystem::current_path(old_); }

 private:
  testing::TempDir scratch_;
  std::filesystem::path old_;
};

TEST_F(CliHelpTest, TheWalkFindsEveryCommandAndSubcommand) {
  const auto all = AllCommands();
  std::set<std::string> names;
  for (const auto& c : all) names.insert(Join(c));
  for (const char* c : {"inspect", "run", "gate", "ab", "compare", "report", "export", "baseline",
                        "baseline save", "baseline show", "baseline update", "history",
                        "history add", "history list", "history detect", "completion", "man"}) {
    EXPECT_EQ(names.count(c), 1u) << c;
  }
}

TEST_F(CliHelpTest, EveryPageHasExitCodesAndNoFloatNoise) {
  const std::regex noise("[0-9]\\.[0-9]*(0000|9999)[0-9]");
  for (const auto& command : AllCommands()) {
    std::vector<std::string> args = command;
    args.push_back("--help");
    const auto r = RunCli(args);
    SCOPED_TRACE(Join(args));
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(r.err, "");
    // Its own paragraph: a line that starts with it after a blank line.
    EXPECT_THAT(r.out, HasSubstr("\n\nExit codes: 0 "));
    EXPECT_FALSE(std::regex_search(r.out, noise)) << r.out;
  }
  EXPECT_THAT(RunCli({"history", "detect", "--help"}).out, HasSubstr("--load-cutoff arg (=0.15)"));
  EXPECT_THAT(RunCli({"inspect", "--help"}).out, HasSubstr("--include-units [=arg(=true)] (=true)"));
}

TEST_F(CliHelpTest, SubcommandsPrintTheirOwnPage) {
  std::set<std::string> pages;
  for (const char* sub : {"save", "show", "update"}) {
    const auto r = RunCli({"baseline", sub, "--help"});
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_THAT(r.out, HasSubstr(std::string("Usage: etbench baseline ") + sub));
    pages.insert(r.out);
  }
  EXPECT_EQ(pages.size(), 3u);
  EXPECT_THAT(RunCli({"baseline", "save", "--help"}).out, HasSubstr("--force"));
  EXPECT_THAT(RunCli({"baseline", "show", "--help"}).out, Not(HasSubstr("--force")));
  EXPECT_THAT(RunCli({"baseline", "update", "--help"}).out, HasSubstr("--from-history"));
  const auto bare = RunCli({"baseline"});
  EXPECT_EQ(bare.exit_code, 2);
  EXPECT_THAT(bare.err, HasSubstr("save"));
  EXPECT_EQ(RunCli({"baseline", "frobnicate"}).exit_code, 2);
}

TEST_F(CliHelpTest, GateListsThePullRequestFlagsItAccepts) {
  const std::string help = RunCli({"gate", "--help"}).out;
  const auto flags = ListedFlags(help);
  for (const char* flag : {"base", "head", "budget", "seed", "blocks", "min-time", "warmup-time",
                           "output-dir", "baseline", "other-machine"}) {
    EXPECT_NE(std::find(flags.begin(), flags.end(), flag), flags.end()) << flag;
  }
  // Without --base they are refused, by name, before anything runs.
  const auto r = RunCli({"gate", testing::SourcePath("configs/default.yaml"), "--budget", "5"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--budget applies to the pull-request gate only (with --base)"));
}

TEST_F(CliHelpTest, EveryListedFlagIsAcceptedAndKebabCase) {
  for (const auto& command : AllCommands()) {
    const std::string help = testing::HelpOf(command);
    SCOPED_TRACE(Join(command));
    for (const std::string& flag : ListedFlags(help)) {
      const bool reference = command[0] == "inspect" && kReferenceNames.count(flag) > 0;
      EXPECT_TRUE(reference || flag.find('_') == std::string::npos) << flag;
      EXPECT_TRUE(Accepts(command, "--" + flag)) << flag;
    }
  }
}

TEST_F(CliHelpTest, TheOtherSpellingIsAcceptedAndHiddenFromHelp) {
  for (const auto& command : AllCommands()) {
    const std::string help = testing::HelpOf(command);
    SCOPED_TRACE(Join(command));
    for (const std::string& flag : ListedFlags(help)) {
      std::string other = flag;
      for (char& c : other) c = c == '_' ? '-' : c == '-' ? '_' : c;
      if (other == flag) continue;
      EXPECT_TRUE(Accepts(command, "--" + other)) << other;
      EXPECT_THAT(help, Not(HasSubstr("--" + other))) << other;
    }
  }
}

TEST_F(CliHelpTest, OldSpellingsGiveTheSameOutputAsTheNewOnes) {
  const std::string etdp = testing::FixturePath("executorch_tutorial.etdp");
  const auto kebab = RunCli({"export", "--stacks", "--prefix-block", "--run", "0", etdp});
  const auto snake = RunCli({"export", "--stacks", "--prefix_block", "--run=0", etdp});
  ASSERT_EQ(kebab.exit_code, 0) << kebab.err;
  EXPECT_EQ(snake.exit_code, 0) << snake.err;
  EXPECT_EQ(snake.out, kebab.out);
  const auto reference = RunCli({"inspect", "--etdump_path", etdp, "--format", "json"});
  const auto aliased = RunCli({"inspect", "--etdump-path=" + etdp, "--format", "json"});
  ASSERT_EQ(reference.exit_code, 0) << reference.err;
  EXPECT_EQ(aliased.out, reference.out);
  // An unknown name stays unknown in either spelling.
  const auto unknown = RunCli({"export", "--stacks", "--no_such_flag", etdp});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_THAT(unknown.err, HasSubstr("'--no_such_flag'"));
}

}  // namespace
}  // namespace etbench
