#pragma once
// Flags of `etbench inspect`, shared by its ETDump and legacy code paths.

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "etbench/base/disk.h"
#include "etbench/inspector/inspector.h"

namespace etbench {

struct InspectFlags {
  std::string etdump_path;
  std::string etrecord_path;
  std::string method = "forward";
  std::string debug_buffer_path;
  std::string source_time_scale = "ns";
  std::string target_time_scale;  // empty: ms, or cycles for cycles
  std::string legacy_profile;
  std::string time_scale = "ns";  // legacy ticks
  std::string format = "table";
  std::string output;
  bool include_units = true;
  bool include_delegate_debug_data = false;
  std::string view;  // empty: the reference table
  std::string group_by = "name";
  std::string sort_by;    // empty: order of first appearance
  long row_limit = -1;    // negative: no limit
  std::string time_unit;  // empty: per value, like torch.profiler
  bool top_level_only = false;
  std::size_t max_name_width = 55;
  std::string run = "0";
  std::optional<std::string> module;  // set from the parsed variables_map
  bool show_graph = false;
};

/// `inspect --legacy-profile FILE`: the three legacy tables.
int RunLegacyInspect(const InspectFlags& flags, std::ostream& out, std::ostream& err,
                     Disk& disk);

/// `inspect --legacy-profile FILE --view …`: the file converted to an ETDump
/// in memory (ConvertLegacyToEtdump) and grouped into event blocks; the
/// unfinished scopes it leaves out are warned about on `err`.
Result<std::vector<EventBlock>> LegacyEventBlocks(const std::string& path,
                                                  const InspectorOptions& options,
                                                  std::ostream& err);

}  // namespace etbench
