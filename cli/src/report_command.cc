// `etbench report`: a results or comparison file rendered for people
// (terminal, Markdown, HTML) or CI (JUnit, JSON, CSV/TSV).
#include "command_support.h"
#include "commands.h"
#include "etbench/base/atomic_file.h"
#include "etbench/cli/etbench_cli.h"
#include "etbench/reports/pytorch_v3.h"
#include "etbench/reports/report_loader.h"
#include "etbench/reports/reports.h"
#include "etbench/reports/terminal_color.h"
#include "etbench/results/input_files.h"

namespace etbench {

namespace po = boost::program_options;

namespace {
constexpr const char* kReportCommand = "report";
}  // namespace

int RunReportCommand(const CommandArgs& args, const CliDeps& deps) {
  std::ostream& out = *deps.out;
  std::ostream& err = *deps.err;
  std::string input, format = "terminal", output, baseline_path, candidate_path, title, color = "auto",
      pytorch_v3_path;
  std::vector<std::string> report_specs;
  std::size_t max_rows = 25, width = 0, markdown_max_chars = 60000;
  bool show_unchanged = false, raw_samples = false;
  po::options_description options(
      "Usage: etbench report RESULTS_OR_COMPARISON [--format F] [--output FILE]\n"
      "                      [--report FORMAT=FILE]... [--baseline B --candidate C]\n\n"
      "Renders a results file (etbench run), a Google Benchmark JSON file or a comparison\n"
      "file (compare/gate --report json=FILE). Formats: " +
      reports::ReportFormatList() +
      ".\n--baseline/--candidate (baseline or results files) add the raw samples\n"
      "a comparison file does not keep: the HTML distribution plots need them.\n"
      "--pytorch-v3 FILE writes the run's or the comparison's metrics as PyTorch OSS\n"
      "benchmark database v3 records (docs/ci.md).\n\n"
      "Exit codes: 0 written; 2 usage error, an unreadable or invalid input, or an\n"
      "output that cannot be written. (A comparison's regressions do not change the\n"
      "exit code here: 'etbench compare' and 'gate' gate.)\n\nOptions");
  options.add_options()
      ("help,h", "show this help")
      ("format,f", po::value(&format)->default_value("terminal"), "output format")
      ("output,o", po::value(&output), "write the --format report to FILE (atomically)")
      ("report", po::value(&report_specs)->composing(),
       "also write FORMAT=FILE (repeatable)")
      ("baseline", po::value(&baseline_path), "samples of the comparison's baseline")
      ("candidate", po::value(&candidate_path), "samples of the comparison's candidate")
      ("title", po::value(&title), "heading of the report (default: etbench)")
      ("max-rows", po::value(&max_rows)->default_value(25), "rows per table (0 = all)")
      ("show-unchanged", po::bool_switch(&show_unchanged), "terminal: list unchanged metrics too")
      ("raw-samples", po::bool_switch(&raw_samples),
       "json of a results file: keep every raw sample (one per execution; large)")
      ("color", po::value(&color)->default_value("auto"),
       "terminal colours: auto (a TTY and NO_COLOR unset), always, never")
      ("width", po::value(&width), "terminal width (default: COLUMNS or the terminal's)")
      ("markdown-max-chars", po::value(&markdown_max_chars)->default_value(60000),
       "Markdown size budget (GitHub comments hold 65,536 characters)")
      ("pytorch-v3", po::value(&pytorch_v3_path),
       "also write PyTorch OSS benchmark database v3 records to FILE (atomically)")
      ("input", po::value(&input)->required(), "results, Google Benchmark or comparison JSON");
  po::positional_options_description positional;
  positional.add("input", 1);
  po::variables_map vm;
  if (auto exit = HelpOrParse(kReportCommand, args, options, &positional, &vm, out, err)) return *exit;

  std::vector<std::string> specs{format + (output.empty() ? "" : "=" + output)};
  specs.insert(specs.end(), report_specs.begin(), report_specs.end());
  auto requests = reports::ParseReportRequests(specs);
  if (!requests.ok()) return ReportError(kReportCommand, requests.error(), err);
  auto mode = reports::ParseColorMode(color);
  if (!mode.ok()) return ReportError(kReportCommand, mode.error(), err);

  auto loaded = reports::LoadReportFile(input, *deps.disk);
  if (!loaded.ok()) return ReportError(kReportCommand, loaded.error(), err);
  if ((!baseline_path.empty() || !candidate_path.empty()) && !loaded->comparison) {
    return ReportError(kReportCommand,
                       UsageError("--baseline/--candidate only apply to a comparison file; " +
                                  input + " holds results"),
                       err);
  }
  for (auto [path, slot] : {std::pair{&baseline_path, &loaded->baseline},
                            std::pair{&candidate_path, &loaded->candidate}}) {
    if (path->empty()) continue;
    auto set = results::LoadMetricSetFile(*path, *deps.disk);
    if (!set.ok()) return ReportError(kReportCommand, set.error(), err);
    *slot = std::move(set).value();
  }

  if (!pytorch_v3_path.empty()) {
    const std::string records = loaded->comparison ? reports::ComparisonToPytorchV3(*loaded->comparison)
                                                   : reports::RunToPytorchV3(*loaded->results);
    Status written = deps.disk->WriteText(pytorch_v3_path, records);
    if (!written.ok()) return ReportError(kReportCommand, written.error(), err);
  }

  const Environment& env = *deps.env;
  reports::ReportOptions report_options;
  report_options.color =
      reports::UseColor(mode.value(), reports::StreamIsTerminal(out), env);
  report_options.terminal_width = width > 0 ? width : reports::TerminalWidth(out, env);
  report_options.max_rows = max_rows;
  report_options.show_unchanged = show_unchanged;
  report_options.raw_samples = raw_samples;
  report_options.markdown_max_chars = markdown_max_chars;
  report_options.generator = std::string("etbench ") + ETBENCH_VERSION;
  Status written = reports::WriteReports(requests.value(), loaded->Input(title), report_options,
                                         out, *deps.disk);
  if (!written.ok()) return ReportError(kReportCommand, written.error(), err);
  return kExitOk;
}

}  // namespace etbench
