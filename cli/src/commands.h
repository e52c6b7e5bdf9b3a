#pragma once
// Subcommand entry points of `etbench`. Each takes the arguments after its
// own name and returns the process exit code (see ExitCode). Commands that
// touch the outside world beyond their files (processes, clocks, the
// environment, Ctrl-C) take the injected CliDeps; the others its streams
// and its disk (a GuardedDisk: every file they read or write goes through
// it).

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include <boost/program_options/options_description.hpp>

#include "etbench/cli/cli_deps.h"

namespace etbench {

using CommandArgs = std::vector<std::string>;

int RunInspectCommand(const CommandArgs& args, std::ostream& out, std::ostream& err, Disk& disk);
int RunConvertCommand(const CommandArgs& args, std::ostream& out, std::ostream& err, Disk& disk);
int RunReportCommand(const CommandArgs& args, const CliDeps& deps);
int RunExportCommand(const CommandArgs& args, std::ostream& out, std::ostream& err, Disk& disk);
int RunRunCommand(const CommandArgs& args, const CliDeps& deps);
int RunMergeCommand(const CommandArgs& args, std::ostream& out, std::ostream& err, Disk& disk);
int RunCompareCommand(const CommandArgs& args, const CliDeps& deps);
int RunGateCommand(const CommandArgs& args, const CliDeps& deps);
int RunAbCommand(const CommandArgs& args, const CliDeps& deps);
/// ab's option table (with storage of its own), for gate's help and parse.
std::shared_ptr<const boost::program_options::options_description> AbOptionTable();
int RunBaselineCommand(const CommandArgs& args, std::ostream& out, std::ostream& err, Disk& disk);
int RunHistoryCommand(const CommandArgs& args, std::ostream& out, std::ostream& err, Disk& disk);
int RunCompletionCommand(const CommandArgs& args, std::ostream& out, std::ostream& err, Disk& disk);
int RunManCommand(const CommandArgs& args, std::ostream& out, std::ostream& err, Disk& disk);

}  // namespace etbench
