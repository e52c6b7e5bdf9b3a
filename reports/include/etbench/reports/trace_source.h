#pragma once
// The input of the timeline exports (Chrome trace, collapsed stacks): the
// grouped EventBlocks of one ETDump plus how its ticks map to time.

#include <optional>
#include <string>
#include <vector>

#include "etbench/base/disk.h"
#include "etbench/base/result.h"
#include "etbench/inspector/event_block.h"
#include "etbench/inspector/time_scale.h"

namespace etbench::reports {

/// One ETDump, grouped. Blocks are grouped with the target time scale ns
/// (time sources) or cycles (cycle counters), so tree totals and self times
/// are in `value_unit`.
struct TraceSource {
  /// Shown as the process name of the trace and, on request, as the root
  /// frame of the stacks ("tutorial.etdp", "toy_cnn rep 2").
  std::string name;
  std::vector<EventBlock> blocks;
  TimeScale source_time_scale = TimeScale::kNs;
  /// Ticks per second of a cycle counter (0 = unknown: a cycle is drawn as
  /// one nanosecond). Ignored for time sources.
  double tick_rate_hz = 0;
};

/// The unit of tree totals and self times of `source`: "ns" or "cycles".
const char* TraceValueUnit(const TraceSource& source);

struct TraceLoadOptions {
  TimeScale source_time_scale = TimeScale::kNs;
  double tick_rate_hz = 0;
};

/// Opens, verifies and groups one ETDump. `name` defaults to the file's
/// base name. Errors name the path. The inspector maps the file itself;
/// `disk` is told it was read (Disk::NoteRead).
Result<TraceSource> LoadEtdumpTraceSource(const std::string& path,
                                          const TraceLoadOptions& options,
                                          const std::string& name = "",
                                          Disk& disk = DefaultDisk());

/// Every repetition ETDump of a results file (paths relative to the file),
/// named "<model> rep <index>", each with the repetition's time source and
/// tick rate. Models without ETDumps contribute nothing; none at all is an
/// error. The results file is read through `disk`, which is told of each
/// ETDump read.
Result<std::vector<TraceSource>> LoadResultsTraceSources(const std::string& results_path,
                                                         Disk& disk = DefaultDisk());

}  // namespace etbench::reports
