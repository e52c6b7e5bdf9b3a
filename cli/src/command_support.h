#pragma once
// Shared plumbing for subcommands: option parsing with uniform errors and
// one spelling convention, subcommand dispatch, and writing output either to
// stdout or atomically to a file.

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "etbench/base/disk.h"
#include "etbench/base/result.h"

namespace etbench {

using CommandArgs = std::vector<std::string>;

/// The start of every subcommand: with -h/--help anywhere prints `options`
/// to `out` and returns 0; on a parse error prints one line to `err` and
/// returns 2; otherwise fills `vm` (notified) and returns nothing.
///
/// Spelling: each option is declared once — etbench's own in kebab-case
/// (`--output-dir`), inspect's reference-Inspector names in snake_case
/// (`--etdump_path`) — and its other spelling (`_` for `-` or the reverse)
/// is accepted too, hidden from help (CanonicalSpellings). A command's
/// help must contain an "Exit codes" paragraph (tests/cli/help_test.cc).
///
/// While a CatalogRecorder is active (command_catalog.h), records `command`
/// (words separated by spaces, e.g. "history add") with its options instead
/// of parsing or printing, and returns 0.
std::optional<int> HelpOrParse(
    const std::string& command, const std::vector<std::string>& args,
    const boost::program_options::options_description& options,
    const boost::program_options::positional_options_description* positional,
    boost::program_options::variables_map* vm, std::ostream& out, std::ostream& err);

/// `args` with every `--name` / `--name=value` that `options` does not
/// declare, but declares with '_' and '-' swapped, rewritten to the
/// declared name. Everything after a bare `--` is left alone.
std::vector<std::string> CanonicalSpellings(
    const std::vector<std::string>& args,
    const boost::program_options::options_description& options);

/// The shortest decimal text that reads back as `value` ("0.15", not
/// "0.14999999999999999"): defaults in help are printed as a person writes
/// them.
std::string ShortestText(double value);

/// `po::value(target)` defaulting to the current `*target`, printed by
/// ShortestText. Use for every floating-point option with a default.
boost::program_options::typed_value<double>* DoubleWithDefault(double* target);

/// A subcommand of a command that has several (`history add`, `baseline save`).
struct SubcommandEntry {
  const char* name;
  const char* summary;
  int (*run)(const CommandArgs&, std::ostream&, std::ostream&, Disk&);
};

/// Runs the subcommand named by `args[0]` with the rest of `args`. With no
/// arguments prints the usage to `err` and returns 2; with --help/-h prints
/// it to `out` and returns 0; an unknown name is one line and 2. The usage
/// is `usage` (its first paragraphs), the subcommands' names and summaries,
/// and `exit_codes`. While a CatalogRecorder is active, `--help` records
/// the subcommands instead of printing.
int DispatchSubcommand(const std::string& command, const std::string& usage,
                       const std::vector<SubcommandEntry>& subcommands,
                       const std::string& exit_codes, const CommandArgs& args, std::ostream& out,
                       std::ostream& err, Disk& disk);

/// Writes `text` to `output_path` atomically through `disk`, or to `out`
/// when the path is empty.
Status EmitOutput(const std::string& text, const std::string& output_path, std::ostream& out,
                  Disk& disk);

/// Prints "etbench <command>: <message>" and returns the exit code for it.
/// The message is shown by TerminalText (base/terminal_text.h): one line,
/// no control codes, whatever names it quotes.
int ReportError(const std::string& command, const Error& error, std::ostream& err);

/// Prints "etbench <command>: warning: <warning>", the warning by
/// TerminalText.
void PrintWarning(const std::string& command, const std::string& warning, std::ostream& err);

}  // namespace etbench
