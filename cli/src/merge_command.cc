// `etbench merge`: joins the results of `etbench run --shard i/n` runs.
#include "command_support.h"
#include "etbench/base/terminal_text.h"
#include "commands.h"
#include "etbench/cli/etbench_cli.h"
#include "etbench/reports/summary.h"
#include "etbench/results/results.h"

namespace etbench {

namespace po = boost::program_options;

int RunMergeCommand(const CommandArgs& args, std::ostream& out, std::ostream& err, Disk& disk) {
  const std::string command = "merge";
  std::vector<std::string> inputs;
  std::string output;
  std::string summary = "none";
  po::options_description options(
      "Usage: etbench merge RESULTS... --output MERGED.json\n\n"
      "Joins the results files of one suite's shards (etbench run --shard I/N) into one.\n"
      "They must share suite, config hash, unit and time source, hold disjoint models\n"
      "and, when they are shards, form a complete set. ETDump paths are rewritten\n"
      "relative to the merged file.\n\n"
      "Exit codes: 0 written; 2 usage error or bad input (nothing written); 130\n"
      "interrupted (Ctrl-C, SIGTERM; written in full or not).\n\nOptions");
  // clang-format off
  options.add_options()
      ("help,h", "show this help")
      ("results", po::value(&inputs)->required()->composing(), "results files to join")
      ("output,o", po::value(&output)->required(), "merged results file (written atomically)")
      ("summary", po::value(&summary)->default_value("none"), "table, json or none (stdout)");
  // clang-format on
  po::positional_options_description positional;
  positional.add("results", -1);
  po::variables_map vm;
  if (auto exit = HelpOrParse(command, args, options, &positional, &vm, out, err)) return *exit;
  if (summary != "table" && summary != "json" && summary != "none") {
    return ReportError(command, UsageError("--summary must be table, json or none"), err);
  }
  auto merged = results::MergeResults(inputs, output, disk);
  if (!merged) return ReportError(command, merged.error(), err);
  if (Status s = results::WriteResultsFile(output, *merged, disk); !s) {
    return ReportError(command, s.error(), err);
  }
  if (summary == "table") out << reports::RenderSummaryTable(*merged, output);
  if (summary == "json") out << reports::RenderSummaryJson(*merged, output);
  err << "etbench merge: wrote " << TerminalText(output) << " (" << merged->models.size() << " models from "
      << inputs.size() << " files)\n";
  return kExitOk;
}

}  // namespace etbench
