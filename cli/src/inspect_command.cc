// `etbench inspect`: the reference Inspector's CLI (same flag names), plus
// machine-readable formats, ETRecord symbolication, profiler views and the
// legacy prof_result.bin tables.
#include <cstdio>
#include <sstream>
#ifdef __GLIBC__  // defined by the headers above
#include <malloc.h>
#endif

#include "command_support.h"
#include "commands.h"
#include "etbench/base/parse_number.h"
#include "etbench/cli/etbench_cli.h"
#include "etbench/inspector/etrecord.h"
#include "etbench/inspector/etrecord_symbolicate.h"
#include "etbench/inspector/event_block_reader.h"
#include "etbench/inspector/inspector.h"
#include "etbench/inspector/module_tree.h"
#include "etbench/reports/etrecord_render.h"
#include "etbench/reports/inspect_output.h"
#include "etbench/reports/profiler_table.h"
#include "inspect_flags.h"

namespace etbench {

namespace po = boost::program_options;

namespace {

const char kInspectCommand[] = "inspect";

po::options_description InspectOptions(InspectFlags* f) {
  po::options_description d(
      "Usage: etbench inspect --etdump_path FILE [options]\n"
      "       etbench inspect --legacy-profile FILE [--time-scale ns] [--format table|json|csv]\n"
      "       etbench inspect --legacy-profile FILE [--time-scale ns] --view tree|events|key_averages\n\n"
      "Reads an ETDump (size-prefixed or plain), groups its runs into event blocks like\n"
      "ExecuTorch's Inspector and prints per-event statistics and the framework tax.\n\n"
      "The flags of ExecuTorch's Inspector CLI keep its names (--etdump_path,\n"
      "--etrecord_path, --debug_buffer_path, --source_time_scale, --target_time_scale);\n"
      "etbench's own are kebab-case. Every flag also accepts the other spelling.\n\n"
      "Exit codes: 0 printed (or written with --output); 2 usage error, or an input that\n"
      "cannot be read or is invalid (ETDump, ETRecord, debug buffer, legacy profile).\n\n"
      "Input");
  d.add_options()
      ("help,h", "show this help")
      ("etdump_path", po::value(&f->etdump_path), "ETDump file to read")
      ("etrecord_path", po::value(&f->etrecord_path),
       "ETRecord archive of the same model: op types, stack traces, modules")
      ("method", po::value(&f->method)->default_value("forward"), "ETRecord method")
      ("debug_buffer_path", po::value(&f->debug_buffer_path),
       "debug buffer holding intermediate tensors")
      ("source_time_scale", po::value(&f->source_time_scale)->default_value("ns"),
       "unit of the ETDump ticks: ns, us, ms, s or cycles")
      ("target_time_scale", po::value(&f->target_time_scale),
       "unit of the printed numbers (default ms; cycles when the source is cycles)")
      ("legacy-profile", po::value(&f->legacy_profile),
       "a legacy prof_result.bin instead of an ETDump")
      ("time-scale", po::value(&f->time_scale)->default_value("ns"),
       "legacy profile: unit of its ticks (ns, us, ms or cycles)");
  po::options_description out("Output");
  out.add_options()
      ("format", po::value(&f->format)->default_value("table"),
       "table, csv, tsv or json (views: table only; legacy: table, json, csv)")
      ("include-units",
       po::value(&f->include_units)->default_value(true, "true")->implicit_value(true, "true"),
       "put the unit in statistic column headers (true/false)")
      ("include-delegate-debug-data", po::bool_switch(&f->include_delegate_debug_data),
       "add a column with the delegates' debug metadata")
      ("output,o", po::value(&f->output), "write to FILE (atomically) instead of stdout");
  po::options_description views("Views (torch.profiler-style analysis)");
  views.add_options()
      ("view", po::value(&f->view),
       "events, tree, key_averages or module_tree (default: the Inspector table)")
      ("group-by", po::value(&f->group_by)->default_value("name"),
       "key_averages key: name, op_type, module or instruction")
      ("sort-by", po::value(&f->sort_by), "total, self, avg, count or name")
      ("row-limit", po::value(&f->row_limit), "rows per table (tree: lines per run)")
      ("time-unit", po::value(&f->time_unit), "s, ms, us or ns for every printed time")
      ("top-level-only", po::bool_switch(&f->top_level_only), "only events without a parent")
      ("max-name-width", po::value(&f->max_name_width)->default_value(55),
       "cut longer names with '...'")
      ("run", po::value(&f->run)->default_value("0"), "tree view: run index, or 'all'");
  po::options_description etrecord("ETRecord");
  etrecord.add_options()
      ("module", po::value<std::string>(),
       "print the total of the average times of the events within module NAME")
      ("show-graph", po::bool_switch(&f->show_graph), "print a summary of the program graph");
  d.add(out).add(views).add(etrecord);
  return d;
}

Result<AnalysisViewOptions> ViewOptions(const InspectFlags& f) {
  AnalysisViewOptions o;
  auto view = ParseAnalysisView(f.view);
  if (!view.ok()) return view.error();
  o.view = view.value();
  auto group = ParseGroupBy(f.group_by);
  if (!group.ok()) return group.error();
  o.group_by = group.value();
  if (!f.sort_by.empty()) {
    auto sort = ParseSortBy(f.sort_by);
    if (!sort.ok()) return sort.error();
    o.table.sort_by = sort.value();
  }
  if (f.row_limit >= 0) o.table.row_limit = static_cast<std::size_t>(f.row_limit);
  if (!f.time_unit.empty()) {
    auto unit = ParseTimeScale(f.time_unit);
    if (!unit.ok()) return unit.error();
    o.table.time_unit = unit.value();
  }
  o.table.top_level_only = f.top_level_only;
  o.table.max_name_width = f.max_name_width;
  if (f.run == "all") {
    o.tree_run.reset();
  } else {
    const std::optional<int64_t> run = ParseInteger(f.run, 0);
    if (!run) return UsageError("--run expects a run index or 'all', got '" + f.run + "'");
    o.tree_run = static_cast<std::size_t>(*run);
  }
  return o;
}

// Writes what the flags ask for from finished (and symbolicated) blocks to
// `out`; the Inspector table and JSON are streamed (written as they are
// made). On error nothing has been written.
Status WriteEtdumpOutput(const InspectFlags& f, std::vector<EventBlock>& blocks,
                         const std::optional<Etrecord>& etrecord,
                         const InspectOutputOptions& output, std::ostream& out) {
  std::string text;
  if (f.show_graph) text += RenderGraphSummary(*etrecord);
  if (f.module) {
    char line[256];
    std::snprintf(line, sizeof line, "Total for module %s: %s %s\n", f.module->c_str(),
                  FormatShortest(FindTotalForModule(blocks, *f.module)).c_str(),
                  std::string(TimeScaleName(output.target_time_scale)).c_str());
    text += line;
  }
  if ((f.show_graph || f.module) && f.view.empty()) {
    out << text;  // asked for these only
    return Ok{};
  }
  if (f.view == "module_tree") {
    out << text << RenderModuleTree(BuildModuleTree(blocks), TimeScaleName(output.target_time_scale));
    return Ok{};
  }
  if (!f.view.empty()) {
    auto options = ViewOptions(f);
    if (!options.ok()) return options.error();
    auto view = RenderAnalysisView(blocks, options.value());
    if (!view.ok()) return view.error();
    out << text << view.value();
    return Ok{};
  }
  out << text;
  if (f.format == "json") {
    WriteInspectJson(blocks, output, out);
  } else if (f.format == "csv") {
    WriteInspectDelimited(blocks, output, ',', out);
  } else if (f.format == "tsv") {
    WriteInspectDelimited(blocks, output, '\t', out);
  } else {
    WriteInspectTable(blocks, output, out);
  }
  return Ok{};
}

Status CheckFlagCombinations(const InspectFlags& f) {
  if (f.legacy_profile.empty() == f.etdump_path.empty()) {
    return UsageError("give exactly one of --etdump_path and --legacy-profile");
  }
  if (f.format != "table" && f.format != "csv" && f.format != "tsv" && f.format != "json") {
    return UsageError("unknown --format '" + f.format + "' (expected table, csv, tsv or json)");
  }
  if (!f.view.empty() && f.format != "table") {
    return UsageError("--view prints tables only; drop --format " + f.format);
  }
  if ((f.show_graph || f.module) && f.etrecord_path.empty()) {
    return UsageError(std::string(f.show_graph ? "--show-graph" : "--module") +
                      " needs --etrecord_path");
  }
  return Ok{};
}

}  // namespace

int RunInspectCommand(const CommandArgs& args, std::ostream& out, std::ostream& err, Disk& disk) {
  InspectFlags flags;
  po::options_description options = InspectOptions(&flags);
  po::variables_map vm;
  if (auto exit = HelpOrParse(kInspectCommand, args, options, nullptr, &vm, out, err)) return *exit;
  if (vm.count("module")) flags.module = vm["module"].as<std::string>();
  if (Status s = CheckFlagCombinations(flags); !s.ok()) return ReportError(kInspectCommand, s.error(), err);
  const bool legacy = !flags.legacy_profile.empty();
  if (legacy && flags.view.empty()) return RunLegacyInspect(flags, out, err, disk);

  InspectorOptions inspector_options;
  auto source = ParseTimeScale(legacy ? flags.time_scale : flags.source_time_scale);
  if (!source.ok()) return ReportError(kInspectCommand, source.error(), err);
  inspector_options.source_time_scale = source.value();
  if (!flags.target_time_scale.empty()) {
    auto target = ParseTimeScale(flags.target_time_scale);
    if (!target.ok()) return ReportError(kInspectCommand, target.error(), err);
    inspector_options.target_time_scale = target.value();
  }
  if (!flags.debug_buffer_path.empty()) {
    auto buffer = ReadFileBytes(flags.debug_buffer_path);
    disk.NoteRead(flags.debug_buffer_path);  // read with the ETDump's size limit
    if (!buffer.ok()) return ReportError(kInspectCommand, buffer.error(), err);
    inspector_options.debug_buffer = std::move(buffer).value();
  }

  const TimeScale source_time_scale = inspector_options.source_time_scale;
  const TimeScale target_time_scale =
      inspector_options.target_time_scale.value_or(DefaultTargetTimeScale(source_time_scale));
  Result<std::vector<EventBlock>> blocks = [&]() -> Result<std::vector<EventBlock>> {
    // The inspector maps and reads its files itself: the disk is told.
    if (legacy) {
      disk.NoteRead(flags.legacy_profile);
      return LegacyEventBlocks(flags.legacy_profile, inspector_options, err);
    }
    // One pass: each run grouped as soon as it is verified.
    EventBlockReader reader(std::move(inspector_options));  // the debug buffer not copied
    auto file = reader.Open(flags.etdump_path);
    disk.NoteRead(flags.etdump_path);
    if (!file.ok()) return file.error();
    for (const std::string& w : file->warnings()) PrintWarning(kInspectCommand, w, err);
    return reader.Finish();
  }();
  if (!blocks.ok()) return ReportError(kInspectCommand, blocks.error(), err);
#ifdef __GLIBC__
  // The grouping's scratch was freed between the blocks' columns, which
  // stay; glibc keeps such holes resident (0.6 MB of a 5.6 MB heap after a
  // 200 k-event dump), and the peak comes after this, with the output. The
  // free pages go back once here, in the command that reads one dump, not
  // in the reader (a process reading many dumps would fault them in again).
  ::malloc_trim(0);
#endif

  std::optional<Etrecord> etrecord;
  if (!flags.etrecord_path.empty()) {
    auto loaded = LoadEtrecord(flags.etrecord_path, flags.method);
    disk.NoteRead(flags.etrecord_path);
    if (!loaded.ok()) return ReportError(kInspectCommand, loaded.error(), err);
    etrecord = std::move(loaded).value();
    for (const std::string& w : etrecord->warnings) PrintWarning(kInspectCommand, w, err);
    for (const std::string& w : Symbolicate(*etrecord, blocks.value())) PrintWarning(kInspectCommand, w, err);
  }

  InspectOutputOptions output_options;
  output_options.source_time_scale = source_time_scale;
  output_options.target_time_scale = target_time_scale;
  output_options.include_units = flags.include_units;
  // The default table follows the unit rule; an explicit target scale asks
  // for the reference's exact table.
  output_options.people_units = flags.target_time_scale.empty();
  output_options.include_delegate_debug_data = flags.include_delegate_debug_data;

  if (flags.output.empty()) {
    Status written = WriteEtdumpOutput(flags, blocks.value(), etrecord, output_options, out);
    if (!written.ok()) return ReportError(kInspectCommand, written.error(), err);
    out.flush();
    return kExitOk;
  }
  // -o: the whole text first, then one atomic write (a reader never sees half).
  std::ostringstream text;
  Status rendered = WriteEtdumpOutput(flags, blocks.value(), etrecord, output_options, text);
  if (!rendered.ok()) return ReportError(kInspectCommand, rendered.error(), err);
  Status written = EmitOutput(text.str(), flags.output, out, disk);
  if (!written.ok()) return ReportError(kInspectCommand, written.error(), err);
  return kExitOk;
}

}  // namespace etbench
