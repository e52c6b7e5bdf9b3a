#pragma once
// Man pages (roff, section 1) for etbench and each of its commands,
// generated from the commands' own help and option tables
// (command_catalog.h).

#include <string>
#include <vector>

#include "command_catalog.h"

namespace etbench {

struct ManPage {
  std::string file_name;  // "etbench.1", "etbench-history-add.1"
  std::string text;       // roff (man macros)
};

/// One page per command: NAME (the summary), SYNOPSIS (its Usage lines),
/// DESCRIPTION (the rest of its help), COMMANDS or OPTIONS, EXIT STATUS
/// (its "Exit codes" paragraph) and SEE ALSO. `version` goes in the footer.
std::vector<ManPage> ManPages(const std::vector<CommandInfo>& commands, const std::string& version);

}  // namespace etbench
