#pragma once
// Subcommand entry points of `etbench`. Each takes the arguments after its
// own name and returns the process exit code (see ExitCode).

#include <ostream>
#include <string>
#include <vector>

namespace etbench {

using CommandArgs = std::vector<std::string>;

int RunInspectCommand(const CommandArgs& args, std::ostream& out, std::ostream& err);
int RunConvertCommand(const CommandArgs& args, std::ostream& out, std::ostream& err);
int RunReportCommand(const CommandArgs& args, std::ostream& out, std::ostream& err);
int RunExportCommand(const CommandArgs& args, std::ostream& out, std::ostream& err);
int RunRunCommand(const CommandArgs& args, std::ostream& out, std::ostream& err);
int RunMergeCommand(const CommandArgs& args, std::ostream& out, std::ostream& err);
int RunCompareCommand(const CommandArgs& args, std::ostream& out, std::ostream& err);
int RunGateCommand(const CommandArgs& args, std::ostream& out, std::ostream& err);
int RunAbCommand(const CommandArgs& args, std::ostream& out, std::ostream& err);
int RunBaselineCommand(const CommandArgs& args, std::ostream& out, std::ostream& err);
int RunHistoryCommand(const CommandArgs& args, std::ostream& out, std::ostream& err);

}  // namespace etbench
