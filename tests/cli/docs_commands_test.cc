// `etbench completion bash|zsh` and `etbench man`: generated from the option
// tables, so they list every command and flag the help lists (walked from
// the help, not from a list kept here). The bash script is run by bash.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <map>
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

// stdout of `command` run by /bin/sh; `status` its exit status.
std::string Shell(const std::string& command, int* status) {
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  char buf[4096];
  for (std::size_t n; (n = fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  *status = pclose(pipe);
  return out;
}

bool Have(const std::string& program) {
  int status = -1;
  Shell("command -v " + program + " >/dev/null 2>&1", &status);
  return status == 0;
}

std::vector<std::string> Flags(const std::vector<std::string>& command) {
  return ListedFlags(testing::HelpOf(command));
}

TEST(CliCompletionTest, BashCompletesEveryCommandSubcommandAndFlag) {
  testing::TempDir dir;
  const auto script = RunCli({"completion", "bash"});
  ASSERT_EQ(script.exit_code, 0) << script.err;
  testing::WriteTextFile(dir.File("etbench.bash"), script.out);
  // One bash: for each command, what completes after `etbench <command> --`.
  const auto commands = AllCommands();
  std::string driver =
      "source " + dir.File("etbench.bash") + "\n" +
      "c() { COMP_WORDS=(\"$@\"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMPREPLY=(); "
      "_etbench; printf '%s\\n' \"${COMPREPLY[@]}\"; }\n"
      "echo '@@'; c etbench ''\n"
      "echo '@@history'; c etbench history ''\n"
      "echo '@@value'; c etbench run --output-dir " + dir.path() + "/etbench.ba\n";
  for (const auto& command : commands) {
    driver += "echo '@@" + Join(command) + " --'; c etbench " + Join(command) + " --\n";
  }
  testing::WriteTextFile(dir.File("driver.bash"), driver);
  int status = -1;
  const std::string out = Shell("bash " + dir.File("driver.bash") + " 2>&1", &status);
  ASSERT_EQ(status, 0) << out;
  std::map<std::string, std::set<std::string>> completions;
  std::string key;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("@@", 0) == 0) {
      key = line.substr(2);
      completions[key];
    } else {
      completions[key].insert(line);
    }
  }
  for (const auto& command : commands) {
    if (command.size() == 1) {
      EXPECT_EQ(completions[""].count(command[0]), 1u) << command[0];
    }
    if (command.size() == 2 && command[0] == "history") {
      EXPECT_EQ(completions["history"].count(command[1]), 1u) << command[1];
    }
    const std::set<std::string>& flags = completions[Join(command) + " --"];
    for (const std::string& flag : Flags(command)) {
      EXPECT_EQ(flags.count("--" + flag), 1u) << Join(command) << " --" << flag;
    }
    EXPECT_EQ(flags.count("--help"), 1u) << Join(command);
  }
  // A flag's value completes as a file name.
  EXPECT_EQ(completions["value"].count(dir.File("etbench.bash")), 1u) << out;
}

TEST(CliCompletionTest, ZshListsEveryCommandAndFlagWithItsDescription) {
  const auto script = RunCli({"completion", "zsh"});
  ASSERT_EQ(script.exit_code, 0) << script.err;
  EXPECT_EQ(script.out.rfind("#compdef etbench\n", 0), 0u);
  for (const auto& command : AllCommands()) {
    EXPECT_THAT(script.out, HasSubstr("'" + command.back() + ":")) << Join(command);
    EXPECT_THAT(script.out, HasSubstr("    \"" + Join(command) + "\") items=("));
    for (const std::string& flag : Flags(command)) {
      EXPECT_THAT(script.out, HasSubstr("'--" + flag + ":")) << Join(command) << " --" << flag;
    }
  }
  if (!Have("zsh")) GTEST_SKIP() << "zsh not installed: syntax not checked";
  testing::TempDir dir;
  testing::WriteTextFile(dir.File("_etbench"), script.out);
  int status = -1;
  const std::string out = Shell("zsh -n " + dir.File("_etbench") + " 2>&1", &status);
  EXPECT_EQ(status, 0) << out;
}

TEST(CliCompletionTest, AnUnknownShellIsAUsageError) {
  const auto r = RunCli({"completion", "fish"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(testing::LineCount(r.err), 1u);
  EXPECT_THAT(r.err, HasSubstr("unknown shell 'fish'"));
}

// "etbench-history-add.1" for {"history", "add"}.
std::string PageFile(const std::vector<std::string>& command) {
  std::string name = "etbench";
  for (const std::string& w : command) name += "-" + w;
  return name + ".1";
}

// How roff writes a flag name ("\-\-" and the name with every '-' as "\-").
std::string RoffFlag(const std::string& flag) {
  std::string s = "\\-\\-";
  for (char c : flag) s += c == '-' ? std::string("\\-") : std::string(1, c);
  return s;
}

TEST(CliManTest, OnePagePerCommandWithEveryFlagAndItsExitStatus) {
  testing::TempDir dir;
  const auto r = RunCli({"man", "--output-dir", dir.File("man")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string top = testing::ReadTextFile(dir.File("man/etbench.1"));
  EXPECT_THAT(top, HasSubstr(".TH ETBENCH 1"));
  EXPECT_THAT(top, HasSubstr(".SH EXIT STATUS"));
  const auto commands = AllCommands();
  std::size_t pages = 1;
  for (const auto& command : commands) {
    SCOPED_TRACE(Join(command));
    const std::string path = dir.File("man/" + PageFile(command));
    ASSERT_TRUE(std::filesystem::exists(path));
    ++pages;
    const std::string page = testing::ReadTextFile(path);
    const std::string name = PageFile(command).substr(0, PageFile(command).size() - 2);
    EXPECT_THAT(page, HasSubstr(".SH NAME\n" + RoffFlag(name).substr(4) + " \\- "));
    EXPECT_THAT(page, HasSubstr(".SH EXIT STATUS\n"));
    // Listed on its parent's page.
    const std::vector<std::string> parent(command.begin(), command.end() - 1);
    EXPECT_THAT(testing::ReadTextFile(dir.File("man/" + PageFile(parent))),
                HasSubstr(".TP\n\\fB" + command.back() + "\\fR\n"));
    for (const std::string& flag : Flags(command)) {
      EXPECT_THAT(page, HasSubstr("\\fB" + RoffFlag(flag) + "\\fR")) << flag;
    }
  }
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.File("man")),
                          std::filesystem::directory_iterator()),
            static_cast<long>(pages));
  if (!Have("groff")) GTEST_SKIP() << "groff not installed: pages not rendered";
  for (const auto& entry : std::filesystem::directory_iterator(dir.File("man"))) {
    int status = -1;
    const std::string warnings =
        Shell("groff -man -Tutf8 -ww -z " + entry.path().string() + " 2>&1", &status);
    EXPECT_EQ(status, 0) << entry.path();
    EXPECT_EQ(warnings, "") << entry.path();
  }
}

TEST(CliManTest, AnUnwritableDirectoryIsOneLineAndExitTwo) {
  testing::TempDir dir;
  testing::WriteTextFile(dir.File("file"), "x");
  const auto r = RunCli({"man", "--output-dir", dir.File("file/man")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(testing::LineCount(r.err), 1u);
  EXPECT_THAT(r.err, HasSubstr(dir.File("file/man")));
}

}  // namespace
}  // namespace etbench
