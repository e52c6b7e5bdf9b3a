// `etbench convert`: a legacy prof_result.bin into an ETDump, so compare,
// reports and every other command work on old profiles too.
#include "command_support.h"
#include "etbench/base/terminal_text.h"
#include "commands.h"
#include "etbench/cli/etbench_cli.h"
#include "etbench/inspector/etdump_writer.h"
#include "etbench/inspector/legacy_convert.h"
#include "etbench/inspector/legacy_profile.h"

namespace etbench {

namespace po = boost::program_options;

int RunConvertCommand(const CommandArgs& args, std::ostream& out, std::ostream& err, Disk& disk) {
  const std::string command = "convert";
  std::string input;
  std::string output;
  bool plain = false;
  po::options_description options(
      "Usage: etbench convert LEGACY_PROFILE OUT.etdp\n"
      "       etbench convert LEGACY_PROFILE --output OUT.etdp\n\n"
      "Converts a legacy prof_result.bin into an ETDump (one Execute-style run per\n"
      "iteration of each block), size-prefixed like a device's. Scopes still open when\n"
      "the profile was dumped (end_time 0) are left out, with a warning on stderr.\n\n"
      "Exit codes: 0 written, 2 usage or input error (nothing written).\n\nOptions");
  options.add_options()
      ("help,h", "show this help")
      ("legacy-profile", po::value(&input)->required(), "the prof_result.bin to convert")
      ("output,o", po::value(&output)->required(),
       "ETDump to write (atomically); also the second positional argument")
      ("plain", po::bool_switch(&plain), "write without the 4-byte size prefix");
  po::positional_options_description positional;
  positional.add("legacy-profile", 1).add("output", 1);
  po::variables_map vm;
  if (auto exit = HelpOrParse(command, args, options, &positional, &vm, out, err)) return *exit;
  auto profile = ReadLegacyProfile(input);
  disk.NoteRead(input);  // the inspector reads it itself
  if (!profile.ok()) return ReportError(command, profile.error(), err);
  auto record = ConvertLegacyToEtdump(profile.value());
  if (!record.ok()) return ReportError(command, record.error(), err);
  for (const std::string& w : UnfinishedScopeWarnings(profile.value())) {
    PrintWarning("convert", w, err);
  }
  Status written = disk.WriteAtomically(output, WriteEtdump(record.value(), {!plain}),
                                        AtomicWriteOptions{});
  if (!written.ok()) return ReportError(command, written.error(), err);
  err << "etbench convert: wrote " << TerminalText(output) << " (" << record->run_data.size() << " runs)\n";
  return kExitOk;
}

}  // namespace etbench
