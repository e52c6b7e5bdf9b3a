#include "etbench/cli/etbench_cli.h"

#include <cstring>

#include "command_catalog.h"
#include "commands.h"
#include "etbench/base/input_file.h"
#include "etbench/base/terminal_text.h"

namespace etbench {
namespace {

struct Subcommand {
  const char* name;
  const char* summary;
  int (*run)(const CommandArgs&, const CliDeps&);
};

// A command that needs only the output streams.
template <int (*Command)(const CommandArgs&, std::ostream&, std::ostream&)>
int WithStreams(const CommandArgs& args, const CliDeps& deps) {
  return Command(args, *deps.out, *deps.err);
}

constexpr Subcommand kSubcommands[] = {
    {"inspect", "print per-event statistics of an ETDump (ExecuTorch Inspector CLI)",
     WithStreams<RunInspectCommand>},
    {"convert", "convert a legacy prof_result.bin into an ETDump", WithStreams<RunConvertCommand>},
    {"run", "run a suite (YAML) on its runner and write results", RunRunCommand},
    {"merge", "join the results of sharded runs (run --shard I/N)", WithStreams<RunMergeCommand>},
    {"compare", "compare two results or baselines: verdicts, attribution", RunCompareCommand},
    {"gate", "run a suite and gate it against its baseline (exit 1 on regression)",
     RunGateCommand},
    {"ab", "local before/after: two variants interleaved (ABBA), then compared",
     RunAbCommand},
    {"baseline", "save, show or update a suite's stored baseline", WithStreams<RunBaselineCommand>},
    {"history", "results over time: add, list, show, detect change points, ack",
     WithStreams<RunHistoryCommand>},
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
      // No command may overwrite a file it reads (`-o` naming an input).
      InputRegistryScope inputs;
      return c.run(CommandArgs(args.begin() + 1, args.end()), deps);
    }
  }
  err << "etbench: unknown command '" << TerminalText(command) << "' (see 'etbench --help')\n";
  return kExitInputError;
}

}  // namespace etbench
