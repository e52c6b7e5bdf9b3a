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

}  // namespace etbench
