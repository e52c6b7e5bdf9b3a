// `etbench export`: ETDump runs as a Chrome trace (Perfetto,
// chrome://tracing) or as collapsed stacks for flame graph tools.
#include <optional>

#include "command_support.h"
#include "etbench/base/terminal_text.h"
#include "commands.h"
#include "etbench/cli/etbench_cli.h"
#include "etbench/reports/chrome_trace.h"
#include "etbench/reports/collapsed_stacks.h"
#include "etbench/reports/trace_source.h"

namespace etbench {

namespace po = boost::program_options;

namespace {

constexpr const char* kExportCommand = "export";

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// ETDumps directly, or every repetition's ETDump of a results file (.json).
Result<std::vector<reports::TraceSource>> LoadSources(const std::vector<std::string>& inputs,
                                                      const reports::TraceLoadOptions& options,
                                                      Disk& disk) {
  std::vector<reports::TraceSource> sources;
  for (const std::string& input : inputs) {
    if (EndsWith(input, ".json")) {
      auto loaded = reports::LoadResultsTraceSources(input, disk);
      if (!loaded.ok()) return loaded.error();
      for (auto& s : loaded.value()) sources.push_back(std::move(s));
      continue;
    }
    auto source = reports::LoadEtdumpTraceSource(input, options, "", disk);
    if (!source.ok()) return source.error();
    sources.push_back(std::move(source).value());
  }
  return sources;
}

}  // namespace

int RunExportCommand(const CommandArgs& args, std::ostream& out, std::ostream& err, Disk& disk) {
  std::vector<std::string> inputs;
  std::string output, source_time_scale = "ns";
  double tick_rate_hz = 0;
  int run = -1;
  bool want_trace = false, want_stacks = false;
  bool align_runs = false, prefix_file = false, prefix_block = false;
  po::options_description options(
      "Usage: etbench export (--chrome-trace | --stacks) INPUT... [--output FILE]\n\n"
      "INPUT: ETDump files, or results files (*.json: every repetition's ETDump).\n"
      "--chrome-trace: every run as a timeline of nested events (Method::execute >\n"
      "  OPERATOR_CALL > native_call_*, DELEGATE_CALL > delegate events), for\n"
      "  https://ui.perfetto.dev or chrome://tracing.\n"
      "--stacks: collapsed stacks 'frame;frame;frame <self ns>' (summed over runs) for\n"
      "  flamegraph.pl, inferno or speedscope.\n\n"
      "Exit codes: 0 exported; 2 usage error, or an input that cannot be read or is\n"
      "invalid, or an output that cannot be written.\n\nOptions");
  options.add_options()
      ("help,h", "show this help")
      ("chrome-trace", po::bool_switch(&want_trace), "export a Chrome trace (JSON)")
      ("stacks", po::bool_switch(&want_stacks), "export collapsed stacks")
      ("output,o", po::value(&output), "write to FILE (atomically) instead of stdout")
      ("source-time-scale", po::value(&source_time_scale)->default_value("ns"),
       "unit of the ETDump ticks: ns, us, ms, s or cycles (results files carry their own)")
      ("tick-rate-hz", po::value(&tick_rate_hz), "cycles per second, to draw cycle counts as time")
      ("run", po::value(&run), "only this run (0-based) of each block")
      ("align-runs", po::bool_switch(&align_runs),
       "trace: start every run at 0 instead of its real offset")
      ("prefix-file", po::bool_switch(&prefix_file), "stacks: the input's name as the root frame")
      ("prefix-block", po::bool_switch(&prefix_block), "stacks: the block's name as a root frame")
      ("input", po::value(&inputs)->required(), "ETDump or results files");
  po::positional_options_description positional;
  positional.add("input", -1);
  po::variables_map vm;
  if (auto exit = HelpOrParse(kExportCommand, args, options, &positional, &vm, out, err)) return *exit;
  if (want_trace == want_stacks) {
    return ReportError(kExportCommand,
                       UsageError("say what to export: --chrome-trace or --stacks (one per call)"),
                       err);
  }
  if (run < -1) return ReportError(kExportCommand, UsageError("--run must be 0 or more"), err);
  if (tick_rate_hz < 0) return ReportError(kExportCommand, UsageError("--tick-rate-hz must be positive"), err);
  auto scale = ParseTimeScale(source_time_scale);
  if (!scale.ok()) return ReportError(kExportCommand, scale.error(), err);

  reports::TraceLoadOptions load;
  load.source_time_scale = scale.value();
  load.tick_rate_hz = tick_rate_hz;
  auto sources = LoadSources(inputs, load, disk);
  if (!sources.ok()) return ReportError(kExportCommand, sources.error(), err);
  const std::optional<std::size_t> only_run =
      run >= 0 ? std::optional<std::size_t>(static_cast<std::size_t>(run)) : std::nullopt;

  std::string text;
  if (want_trace) {
    reports::ChromeTraceOptions trace_options;
    trace_options.run = only_run;
    trace_options.align_runs = align_runs;
    text = reports::RenderChromeTrace(sources.value(), trace_options);
  } else {
    reports::CollapsedStacksOptions stack_options;
    stack_options.run = only_run;
    stack_options.prefix_source = prefix_file;
    stack_options.prefix_block = prefix_block;
    text = reports::RenderCollapsedStacks(sources.value(), stack_options);
  }
  Status written = EmitOutput(text, output, out, disk);
  if (!written.ok()) return ReportError(kExportCommand, written.error(), err);
  if (!output.empty()) err << "etbench export: wrote " << TerminalText(output) << "\n";
  return kExitOk;
}

}  // namespace etbench
