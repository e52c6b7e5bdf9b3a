#pragma once
// Shell completion scripts for etbench, generated from the commands' own
// option tables (command_catalog.h), so every declared flag completes.

#include <string>
#include <vector>

#include "command_catalog.h"

namespace etbench {

/// A bash completion script defining `_etbench` and registering it for
/// `etbench`: commands and subcommands, each command's flags after '-',
/// files for the values of flags that take one and for positional inputs.
/// Needs only bash (no bash-completion package).
std::string BashCompletion(const std::vector<CommandInfo>& commands);

/// A zsh completion function (`#compdef etbench`, install as `_etbench` on
/// $fpath): commands and flags with their descriptions, files otherwise.
std::string ZshCompletion(const std::vector<CommandInfo>& commands);

}  // namespace etbench
