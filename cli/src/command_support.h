#pragma once
// Shared plumbing for subcommands: option parsing with uniform errors and
// writing output either to stdout or atomically to a file.

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "etbench/base/result.h"

namespace etbench {

/// The start of every subcommand: with -h/--help anywhere prints `options`
/// to `out` and returns 0; on a parse error prints one line to `err` and
/// returns 2; otherwise fills `vm` (notified) and returns nothing.
std::optional<int> HelpOrParse(
    const std::string& command, const std::vector<std::string>& args,
    const boost::program_options::options_description& options,
    const boost::program_options::positional_options_description* positional,
    boost::program_options::variables_map* vm, std::ostream& out, std::ostream& err);

/// Writes `text` to `output_path` atomically, or to `out` when empty.
Status EmitOutput(const std::string& text, const std::string& output_path, std::ostream& out);

/// Prints "etbench <command>: <message>" and returns the exit code for it.
int ReportError(const std::string& command, const Error& error, std::ostream& err);

}  // namespace etbench
