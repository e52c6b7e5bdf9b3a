// torch.profiler-style tables and event trees (see profiler_table.h).
#include "etbench/reports/profiler_table.h"

#include <algorithm>
#include <string>
#include <vector>

#include "etbench/base/terminal_text.h"
#include "etbench/base/utf8.h"
#include "etbench/inspector/event_role.h"
#include "etbench/inspector/format_units.h"
#include "etbench/inspector/inspector.h"
#include "etbench/reports/text_util.h"

namespace etbench {
namespace {

using analysis::RightTrim;
using analysis::TruncateName;

constexpr std::size_t kColumnWidth =
    12;  // torch.profiler's default_column_width
constexpr const char* kSpacing = "  ";
constexpr uint32_t kMaxDrawnDepth = 32;  // tree guides drawn this deep

Status CheckTimeUnit(const TableOptions& options) {
  if (options.time_unit && *options.time_unit == TimeScale::kCycles) {
    return UsageError(
        "--time-unit must be s, ms, us or ns (cycles are printed as cycles)");
  }
  return Ok{};
}

bool NameLess(const ProfileRow& a, const ProfileRow& b) {
  if (a.instruction_id && b.instruction_id &&
      *a.instruction_id != *b.instruction_id) {
    return *a.instruction_id < *b.instruction_id;
  }
  return a.key < b.key;
}

// Descending for numbers (torch sorts with reverse=True), ascending names.
void SortRows(std::vector<const ProfileRow*>& rows, SortBy sort_by) {
  auto by = [&](auto value) {
    std::stable_sort(rows.begin(), rows.end(),
                     [&](const ProfileRow* a, const ProfileRow* b) {
                       return value(*a) > value(*b);
                     });
  };
  switch (sort_by) {
    case SortBy::kTotal:
      by([](const ProfileRow& r) { return r.total; });
      break;
    case SortBy::kSelf:
      by([](const ProfileRow& r) { return r.self_total; });
      break;
    case SortBy::kAvg:
      by([](const ProfileRow& r) { return r.avg(); });
      break;
    case SortBy::kCount:
      by([](const ProfileRow& r) { return r.count; });
      break;
    case SortBy::kName:
      std::stable_sort(rows.begin(), rows.end(),
                       [](const ProfileRow* a, const ProfileRow* b) {
                         return NameLess(*a, *b);
                       });
      break;
  }
}

std::string KeyHeader(const ProfileTable& table) {
  if (table.per_event) return "Name";
  switch (table.group_by) {
    case GroupBy::kName:
      return "Name";
    case GroupBy::kOpType:
      return "Op type";
    case GroupBy::kModule:
      return "Module";
    case GroupBy::kInstruction:
      return "Instruction";
  }
  return "Name";
}

std::string RunsText(std::size_t runs) {
  return std::to_string(runs) + (runs == 1 ? " run" : " runs");
}

std::string TableTitle(const ProfileTable& table) {
  const std::string block =
      "block \"" + TerminalText(table.block_name) + "\" (" + RunsText(table.run_count) + ")";
  if (table.per_event) return "Events of " + block;
  return "Key averages of " + block + ", grouped by " +
         std::string(GroupByName(table.group_by));
}

}  // namespace

std::string_view SortByName(SortBy sort_by) {
  switch (sort_by) {
    case SortBy::kTotal:
      return "total";
    case SortBy::kSelf:
      return "self";
    case SortBy::kAvg:
      return "avg";
    case SortBy::kCount:
      return "count";
    case SortBy::kName:
      return "name";
  }
  return "?";
}

Result<SortBy> ParseSortBy(std::string_view name) {
  for (SortBy s : kAllSortBys) {
    if (SortByName(s) == name) return s;
  }
  return UsageError("unknown --sort-by '" + std::string(name) +
                    "' (expected total, self, avg, count or name)");
}

std::string_view AnalysisViewName(AnalysisView view) {
  switch (view) {
    case AnalysisView::kEvents:
      return "events";
    case AnalysisView::kTree:
      return "tree";
    case AnalysisView::kKeyAverages:
      return "key_averages";
  }
  return "?";
}

Result<AnalysisView> ParseAnalysisView(std::string_view name) {
  for (AnalysisView v : {AnalysisView::kEvents, AnalysisView::kTree,
                         AnalysisView::kKeyAverages}) {
    if (AnalysisViewName(v) == name) return v;
  }
  return UsageError("unknown --view '" + std::string(name) +
                    "' (expected events, tree or key_averages)");
}

Result<std::string> RenderProfileTable(const ProfileTable& table,
                                       const TableOptions& options) {
  if (Status s = CheckTimeUnit(options); !s.ok()) return s.error();
  const TimeScale scale = table.time_scale;
  auto time = [&](double v) { return FormatTime(v, scale, options.time_unit); };

  // Rows to print: sorted, filtered, limited.
  std::vector<const ProfileRow*> rows;
  rows.reserve(table.rows.size());
  for (const ProfileRow& row : table.rows) rows.push_back(&row);
  if (options.sort_by) SortRows(rows, *options.sort_by);
  std::vector<std::vector<std::string>> cells;
  for (const ProfileRow* row : rows) {
    if (options.row_limit && cells.size() >= *options.row_limit) break;
    if (options.top_level_only && !row->top_level) continue;
    std::vector<std::string> line{
        TruncateName(TerminalText(row->key), options.max_name_width)};
    if (table.per_event) {
      line.push_back(row->run ? std::to_string(*row->run) : "");
    }
    line.push_back(FormatPercent(row->self_total, table.self_total_sum));
    line.push_back(time(row->self_total));
    line.push_back(FormatPercent(row->total, table.self_total_sum));
    line.push_back(time(row->total));
    if (!table.per_event) {
      line.push_back(time(row->avg()));
      line.push_back(std::to_string(row->count));
    }
    cells.push_back(std::move(line));
  }

  std::vector<std::string> headers{KeyHeader(table)};
  if (table.per_event) headers.push_back("Run");
  for (const char* h : {"Self %", "Self", "Total %", "Total"}) {
    headers.push_back(h);
  }
  if (!table.per_event) {
    headers.push_back("Avg");
    headers.push_back("# of Calls");
  }

  // Widths: the name column as torch (longest key + 4, capped), the others
  // at least 12 and wide enough for their content.
  std::size_t name_width = Utf8Length(headers[0]) + 4;
  for (const ProfileRow& row : table.rows) {
    name_width = std::max(name_width, Utf8Length(TerminalText(row.key)) + 4);
  }
  name_width =
      std::min(name_width, std::max<std::size_t>(options.max_name_width, 4));
  for (const auto& line : cells) {
    name_width = std::max(name_width, Utf8Length(line[0]));
  }
  std::vector<std::size_t> widths(headers.size(), kColumnWidth);
  widths[0] = name_width;
  for (std::size_t c = 1; c < headers.size(); ++c) {
    widths[c] = std::max(widths[c], Utf8Length(headers[c]));
    for (const auto& line : cells) {
      widths[c] = std::max(widths[c], Utf8Length(line[c]));
    }
  }

  auto format_row = [&](const std::vector<std::string>& values) {
    std::string out;
    for (std::size_t c = 0; c < values.size(); ++c) {
      if (c > 0) out += kSpacing;
      out += PadLeft(values[c], widths[c]);
    }
    return RightTrim(std::move(out)) + "\n";
  };
  std::string separator;
  std::size_t line_length = 0;
  for (std::size_t c = 0; c < widths.size(); ++c) {
    if (c > 0) separator += kSpacing;
    separator += std::string(widths[c], '-');
    line_length += widths[c] + (c > 0 ? 2 : 0);
  }
  separator += "\n";

  std::string out;
  out += std::string(line_length, '=') + "\n";
  out += TableTitle(table) + "\n";
  if (options.top_level_only) {
    out += std::string(line_length, '=') + "\n";
    out += "This report only displays top-level events\n";
  }
  out += separator;
  out += format_row(headers);
  out += separator;
  for (const auto& line : cells) out += format_row(line);
  out += separator;
  out += "Self time total: " + time(table.self_total_sum) + "\n";
  return out;
}

Result<std::string> RenderEventTree(const EventBlock& block,
                                    const BlockEventTrees& trees,
                                    const TreeRenderOptions& options) {
  const TableOptions& table = options.table;
  if (Status s = CheckTimeUnit(table); !s.ok()) return s.error();
  const TimeScale scale = block.target_time_scale;
  auto time = [&](double v) { return FormatTime(v, scale, table.time_unit); };

  std::string out;
  for (const RunEventTree& tree : trees.runs) {
    if (options.run && tree.run != *options.run) continue;
    if (!out.empty()) out += "\n";
    out += "Event tree of block \"" + TerminalText(block.name) + "\", run " +
           std::to_string(tree.run) + " of " + std::to_string(block.run_count) +
           " (run_data[" + std::to_string(tree.run_data_index) + "]), total " +
           time(tree.root_total) + "\n";
    struct Line {
      std::string total, self, percent, label;
    };
    std::vector<Line> lines;
    std::size_t printed = 0;
    std::size_t skipped = 0;

    // Children of a node (or the roots, for -1), in tree order or sorted.
    auto children_of = [&](int64_t index) {
      std::vector<uint32_t> kids;
      const std::size_t begin =
          index < 0 ? 0 : static_cast<std::size_t>(index) + 1;
      const std::size_t end =
          index < 0
              ? tree.nodes.size()
              : static_cast<std::size_t>(index) +
                    tree.nodes[static_cast<std::size_t>(index)].subtree_size;
      for (std::size_t c = begin; c < end; c += tree.nodes[c].subtree_size) {
        kids.push_back(static_cast<uint32_t>(c));
      }
      if (table.sort_by && *table.sort_by != SortBy::kCount) {
        const SortBy by = *table.sort_by;
        std::stable_sort(kids.begin(), kids.end(), [&](uint32_t a, uint32_t b) {
          const EventTreeNode& x = tree.nodes[a];
          const EventTreeNode& y = tree.nodes[b];
          switch (by) {
            case SortBy::kSelf:
              return x.self > y.self;
            case SortBy::kName:
              return block.events[x.event_index].name <
                     block.events[y.event_index].name;
            default:
              return x.total > y.total;
          }
        });
      }
      return kids;
    };

    // Iterative depth-first walk (no recursion: trees from files can be deep).
    struct Frame {
      uint32_t node;
      std::string prefix;  // drawn before the connector
      bool last;
      bool root;
    };
    std::vector<Frame> stack;
    {
      std::vector<uint32_t> roots = children_of(-1);
      for (std::size_t i = roots.size(); i-- > 0;) {
        stack.push_back(Frame{roots[i], "", i + 1 == roots.size(), true});
      }
    }
    while (!stack.empty()) {
      Frame frame = std::move(stack.back());
      stack.pop_back();
      const EventTreeNode& node = tree.nodes[frame.node];
      if (table.row_limit && printed >= *table.row_limit) {
        skipped += table.top_level_only ? 1 : node.subtree_size;
        continue;
      }
      const Event& event = block.events[node.event_index];
      std::string label = frame.prefix;
      if (!frame.root) label += frame.last ? "\u2514\u2500 " : "\u251c\u2500 ";
      if (node.depth > kMaxDrawnDepth) {
        label += "[depth " + std::to_string(node.depth) + "] ";
      }
      label += TruncateName(event.name.empty() ? "(unnamed)" : TerminalText(event.name),
                            table.max_name_width);
      if (event.instruction_id && !IsEndToEnd(event.role)) {
        label += "  [instr " + std::to_string(*event.instruction_id) + "]";
      }
      if (node.placed_by_instruction) label += "  [by instruction]";
      lines.push_back(Line{time(node.total), time(node.self),
                           FormatPercent(node.self, tree.root_total),
                           std::move(label)});
      ++printed;
      if (table.top_level_only) continue;
      // Guides are drawn for the first kMaxDrawnDepth levels only, so that a
      // pathologically deep tree costs linear, not quadratic, output.
      std::string child_prefix = frame.prefix;
      if (!frame.root && node.depth < kMaxDrawnDepth) {
        child_prefix += frame.last ? "   " : "\u2502  ";
      }
      std::vector<uint32_t> kids = children_of(frame.node);
      for (std::size_t i = kids.size(); i-- > 0;) {
        stack.push_back(
            Frame{kids[i], child_prefix, i + 1 == kids.size(), false});
      }
    }

    std::size_t w_total = kColumnWidth, w_self = kColumnWidth, w_percent = 8;
    for (const Line& l : lines) {
      w_total = std::max(w_total, Utf8Length(l.total));
      w_self = std::max(w_self, Utf8Length(l.self));
      w_percent = std::max(w_percent, Utf8Length(l.percent));
    }
    out += PadLeft("Total", w_total) + kSpacing + PadLeft("Self", w_self) +
           kSpacing + PadLeft("Self %", w_percent) + kSpacing + "Event\n";
    for (const Line& l : lines) {
      out += PadLeft(l.total, w_total) + kSpacing + PadLeft(l.self, w_self) +
             kSpacing + PadLeft(l.percent, w_percent) + kSpacing + l.label +
             "\n";
    }
    if (skipped > 0) {
      out += "... " + std::to_string(skipped) + " more event" +
             (skipped == 1 ? "" : "s") + " (row limit " +
             std::to_string(*table.row_limit) + ")\n";
    }
    if (tree.nodes.empty()) out += "(no profile events)\n";
  }
  return out;
}

Result<std::string> RenderAnalysisView(const std::vector<EventBlock>& blocks,
                                       const AnalysisViewOptions& options) {
  if (Status s = CheckTimeUnit(options.table); !s.ok()) return s.error();
  if (options.view == AnalysisView::kKeyAverages) {
    if (options.group_by == GroupBy::kOpType && !HasOpTypes(blocks)) {
      return UsageError(
          "--group-by op_type needs an ETRecord (--etrecord_path): no event "
          "has op types");
    }
    if (options.group_by == GroupBy::kModule && !HasModuleHierarchy(blocks)) {
      return UsageError(
          "--group-by module needs an ETRecord (--etrecord_path): no event has "
          "a module "
          "hierarchy");
    }
  }
  if (options.view == AnalysisView::kTree && options.tree_run) {
    std::size_t max_runs = 0;
    for (const EventBlock& block : blocks) {
      max_runs = std::max(max_runs, block.run_count);
    }
    if (!blocks.empty() && *options.tree_run >= max_runs) {
      return UsageError("run " + std::to_string(*options.tree_run) +
                        " does not exist: the largest block has " +
                        RunsText(max_runs));
    }
  }
  const std::vector<BlockEventTrees> trees =
      BuildEventTrees(blocks, options.tree);
  std::string out;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    if (!out.empty()) out += "\n";
    Result<std::string> text = std::string();
    switch (options.view) {
      case AnalysisView::kKeyAverages:
        text = RenderProfileTable(
            ComputeKeyAverages(blocks[b], trees[b], options.group_by),
            options.table);
        break;
      case AnalysisView::kEvents:
        text = RenderProfileTable(ListEventOccurrences(blocks[b], trees[b]),
                                  options.table);
        break;
      case AnalysisView::kTree: {
        if (options.tree_run && *options.tree_run >= blocks[b].run_count) {
          text = "Block \"" + TerminalText(blocks[b].name) + "\" has no run " +
                 std::to_string(*options.tree_run) + " (" +
                 RunsText(blocks[b].run_count) + ")\n";
          break;
        }
        TreeRenderOptions tree_options;
        tree_options.table = options.table;
        tree_options.run = options.tree_run;
        text = RenderEventTree(blocks[b], trees[b], tree_options);
        break;
      }
    }
    if (!text.ok()) return text.error();
    out += text.value();
  }
  return out;
}

}  // namespace etbench
