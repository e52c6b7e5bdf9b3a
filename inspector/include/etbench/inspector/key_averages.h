#pragma once
// Key averages (torch.profiler's key_averages()): the events of every run of
// a block, grouped by a key, with count, total, self total and average.
// Also the flat per-occurrence list used by the "events" view.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "etbench/base/result.h"
#include "etbench/inspector/event_block.h"
#include "etbench/inspector/event_tree.h"
#include "etbench/inspector/time_scale.h"

namespace etbench {

enum class GroupBy {
  kName,         // the Event's name (delegated events: the delegate debug id)
  kOpType,       // the ETRecord op types, joined with ", "
  kModule,       // the innermost module path(s) from the ETRecord
  kInstruction,  // the instruction id (method-level events keep their name)
};

/// Every GroupBy, in the order error messages and help list them.
inline constexpr GroupBy kAllGroupBys[] = {GroupBy::kName, GroupBy::kOpType, GroupBy::kModule,
                                           GroupBy::kInstruction};
/// "name", "op_type", "module", "instruction".
std::string_view GroupByName(GroupBy group_by);
/// Parses a GroupByName; the error lists the accepted values.
Result<GroupBy> ParseGroupBy(std::string_view name);

struct ProfileRow {
  std::string key;
  std::size_t count = 0;  // occurrences summed over
  double total = 0;       // Σ total, in the table's time scale
  double self_total = 0;  // Σ self
  double avg() const {
    return count == 0 ? 0.0 : total / static_cast<double>(count);
  }
  /// Some occurrence has no parent (torch's "top-level event").
  bool top_level = false;
  /// Set when rows are instructions (key sort then orders them numerically).
  std::optional<int32_t> instruction_id;
  /// Events view only: the run (within the block) and nesting depth.
  std::optional<std::size_t> run;
  uint32_t depth = 0;
};

struct ProfileTable {
  std::string block_name;
  std::size_t block_index = 0;
  std::size_t run_count = 0;
  TimeScale time_scale = TimeScale::kMs;  // of every time in `rows`
  GroupBy group_by = GroupBy::kName;
  bool per_event = false;        // true for the events view (one row per node)
  std::vector<ProfileRow> rows;  // in order of first appearance
  /// Σ self over all rows (the denominator of every percentage).
  double self_total_sum = 0;
};

/// Key averages of one block over all its runs. Rows appear in order of
/// first appearance (run 0's pre-order first). Events without the grouping's
/// data (no ETRecord op types / module, or no instruction) are keyed by name.
ProfileTable ComputeKeyAverages(const EventBlock& block,
                                const BlockEventTrees& trees,
                                GroupBy group_by = GroupBy::kName);

/// One row per event occurrence (per node of every run's tree), in run
/// order and pre-order within a run: the "events" view.
ProfileTable ListEventOccurrences(const EventBlock& block,
                                  const BlockEventTrees& trees);

/// True when some event of some block carries ETRecord op types / module
/// hierarchy (grouping by op_type / module is meaningless otherwise).
bool HasOpTypes(const std::vector<EventBlock>& blocks);
bool HasModuleHierarchy(const std::vector<EventBlock>& blocks);

}  // namespace etbench
