#pragma once
// Walks etbench's commands the way a person does: `etbench --help` lists the
// commands, a command's --help its subcommands and flags. Tests of help,
// completion and man pages use it instead of a list of their own.

#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_test_util.h"

namespace etbench::testing {

// Command names listed in a usage text: "  NAME  summary" lines after
// "Commands:" or after the Usage paragraph of a command with subcommands.
inline std::vector<std::string> ListedCommands(const std::string& help) {
  std::vector<std::string> names;
  std::istringstream in(help);
  const std::regex row("^  ([a-z]+)  +\\S.*$");
  std::smatch m;
  for (std::string line; std::getline(in, line);) {
    if (std::regex_match(line, m, row)) names.push_back(m[1]);
  }
  return names;
}

// Every command and subcommand, as argument lists, walked from the help.
inline std::vector<std::vector<std::string>> AllCommands() {
  std::vector<std::vector<std::string>> all;
  for (const std::string& name : ListedCommands(RunCli({"--help"}).out)) {
    all.push_back({name});
    const std::string help = RunCli({name, "--help"}).out;
    if (help.find("<command> --help") == std::string::npos) continue;  // no subcommands
    for (const std::string& sub : ListedCommands(help)) all.push_back({name, sub});
  }
  return all;
}

// "--name" of every option line of a help text.
inline std::vector<std::string> ListedFlags(const std::string& help) {
  std::vector<std::string> flags;
  std::istringstream in(help);
  const std::regex option("^  (?:-[a-zA-Z] \\[ )?--([a-z0-9_-]+)");
  std::smatch m;
  for (std::string line; std::getline(in, line);) {
    if (std::regex_search(line, m, option)) flags.push_back(m[1]);
  }
  return flags;
}

// `etbench COMMAND... --help`'s text.
inline std::string HelpOf(std::vector<std::string> command) {
  command.push_back("--help");
  return RunCli(command).out;
}

inline std::string Join(const std::vector<std::string>& words) {
  std::string s;
  for (const std::string& w : words) s += (s.empty() ? "" : " ") + w;
  return s;
}

}  // namespace etbench::testing
