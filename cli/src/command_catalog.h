#pragma once
// Every command's option table, read from the commands themselves: the one
// source for help, shell completion and man pages. DescribeCommands runs
// `etbench [command [subcommand]] --help` in-process with a CatalogRecorder
// active; HelpOrParse and the subcommand dispatchers then record their
// tables instead of printing them, so a flag a command declares is in its
// completion and man page without being listed anywhere else.

#include <string>
#include <vector>

#include <boost/program_options.hpp>

namespace etbench {

struct OptionInfo {
  std::string name;        // the declared long name, e.g. "output-dir"
  char short_name = 0;     // e.g. 'o'; 0 when none
  bool takes_value = false;
  std::string parameter;   // as help prints it: "arg", "arg (=ns)"; empty for switches
  std::string description;
  bool positional = false;  // also given without its name (CONFIG, INPUT...)
};

struct CommandInfo {
  std::vector<std::string> words;  // {} for etbench itself, {"history", "add"}
  std::string summary;             // one line, from the parent's table
  std::string help;                // the whole --help text
  std::vector<OptionInfo> options;  // empty for a command with subcommands
  std::vector<std::string> subcommands;
};

/// While alive, HelpOrParse and DispatchSubcommand record into this object
/// (on this thread) instead of printing help. Not nestable.
class CatalogRecorder {
 public:
  CatalogRecorder();
  ~CatalogRecorder();
  CatalogRecorder(const CatalogRecorder&) = delete;
  CatalogRecorder& operator=(const CatalogRecorder&) = delete;

  /// The active recorder of this thread, or null.
  static CatalogRecorder* Active();

  /// `command` is the words separated by spaces ("history add").
  void RecordOptions(const std::string& command,
                     const boost::program_options::options_description& options,
                     const boost::program_options::positional_options_description* positional);
  void RecordSubcommands(const std::string& command, const std::string& help,
                         const std::vector<std::pair<std::string, std::string>>& names_summaries);

  const std::vector<CommandInfo>& commands() const { return commands_; }
  std::vector<CommandInfo> Take() { return std::move(commands_); }

 private:
  CommandInfo& Entry(const std::string& command);
  std::vector<CommandInfo> commands_;
  std::vector<std::pair<std::string, std::string>> summaries_;  // command → summary
};

/// etbench itself first, then every command and subcommand in the order of
/// the tables (a command before its subcommands).
std::vector<CommandInfo> DescribeCommands();

}  // namespace etbench
