#include "etbench/cli/etbench_cli.h"

#include <cstring>

#include "command_catalog.h"
#include "commands.h"
#include "etbench/base/guarded_disk.h"
#include "etbench/base/terminal_text.h"

namespace etbench {
namespace {

struct Subcommand {
  const char* name;
  const char* summary;
  int (*run)(const CommandArgs&, const CliDeps&);
  /// Whether the command, with these arguments, runs suites or changes
  /// stored state (results, baselines, the history): Ctrl-C and SIGTERM are
  /// then caught for its whole length (InterruptedExit). Null: never.
  bool (*stateful)(const CommandArgs& args) = nullptr;
};

bool Always(const CommandArgs&) { return true; }

// `history add|ack` and `baseline save|update`; `list`, `show` and `detect`
// only read and stop at once on Ctrl-C.
bool WritingSubcommand(const CommandArgs& args) {
  if (args.empty()) return false;
  for (const char* name : {"add", "ack", "save", "update"}) {
    if (args.front() == name) return true;
  }
  return false;
}

// A command that needs only the output streams and the disk.
template <int (*Command)(const CommandArgs&, std::ostream&, std::ostream&, Disk&)>
int WithStreams(const CommandArgs& args, const CliDeps& deps) {
  return Command(args, *deps.out, *deps.err, *deps.disk);
}

constexpr Subcommand kSubcommands[] = {
    {"inspect", "print per-event statistics of an ETDump (ExecuTorch Inspector CLI)",
     WithStreams<RunInspectCommand>},
    {"convert", "convert a legacy prof_result.bin into an ETDump", WithStreams<RunConvertCommand>},
    {"run", "run a suite (YAML) on its runner and write results", RunRunCommand, Always},
    {"merge", "join the results of sharded runs (run --shard I/N)", WithStreams<RunMergeCommand>, Always},
    {"compare", "compare two results or baselines: verdicts, attribution", RunCompareCommand},
    {"gate", "run a suite and gate it against its baseline (exit 1 on regression)",
     RunGateCommand, Always},
    {"ab", "local before/after: two variants interleaved (ABBA), then compared",
     RunAbCommand, Always},
    {"baseline", "save, show or update a suite's stored baseline", WithStreams<RunBaselineCommand>,
     WritingSubcommand},
    {"history", "results over time: add, list, show, detect change points, ack",
     WithStreams<RunHistoryCommand>, WritingSubcommand},
    {"report", "render results or a comparison (terminal, markdown, junit, json, csv, html)",
     RunReportCommand},
    {"export", "ETDump runs as a Chrome/Perfetto trace or collapsed stacks",
     WithStreams<RunExportCommand>},
    {"completion", "bash or zsh completion script for etbench",
     WithStreams<RunCompletionCommand>},
    {"man", "write a man page per command (etbench.1, etbench-run.1, ...)",
     WithStreams<RunManCommand>},
};

std::string Usage() {
  std::string text =
      "Usage: etbench <command> [options]\n\n"
      "Turns ExecuTorch profiling (ETDump) into numbers you can gate on.\n\n"
      "Commands:\n";
  for (const Subcommand& c : kSubcommands) {
    text += "  " + std::string(c.name) + std::string(12 - std::strlen(c.name), ' ') + c.summary +
            "\n";
  }
  text +=
      "\nRun 'etbench <command> --help' for the options of a command. Flags are kebab-case\n"
      "(--output-dir); the older snake_case spellings (--output_dir) are still accepted.\n"
      "inspect keeps the names of ExecuTorch's Inspector CLI (--etdump_path, ...).\n\n"
      "Exit codes: 0 ok, 1 regression, 2 usage or input error, 3 inconclusive (on request),\n"
      "4 some models failed (run; results written), 130 interrupted (partial results kept).\n";
  return text;
}

// A stateful command caught Ctrl-C or SIGTERM for its whole length: its
// suites stopped between executions (exit 130 already); a signal in any
// other step let the command finish (history transactions, baselines and
// reports are complete, never half written), and it still ends with 130.
int InterruptedExit(const char* command, int code, const std::atomic<bool>& interrupted,
                    std::ostream& err) {
  if (code == kExitInterrupted || !interrupted.load()) return code;
  err << "etbench " << command << ": interrupted (Ctrl-C or SIGTERM); its writes were "
      << "completed first, none is left half done (exit " << kExitInterrupted << " instead of "
      << code << ")\n";
  return kExitInterrupted;
}

}  // namespace

int RunEtbench(const std::vector<std::string>& args, const CliDeps& given) {
  // Diagnostics quote names from outside (files, models, events): no byte
  // of them may reach the terminal as a control code, whichever message
  // forgot to escape it.
  TerminalLinesStream guarded_err(*given.err);
  CliDeps deps = given;
  deps.err = &guarded_err;
  if (deps.progress_err == nullptr) deps.progress_err = given.err;
  std::ostream& out = *deps.out;
  std::ostream& err = *deps.err;
  if (args.empty()) {
    err << Usage();
    return kExitInputError;
  }
  const std::string& command = args.front();
  if (command == "--help" || command == "-h" || command == "help") {
    if (CatalogRecorder* recorder = CatalogRecorder::Active()) {
      std::vector<std::pair<std::string, std::string>> names;
      for (const Subcommand& c : kSubcommands) names.emplace_back(c.name, c.summary);
      recorder->RecordSubcommands("", Usage(), names);
      return kExitOk;
    }
    out << Usage();
    return kExitOk;
  }
  if (command == "--version") {
    out << "etbench " << ETBENCH_VERSION << "\n";
    return kExitOk;
  }
  for (const Subcommand& c : kSubcommands) {
    if (command == c.name) {
      // No command may overwrite a file it reads (`-o` naming an input):
      // each command's disk remembers what it read.
      GuardedDisk disk(given.disk != nullptr ? *given.disk : DefaultDisk());
      deps.disk = &disk;
      const CommandArgs command_args(args.begin() + 1, args.end());
      const std::shared_ptr<const std::atomic<bool>> interrupted =
          c.stateful && c.stateful(command_args) && deps.catch_interrupts
              ? deps.catch_interrupts()
              : nullptr;
      const int code = c.run(command_args, deps);
      return interrupted ? InterruptedExit(c.name, code, *interrupted, err) : code;
    }
  }
  err << "etbench: unknown command '" << TerminalText(command) << "' (see 'etbench --help')\n";
  return kExitInputError;
}

}  // namespace etbench
