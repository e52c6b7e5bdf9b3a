#include "command_support.h"

#include "etbench/base/atomic_file.h"
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
    po::command_line_parser parser(args);
    parser.options(options);
    if (positional != nullptr) parser.positional(*positional);
    po::store(parser.run(), *vm);
    po::notify(*vm);
    return true;
  } catch (const po::error& e) {
    err << "etbench " << command << ": " << e.what() << " (see 'etbench " << command
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

}  // namespace

std::optional<int> HelpOrParse(const std::string& command, const std::vector<std::string>& args,
                               const po::options_description& options,
                               const po::positional_options_description* positional,
                               po::variables_map* vm, std::ostream& out, std::ostream& err) {
  // Help wins over every other flag and never fails on missing required ones.
  if (WantsHelp(args)) {
    out << options << "\n";
    return kExitOk;
  }
  if (!ParseCommandLine(command, args, options, positional, vm, err)) return kExitInputError;
  return std::nullopt;
}

Status EmitOutput(const std::string& text, const std::string& output_path, std::ostream& out) {
  if (output_path.empty()) {
    out << text;
    out.flush();
    return Ok{};
  }
  return WriteFileAtomically(output_path, std::vector<uint8_t>(text.begin(), text.end()));
}

int ReportError(const std::string& command, const Error& error, std::ostream& err) {
  err << "etbench " << command << ": " << error.message << "\n";
  return kExitInputError;
}

}  // namespace etbench
