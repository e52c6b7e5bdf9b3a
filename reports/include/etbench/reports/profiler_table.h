#pragma once
// torch.profiler-style text output of the analysis views: the key-averages
// / events table (like profiler_util._build_table) and the event tree.
// Renderers only format: every number comes finished from key_averages.h and
// event_tree.h.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "etbench/base/result.h"
#include "etbench/inspector/event_block.h"
#include "etbench/inspector/event_tree.h"
#include "etbench/inspector/key_averages.h"
#include "etbench/inspector/time_scale.h"

namespace etbench {

enum class SortBy { kTotal, kSelf, kAvg, kCount, kName };
/// Every SortBy, in the order error messages list them.
inline constexpr SortBy kAllSortBys[] = {SortBy::kTotal, SortBy::kSelf, SortBy::kAvg,
                                         SortBy::kCount, SortBy::kName};
/// "total", "self", "avg", "count", "name".
std::string_view SortByName(SortBy sort_by);
Result<SortBy> ParseSortBy(std::string_view name);

enum class AnalysisView { kEvents, kTree, kKeyAverages };
/// "events", "tree", "key_averages".
std::string_view AnalysisViewName(AnalysisView view);
Result<AnalysisView> ParseAnalysisView(std::string_view name);

struct TableOptions {
  /// Numbers sort descending, names ascending; unset keeps the natural
  /// order (first appearance; time order in the tree).
  std::optional<SortBy> sort_by;
  /// Rows printed (per block; per run in the tree view); unset: all.
  std::optional<std::size_t> row_limit;
  /// Unit of every printed time; unset: automatic per value like
  /// torch.profiler (s, ms or us). Must be s, ms, us or ns; ignored for
  /// blocks in cycles.
  std::optional<TimeScale> time_unit;
  /// Only rows of top-level events (tree: only roots).
  bool top_level_only = false;
  /// Names longer than this are cut to (width − 3) characters + "...".
  std::size_t max_name_width = 55;
};

/// Renders a key-averages or events table like torch.profiler:
///   ===== title =====
///   ----  ----  ...
///   Name  Self %  Self  Total %  Total  Avg  # of Calls
///   ----  ----  ...
///   rows
///   ----  ----  ...
///   Self time total: 1.234ms
/// Percentages are of ProfileTable::self_total_sum (over all rows, also the
/// ones cut by row_limit / top_level_only). Errors: a time_unit of cycles.
Result<std::string> RenderProfileTable(const ProfileTable& table,
                                       const TableOptions& options);

struct TreeRenderOptions {
  TableOptions table;  // sort_by orders siblings; row_limit is per run
  /// The run (within each block) to print; unset prints every run.
  std::optional<std::size_t> run = 0;
};

/// Renders one block's event trees: per run a header, then one line per
/// node: total, self, self % of the run, and the indented event name with
/// its instruction id ("[by instruction]" marks delegated events placed under
/// their DELEGATE_CALL by instruction).
Result<std::string> RenderEventTree(const EventBlock& block,
                                    const BlockEventTrees& trees,
                                    const TreeRenderOptions& options);

struct AnalysisViewOptions {
  AnalysisView view = AnalysisView::kKeyAverages;
  GroupBy group_by = GroupBy::kName;
  TableOptions table;
  std::optional<std::size_t> tree_run = 0;  // tree view: see TreeRenderOptions
  EventTreeOptions tree;
};

/// Everything `etbench inspect --view …` prints: trees are built and the
/// view rendered for every block, blocks separated by a blank line.
/// Errors: --group_by op_type/module without ETRecord data, a tree_run
/// beyond every block's run count, a cycles time_unit.
Result<std::string> RenderAnalysisView(const std::vector<EventBlock>& blocks,
                                       const AnalysisViewOptions& options);

}  // namespace etbench
