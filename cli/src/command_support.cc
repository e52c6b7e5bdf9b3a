#include "command_support.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "command_catalog.h"
#include "etbench/base/atomic_file.h"
#include "etbench/base/terminal_text.h"
#include "etbench/cli/etbench_cli.h"
#include "etbench/inspector/etdump_writer.h"

namespace etbench {

namespace po = boost::program_options;

namespace {

bool ParseCommandLine(const std::string& command, const std::vector<std::string>& args,
                      const po::options_description& options,
                      const po::positional_options_description* positional,
                      po::variables_map* vm, std::ostream& err) {
  try {
    po::command_line_parser parser(CanonicalSpellings(args, options));
    parser.options(options);
    if (positional != nullptr) parser.positional(*positional);
    po::store(parser.run(), *vm);
    po::notify(*vm);
    return true;
  } catch (const po::error& e) {
    err << "etbench " << command << ": " << TerminalText(e.what()) << " (see 'etbench " << command
        << " --help')\n";
    return false;
  }
}

bool WantsHelp(const std::vector<std::string>& args) {
  for (const std::string& a : args) {
    if (a == "--help" || a == "-h") return true;
  }
  return false;
}

bool Declares(const po::options_description& options, const std::string& name) {
  return options.find_nothrow(name, /*approx=*/false) != nullptr;
}

}  // namespace

std::vector<std::string> CanonicalSpellings(const std::vector<std::string>& args,
                                            const po::options_description& options) {
  std::vector<std::string> out;
  out.reserve(args.size());
  bool options_end = false;
  for (const std::string& a : args) {
    if (a == "--") options_end = true;
    if (options_end || a.size() <= 2 || a.compare(0, 2, "--") != 0) {
      out.push_back(a);
      continue;
    }
    const std::size_t eq = a.find('=');
    const std::string name = a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    std::string other = name;
    for (char& c : other) c = c == '_' ? '-' : c == '-' ? '_' : c;
    if (other != name && !Declares(options, name) && Declares(options, other)) {
      out.push_back("--" + other + (eq == std::string::npos ? "" : a.substr(eq)));
    } else {
      out.push_back(a);
    }
  }
  return out;
}

std::string ShortestText(double value) {
  char buf[40];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, value);
    if (std::strtod(buf, nullptr) == value) return buf;
  }
  return buf;
}

po::typed_value<double>* DoubleWithDefault(double* target) {
  return po::value(target)->default_value(*target, ShortestText(*target));
}

std::optional<int> HelpOrParse(const std::string& command, const std::vector<std::string>& args,
                               const po::options_description& options,
                               const po::positional_options_description* positional,
                               po::variables_map* vm, std::ostream& out, std::ostream& err) {
  if (CatalogRecorder* recorder = CatalogRecorder::Active()) {
    recorder->RecordOptions(command, options, positional);
    return kExitOk;
  }
  // Help wins over every other flag and never fails on missing required ones.
  if (WantsHelp(args)) {
    out << options << "\n";
    return kExitOk;
  }
  if (!ParseCommandLine(command, args, options, positional, vm, err)) return kExitInputError;
  return std::nullopt;
}

int DispatchSubcommand(const std::string& command, const std::string& usage,
                       const std::vector<SubcommandEntry>& subcommands,
                       const std::string& exit_codes, const CommandArgs& args, std::ostream& out,
                       std::ostream& err, Disk& disk) {
  std::string help = usage + "\n";
  std::size_t width = 0;
  for (const SubcommandEntry& c : subcommands) width = std::max(width, std::strlen(c.name));
  for (const SubcommandEntry& c : subcommands) {
    help += "  " + std::string(c.name) + std::string(width + 2 - std::strlen(c.name), ' ') +
            c.summary + "\n";
  }
  help += "\n'etbench " + command + " <command> --help' prints the options of a command.\n\n" +
          exit_codes + "\n";
  const bool wants_help = !args.empty() && (args.front() == "--help" || args.front() == "-h");
  if (wants_help) {
    if (CatalogRecorder* recorder = CatalogRecorder::Active()) {
      std::vector<std::pair<std::string, std::string>> names;
      for (const SubcommandEntry& c : subcommands) names.emplace_back(c.name, c.summary);
      recorder->RecordSubcommands(command, help, names);
      return kExitOk;
    }
    out << help;
    return kExitOk;
  }
  if (args.empty()) {
    err << help;
    return kExitInputError;
  }
  for (const SubcommandEntry& c : subcommands) {
    if (args.front() == c.name) {
      return c.run(CommandArgs(args.begin() + 1, args.end()), out, err, disk);
    }
  }
  err << "etbench " << command << ": unknown command '" << TerminalText(args.front())
      << "' (see 'etbench "
      << command << " --help')\n";
  return kExitInputError;
}

void PrintWarning(const std::string& command, const std::string& warning, std::ostream& err) {
  err << "etbench " << command << ": warning: " << TerminalText(warning) << "\n";
}

Status EmitOutput(const std::string& text, const std::string& output_path, std::ostream& out,
                  Disk& disk) {
  if (output_path.empty()) {
    out << text;
    out.flush();
    return Ok{};
  }
  return disk.WriteText(output_path, text);
}

int ReportError(const std::string& command, const Error& error, std::ostream& err) {
  // One line, whatever names the message quotes.
  err << "etbench " << command << ": " << TerminalText(error.message) << "\n";
  return kExitInputError;
}

}  // namespace etbench
