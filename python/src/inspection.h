#pragma once
// One loaded ETDump as the Python module holds it: the grouped (and, with an
// ETRecord, symbolicated) EventBlocks plus what the views need.

#include <pybind11/pybind11.h>

#include <optional>
#include <string>
#include <vector>

#include "etbench/base/output_file.h"
#include "etbench/inspector/etdump_file.h"
#include "etbench/inspector/etrecord.h"
#include "etbench/inspector/event_block.h"
#include "etbench/inspector/time_scale.h"

namespace etbench::python {

struct Inspection {
  std::optional<EtdumpFile> file;  // kept for the timeline exports
  std::vector<EventBlock> blocks;
  std::optional<Etrecord> etrecord;
  TimeScale source_time_scale = TimeScale::kNs;
  TimeScale target_time_scale = TimeScale::kMs;
  bool has_debug_buffer = false;
  /// The files read (ETDump, debug buffer, ETRecord): exports refuse to
  /// overwrite them, as the CLI refuses `-o` onto an input.
  std::vector<FileIdentity> inputs;
  /// Reader, ETRecord and symbolication warnings, one line each.
  std::vector<std::string> warnings;
};

/// The reference DataFrame's columns for every event of every block, in the
/// reference's order and with the dtypes pandas.concat gives the
/// reference's per-event frames (see docs/python.md): a dict of column name
/// → numpy array. Statistic headers carry " (unit)" when `include_units`.
pybind11::dict FrameColumns(const Inspection& inspection, bool include_units);

/// One block's events as dicts of the reference Event's fields (plus
/// etbench's instruction_id, occurrence, start/end ticks).
pybind11::list EventDicts(const EventBlock& block);

/// module_hierarchy of an event: node → {frame key: (path, module type)},
/// like torch's nn_module_stack.
pybind11::dict ModuleHierarchyToPython(const Event& event);

/// Binds class Inspection.
void BindInspection(pybind11::module_& m);

}  // namespace etbench::python
