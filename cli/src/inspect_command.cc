// `etbench inspect`: the reference Inspector's CLI (same flag names), plus
// machine-readable formats.
#include <sstream>

#include "command_support.h"
#include "commands.h"
#include "etbench/cli/etbench_cli.h"
#include "etbench/inspector/inspector.h"
#include "inspect_output.h"

namespace etbench {

namespace po = boost::program_options;

namespace {

struct InspectFlags {
  std::string etdump_path;
  std::string etrecord_path;
  std::string debug_buffer_path;
  std::string source_time_scale = "ns";
  std::string target_time_scale;  // empty: ms, or cycles for cycles
  std::string format = "table";
  std::string output;
  bool include_units = true;
  bool include_delegate_debug_data = false;
};

po::options_description InspectOptions(InspectFlags* f) {
  po::options_description d(
      "Usage: etbench inspect --etdump_path FILE [options]\n\n"
      "Reads an ETDump (size-prefixed or plain), groups its runs into event blocks like\n"
      "ExecuTorch's Inspector and prints per-event statistics and the framework tax.\n\n"
      "Options");
  d.add_options()
      ("help,h", "show this help")
      ("etdump_path", po::value(&f->etdump_path)->required(), "ETDump file to read")
      ("etrecord_path", po::value(&f->etrecord_path), "ETRecord archive of the same model")
      ("debug_buffer_path", po::value(&f->debug_buffer_path),
       "debug buffer holding intermediate tensors")
      ("source_time_scale", po::value(&f->source_time_scale)->default_value("ns"),
       "unit of the ETDump ticks: ns, us, ms, s or cycles")
      ("target_time_scale", po::value(&f->target_time_scale),
       "unit of the printed numbers (default ms; cycles when the source is cycles)")
      ("format", po::value(&f->format)->default_value("table"), "table, csv, tsv or json")
      ("include_units", po::value(&f->include_units)->default_value(true)->implicit_value(true),
       "put the unit in statistic column headers (true/false)")
      ("include_delegate_debug_data", po::bool_switch(&f->include_delegate_debug_data),
       "add a column with the delegates' debug metadata")
      ("output,o", po::value(&f->output), "write to FILE (atomically) instead of stdout");
  return d;
}

}  // namespace

int RunInspectCommand(const CommandArgs& args, std::ostream& out, std::ostream& err) {
  const std::string kCommand = "inspect";
  InspectFlags flags;
  po::options_description options = InspectOptions(&flags);
  for (const std::string& a : args) {
    if (a == "--help" || a == "-h") {
      out << options << "\n";
      return kExitOk;
    }
  }
  po::variables_map vm;
  if (!ParseCommandLine(kCommand, args, options, nullptr, &vm, err)) return kExitInputError;

  InspectorOptions inspector_options;
  auto source = ParseTimeScale(flags.source_time_scale);
  if (!source.ok()) return ReportError(kCommand, source.error(), err);
  inspector_options.source_time_scale = source.value();
  if (!flags.target_time_scale.empty()) {
    auto target = ParseTimeScale(flags.target_time_scale);
    if (!target.ok()) return ReportError(kCommand, target.error(), err);
    inspector_options.target_time_scale = target.value();
  }
  if (flags.format != "table" && flags.format != "csv" && flags.format != "tsv" &&
      flags.format != "json") {
    return ReportError(kCommand,
                       UsageError("unknown --format '" + flags.format +
                                  "' (expected table, csv, tsv or json)"),
                       err);
  }
  if (!flags.debug_buffer_path.empty()) {
    auto buffer = ReadFileBytes(flags.debug_buffer_path);
    if (!buffer.ok()) return ReportError(kCommand, buffer.error(), err);
    inspector_options.debug_buffer = std::move(buffer).value();
  }

  auto file = EtdumpFile::Open(flags.etdump_path);
  if (!file.ok()) return ReportError(kCommand, file.error(), err);
  auto blocks = BuildEventBlocks(file.value(), inspector_options);
  if (!blocks.ok()) return ReportError(kCommand, blocks.error(), err);

  InspectOutputOptions output_options;
  output_options.source_time_scale = inspector_options.source_time_scale;
  output_options.target_time_scale = inspector_options.target_time_scale.value_or(
      DefaultTargetTimeScale(inspector_options.source_time_scale));
  output_options.include_units = flags.include_units;
  output_options.include_delegate_debug_data = flags.include_delegate_debug_data;

  std::string text;
  if (flags.format == "json") {
    text = RenderInspectJson(blocks.value(), output_options);
  } else if (flags.format == "csv") {
    text = RenderInspectDelimited(blocks.value(), output_options, ',');
  } else if (flags.format == "tsv") {
    text = RenderInspectDelimited(blocks.value(), output_options, '\t');
  } else {
    text = RenderInspectTable(blocks.value(), output_options);
  }
  Status written = EmitOutput(text, flags.output, out);
  if (!written.ok()) return ReportError(kCommand, written.error(), err);
  return kExitOk;
}

}  // namespace etbench
