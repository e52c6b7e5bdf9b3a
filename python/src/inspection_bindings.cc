// class _core.Inspection: loads an ETDump (path or bytes), an optional debug
// buffer and ETRecord, and answers the Python layer's questions.
#include <pybind11/stl.h>

#include <cstdio>
#include <memory>

#include "debug_values.h"
#include "etbench/base/atomic_file.h"
#include "etbench/base/output_file.h"
#include "etbench/inspector/etrecord_symbolicate.h"
#include "etbench/inspector/event_block_reader.h"
#include "etbench/inspector/inspector.h"
#include "etbench/reports/chrome_trace.h"
#include "etbench/reports/collapsed_stacks.h"
#include "etbench/reports/etrecord_render.h"
#include "etbench/reports/inspect_output.h"
#include "etbench/reports/profiler_table.h"
#include "inspection.h"
#include "py_errors.h"

namespace etbench::python {

namespace py = pybind11;

namespace {

struct LoadRequest {
  std::optional<std::string> etdump_path;
  std::optional<std::vector<uint8_t>> etdump_data;
  std::string source_time_scale;
  std::string target_time_scale;
  std::optional<std::string> debug_buffer_path;
  std::optional<std::string> etrecord_path;
  std::string method;
};

// Remembers `path` as an input of `inspection` (see Inspection::inputs).
void RememberInput(Inspection& inspection, const std::string& path) {
  if (auto id = IdentityOf(path)) inspection.inputs.push_back(*id);
}

// Everything below runs without the GIL: no Python objects are touched.
Result<std::shared_ptr<Inspection>> Load(LoadRequest request) {
  auto inspection = std::make_shared<Inspection>();
  auto source = ParseTimeScale(request.source_time_scale);
  if (!source.ok()) return source.error();
  auto target = ParseTimeScale(request.target_time_scale);
  if (!target.ok()) return target.error();
  InspectorOptions options;
  options.source_time_scale = source.value();
  options.target_time_scale = target.value();
  if (request.debug_buffer_path) {
    auto buffer = ReadFileBytes(*request.debug_buffer_path);
    if (!buffer.ok()) return buffer.error();
    options.debug_buffer = std::move(buffer).value();
    inspection->has_debug_buffer = true;
    RememberInput(*inspection, *request.debug_buffer_path);
  }
  // One pass: each run is grouped as soon as it is verified (as `inspect`
  // reads), with the errors and blocks of EtdumpFile::Open + BuildEventBlocks.
  // The options, with the debug buffer, move into the reader (not copied).
  const TimeScale source_scale = options.source_time_scale;
  EventBlockReader reader(std::move(options));
  Result<EtdumpFile> file = request.etdump_path
                                ? reader.Open(*request.etdump_path)
                                : reader.FromBytes(std::move(*request.etdump_data));
  if (!file.ok()) return file.error();
  if (request.etdump_path) RememberInput(*inspection, *request.etdump_path);
  inspection->warnings = file->warnings();
  auto blocks = reader.Finish();
  if (!blocks.ok()) return blocks.error();
  inspection->blocks = std::move(blocks).value();
  inspection->file = std::move(file).value();
  inspection->source_time_scale = source_scale;
  inspection->target_time_scale = target.value();
  if (request.etrecord_path) {
    auto etrecord = LoadEtrecord(*request.etrecord_path, request.method);
    if (!etrecord.ok()) return etrecord.error();
    RememberInput(*inspection, *request.etrecord_path);
    inspection->etrecord = std::move(etrecord).value();
    for (const std::string& w : inspection->etrecord->warnings) inspection->warnings.push_back(w);
    for (const std::string& w : Symbolicate(*inspection->etrecord, inspection->blocks)) {
      inspection->warnings.push_back(w);
    }
  }
  return inspection;
}

std::shared_ptr<Inspection> Construct(std::optional<std::string> etdump_path,
                                      std::optional<py::bytes> etdump_data,
                                      std::string source_time_scale,
                                      std::string target_time_scale,
                                      std::optional<std::string> debug_buffer_path,
                                      std::optional<std::string> etrecord_path,
                                      std::string method) {
  auto checked = [](std::optional<std::string> path, const char* argument) {
    if (path) path = CheckedPath(std::move(*path), argument);
    return path;
  };
  LoadRequest request{checked(std::move(etdump_path), "etdump_path"), std::nullopt,
                      std::move(source_time_scale), std::move(target_time_scale),
                      checked(std::move(debug_buffer_path), "debug_buffer_path"),
                      checked(std::move(etrecord_path), "etrecord"), std::move(method)};
  if (request.etdump_path.has_value() == etdump_data.has_value()) {
    ThrowPythonError(UsageError("give exactly one of etdump_path and etdump_data"));
  }
  if (etdump_data) {
    const std::string_view bytes = *etdump_data;
    request.etdump_data.emplace(bytes.begin(), bytes.end());
  }
  Result<std::shared_ptr<Inspection>> loaded = [&] {
    py::gil_scoped_release release;
    return Load(std::move(request));
  }();
  return Unwrap(std::move(loaded));
}

const EventBlock& BlockAt(const Inspection& inspection, std::size_t index) {
  if (index >= inspection.blocks.size()) throw py::index_error("event block index out of range");
  return inspection.blocks[index];
}

// The blocks regrouped in ns (cycles stay cycles) for the timeline exports.
reports::TraceSource TraceSourceOf(const Inspection& inspection, const std::string& name) {
  InspectorOptions options;
  options.source_time_scale = inspection.source_time_scale;
  options.target_time_scale =
      inspection.source_time_scale == TimeScale::kCycles ? TimeScale::kCycles : TimeScale::kNs;
  reports::TraceSource source;
  source.name = name;
  source.blocks = Unwrap(BuildEventBlocks(*inspection.file, options));
  source.source_time_scale = inspection.source_time_scale;
  return source;
}

char Separator(const std::string& separator) {
  if (separator != "\t" && separator != ",") {
    ThrowPythonError(UsageError("separator: unknown value '" + separator +
                                "' (expected '\\t' or ',')"));
  }
  return separator[0];
}

InspectOutputOptions OutputOptions(const Inspection& i, bool include_units,
                                  bool include_delegate_debug_data) {
  InspectOutputOptions o;
  o.source_time_scale = i.source_time_scale;
  o.target_time_scale = i.target_time_scale;
  o.include_units = include_units;
  o.include_delegate_debug_data = include_delegate_debug_data;
  return o;
}

// Writes an export of `inspection` atomically; refuses what the CLI refuses
// (CheckOutputTarget), including any file the inspection read.
void WriteText(const Inspection& inspection, const std::string& path, const std::string& text) {
  const std::string target = CheckedPath(path, "path");
  if (Status ok = CheckOutputTarget(target, inspection.inputs); !ok.ok()) {
    ThrowPythonError(ok.error());
  }
  Status written = WriteFileAtomically(target, std::vector<uint8_t>(text.begin(), text.end()));
  if (!written.ok()) ThrowPythonError(written.error());
}

std::string ProfilerTable(const Inspection& inspection, const std::string& view,
                          const std::string& group_by, std::optional<std::string> sort_by,
                          std::optional<std::size_t> row_limit,
                          std::optional<std::string> time_unit, bool top_level_only) {
  AnalysisViewOptions options;
  options.view = Unwrap(ParseAnalysisView(view));
  options.group_by = Unwrap(ParseGroupBy(group_by));
  if (sort_by) options.table.sort_by = Unwrap(ParseSortBy(*sort_by));
  options.table.row_limit = row_limit;
  if (time_unit) options.table.time_unit = Unwrap(ParseTimeScale(*time_unit));
  options.table.top_level_only = top_level_only;
  options.tree_run.reset();
  return Unwrap(RenderAnalysisView(inspection.blocks, options));
}

}  // namespace

// The accepted names of the string arguments that choose among a C++ enum,
// for the Python layer's checks and messages.
py::dict Choices() {
  py::dict out;
  py::list group_by, sort_by;
  for (GroupBy g : kAllGroupBys) group_by.append(std::string(GroupByName(g)));
  for (SortBy s : kAllSortBys) sort_by.append(std::string(SortByName(s)));
  out["group_by"] = group_by;
  out["sort_by"] = sort_by;
  return out;
}

void BindInspection(py::module_& m) {
  m.def("choices", &Choices,
        "{argument: accepted names} for the group_by and sort_by arguments.");
  py::class_<Inspection, std::shared_ptr<Inspection>>(m, "Inspection")
      .def(py::init(&Construct), py::arg("etdump_path") = py::none(),
           py::arg("etdump_data") = py::none(), py::arg("source_time_scale") = "ns",
           py::arg("target_time_scale") = "ms", py::arg("debug_buffer_path") = py::none(),
           py::arg("etrecord_path") = py::none(), py::arg("method") = "forward")
      .def_property_readonly("warnings", [](const Inspection& i) { return i.warnings; })
      .def_property_readonly("has_etrecord", [](const Inspection& i) { return i.etrecord.has_value(); })
      .def_property_readonly("has_debug_buffer", [](const Inspection& i) { return i.has_debug_buffer; })
      .def_property_readonly("source_time_scale",
                             [](const Inspection& i) { return std::string(TimeScaleName(i.source_time_scale)); })
      .def_property_readonly("target_time_scale",
                             [](const Inspection& i) { return std::string(TimeScaleName(i.target_time_scale)); })
      .def("block_count", [](const Inspection& i) { return i.blocks.size(); })
      .def("block_info",
           [](const Inspection& i, std::size_t index) {
             const EventBlock& b = BlockAt(i, index);
             py::dict d;
             d["name"] = b.name;
             d["bundled_input_index"] =
                 b.bundled_input_index ? py::object(py::int_(*b.bundled_input_index)) : py::none();
             d["run_count"] = b.run_count;
             d["event_count"] = b.events.size();
             d["run_output"] = DebugValuesToPython(b.run_output);
             return d;
           })
      .def("events", [](const Inspection& i, std::size_t index) { return EventDicts(BlockAt(i, index)); })
      .def("frame_columns", &FrameColumns, py::arg("include_units"))
      .def("find_total_for_module",
           [](const Inspection& i, const std::string& name) { return FindTotalForModule(i.blocks, name); })
      .def("graph_summary",
           [](const Inspection& i) -> py::object {
             if (!i.etrecord) return py::none();
             return py::str(RenderGraphSummary(*i.etrecord));
           })
      .def("tabular_text",
           [](const Inspection& i, bool include_units, bool include_delegate_debug_data) {
             return RenderInspectTable(
                 i.blocks, OutputOptions(i, include_units, include_delegate_debug_data));
           })
      .def("delimited_text",
           [](const Inspection& i, bool include_units, bool include_delegate_debug_data,
              const std::string& separator) {
             return RenderInspectDelimited(i.blocks,
                                           OutputOptions(i, include_units, include_delegate_debug_data),
                                           Separator(separator));
           })
      .def("profiler_table", &ProfilerTable, py::arg("view"), py::arg("group_by"),
           py::arg("sort_by") = py::none(), py::arg("row_limit") = py::none(),
           py::arg("time_unit") = py::none(), py::arg("top_level_only") = false)
      .def("chrome_trace",
           [](const Inspection& i, const std::string& name) {
             return reports::RenderChromeTrace({TraceSourceOf(i, name)});
           })
      .def("collapsed_stacks",
           [](const Inspection& i, const std::string& name) {
             return reports::RenderCollapsedStacks({TraceSourceOf(i, name)});
           })
      .def("write_text", &WriteText, py::arg("path"), py::arg("text"),
           "Writes `text` to `path` atomically; refuses this inspection's inputs and "
           "non-regular files (ValueError).");
}

}  // namespace etbench::python
