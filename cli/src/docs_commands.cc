// `etbench completion bash|zsh` and `etbench man --output-dir DIR`: shell
// completion and man pages generated from the commands' option tables (the
// build runs `man` for `cmake --install` and the .deb).
#include <filesystem>

#include "command_catalog.h"
#include "command_support.h"
#include "etbench/base/terminal_text.h"
#include "commands.h"
#include "completion.h"
#include "etbench/cli/etbench_cli.h"
#include "man_page.h"

namespace etbench {

namespace po = boost::program_options;

int RunCompletionCommand(const CommandArgs& args, std::ostream& out, std::ostream& err,
                         Disk& disk) {
  const char* command = "completion";
  std::string shell, output;
  po::options_description options(
      "Usage: etbench completion bash|zsh [--output FILE]\n\n"
      "Prints a completion script for the shell: commands, subcommands and every flag\n"
      "of each (with descriptions in zsh), file names for flag values and inputs.\n"
      "  bash: source <(etbench completion bash)   (or save it as\n"
      "        /usr/share/bash-completion/completions/etbench)\n"
      "  zsh:  etbench completion zsh > ~/.zsh/completions/_etbench  (a directory on\n"
      "        $fpath, before compinit)\n"
      "cmake --install and the .deb install both scripts.\n\n"
      "Exit codes: 0 printed; 2 usage error (no or an unknown shell) or FILE not writable.\n\n"
      "Options");
  options.add_options()
      ("help,h", "show this help")
      ("shell", po::value(&shell)->required(), "bash or zsh")
      ("output,o", po::value(&output), "write to FILE (atomically) instead of stdout");
  po::positional_options_description positional;
  positional.add("shell", 1);
  po::variables_map vm;
  if (auto exit = HelpOrParse(command, args, options, &positional, &vm, out, err)) return *exit;
  if (shell != "bash" && shell != "zsh") {
    return ReportError(command, UsageError("unknown shell '" + shell + "' (expected bash or zsh)"),
                       err);
  }
  const std::vector<CommandInfo> commands = DescribeCommands();
  const std::string script = shell == "bash" ? BashCompletion(commands) : ZshCompletion(commands);
  if (Status s = EmitOutput(script, output, out, disk); !s.ok()) {
    return ReportError(command, s.error(), err);
  }
  return kExitOk;
}

int RunManCommand(const CommandArgs& args, std::ostream& out, std::ostream& err, Disk& disk) {
  const char* command = "man";
  std::string dir;
  po::options_description options(
      "Usage: etbench man --output-dir DIR\n\n"
      "Writes one man page (section 1, roff) per command and subcommand into DIR:\n"
      "etbench.1, etbench-run.1, etbench-history-add.1, ... Each is made from the\n"
      "command's --help: synopsis, description, options, exit status. The build writes\n"
      "them into build/man/ for cmake --install and the .deb (man etbench-gate).\n\n"
      "Exit codes: 0 written; 2 usage error or DIR not writable.\n\nOptions");
  options.add_options()
      ("help,h", "show this help")
      ("output-dir", po::value(&dir)->required(), "directory for the pages (created)");
  po::variables_map vm;
  if (auto exit = HelpOrParse(command, args, options, nullptr, &vm, out, err)) return *exit;
  if (Status made = disk.CreateDirectories(dir); !made.ok()) {
    return ReportError(command, InputError(dir + ": cannot create: " + made.error().message), err);
  }
  const std::vector<ManPage> pages = ManPages(DescribeCommands(), ETBENCH_VERSION);
  for (const ManPage& page : pages) {
    const std::string path = (std::filesystem::path(dir) / page.file_name).string();
    if (Status s = EmitOutput(page.text, path, out, disk); !s.ok()) {
      return ReportError(command, s.error(), err);
    }
  }
  err << "etbench man: wrote " << pages.size() << " pages to " << TerminalText(dir) << "\n";
  return kExitOk;
}

}  // namespace etbench
