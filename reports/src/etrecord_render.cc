#include "etbench/reports/etrecord_render.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "etbench/base/terminal_text.h"
#include "etbench/inspector/etrecord_graph.h"
#include "text_table.h"

namespace etbench {
namespace {

// An aligned table in RenderTextTable's layout (two spaces before every
// column, numbers right-aligned, cells shown by TerminalText), uncoloured.
class AlignedTable {
 public:
  explicit AlignedTable(std::vector<reports::internal::Column> columns)
      : columns_(std::move(columns)) {}
  void Row(const std::vector<std::string>& cells) {
    std::vector<reports::internal::Cell> row;
    for (const std::string& cell : cells) row.push_back({cell});
    rows_.push_back(std::move(row));
  }
  std::string Render() const {
    return reports::internal::RenderTextTable(columns_, rows_, /*color=*/false, "  ");
  }

 private:
  std::vector<reports::internal::Column> columns_;
  std::vector<std::vector<reports::internal::Cell>> rows_;
};

template <typename T, typename F>
std::string Join(const std::vector<T>& items, const std::string& sep, F fn) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += sep;
    out += fn(items[i]);
  }
  return out;
}

std::string JoinHandles(const std::vector<int64_t>& handles) {
  if (handles.empty()) return "-";
  return Join(handles, ", ", [](int64_t h) { return std::to_string(h); });
}

std::string Plural(std::size_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

std::string OrDash(const std::string& s) { return s.empty() ? "-" : s; }

std::string Percent(double part, double whole) {
  if (whole <= 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f%%", 100.0 * part / whole);
  return buf;
}

void AppendNodeTable(const OperatorGraph& graph, std::string& out) {
  AlignedTable table({{"#", true}, {"node"}, {"target"}, {"handles"}, {"module"}, {"source"}});
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    const GraphNode& node = graph.nodes[i];
    table.Row({std::to_string(i), node.name, node.op_type,
               JoinHandles(node.debug_handles),
               OrDash(ModulePathOf(node.module_stack)),
               OrDash(StackTraceLocation(node.stack_trace))});
  }
  out += table.Render();
}

std::string NodesForHandles(const OperatorGraph& graph,
                            const std::vector<int64_t>& handles) {
  std::vector<std::string> names;
  for (int64_t handle : handles) {
    const auto it = graph.nodes_by_handle.find(handle);
    if (it == graph.nodes_by_handle.end()) {
      names.push_back("?" + std::to_string(handle));
      continue;
    }
    for (std::size_t index : it->second) {
      names.push_back(graph.nodes[index].name);
    }
  }
  return names.empty()
             ? "-"
             : Join(names, ", ", [](const std::string& s) { return s; });
}

void AppendInstructionTable(const Etrecord& etrecord, std::string& out) {
  out += "debug_handle_map (method '" + TerminalText(etrecord.method) +
         "'): " + Plural(etrecord.debug_handle_map.size(), "instruction") +
         "\n";
  if (!etrecord.debug_handle_map.empty()) {
    AlignedTable table({{"instr", true}, {"handles"}, {"delegate"}, {"nodes"}});
    for (const auto& [id, handles] : etrecord.debug_handle_map) {
      std::string backend = "-";
      if (etrecord.delegate_map.has_value()) {
        const auto it = etrecord.delegate_map->find(id);
        if (it != etrecord.delegate_map->end()) {
          backend = OrDash(it->second.backend_name);
        }
      }
      table.Row({std::to_string(id), JoinHandles(handles), backend,
                 NodesForHandles(etrecord.graph, handles)});
    }
    out += table.Render();
  }
  if (!etrecord.delegate_map.has_value()) {
    out += "delegate_map: none\n";
    return;
  }
  out +=
      "delegate_map: " + Plural(etrecord.delegate_map->size(), "instruction") +
      "\n";
  if (etrecord.delegate_map->empty()) return;
  AlignedTable table({{"instr", true}, {"backend"}, {"delegate id"}, {"handles"}});
  for (const auto& [id, mapping] : *etrecord.delegate_map) {
    if (mapping.handles_by_id.empty()) {
      table.Row({std::to_string(id), OrDash(mapping.backend_name), "-", "-"});
    }
    for (const auto& [delegate_id, handles] : mapping.handles_by_id) {
      table.Row({std::to_string(id), OrDash(mapping.backend_name), delegate_id,
                 JoinHandles(handles)});
    }
  }
  out += table.Render();
}

void AppendModuleRows(const ModuleTreeNode& node, int depth, double root_total,
                      AlignedTable& table) {
  std::string label(static_cast<std::size_t>(depth) * 2, ' ');
  label += node.name;
  if (!node.frame.module_type.empty()) {
    label += "  (" + node.frame.module_type + ")";
  }
  table.Row({FormatEtrecordTime(node.total), FormatEtrecordTime(node.self),
             Percent(node.total, root_total), std::to_string(node.event_count),
             label});
  for (const ModuleTreeNode& child : node.children) {
    AppendModuleRows(child, depth + 1, root_total, table);
  }
}

}  // namespace

std::string FormatEtrecordTime(double value) {
  char buf[64];
  const double magnitude = value < 0 ? -value : value;
  std::snprintf(buf, sizeof(buf), magnitude >= 1000 ? "%.1f" : "%.4f", value);
  return buf;
}

std::string RenderGraphSummary(const Etrecord& etrecord) {
  const OperatorGraph& graph = etrecord.graph;
  std::size_t with_handles = 0;
  for (const GraphNode& node : graph.nodes) {
    if (!node.debug_handles.empty()) ++with_handles;
  }
  std::string out =
      "ETRecord " + TerminalText(etrecord.path) + " (method '" + TerminalText(etrecord.method) +
      "')\n";
  out += "  entries: " +
         Join(etrecord.entries, ", ", [](const std::string& s) { return TerminalText(s); }) +
         "\n";
  out += "  program: " + TerminalText(graph.entry) + ": " +
         Plural(graph.nodes.size(), "node") + ", " +
         std::to_string(with_handles) + " with debug handles\n";
  out +=
      "  inputs: " +
      OrDash(Join(graph.inputs, ", ", [](const std::string& s) { return TerminalText(s); })) +
      "\n";
  out += "  outputs: " +
         OrDash(Join(graph.outputs, ", ",
                     [](const std::string& s) { return TerminalText(s); })) +
         "\n\n";
  AppendNodeTable(graph, out);
  out += "\n";
  AppendInstructionTable(etrecord, out);
  return out;
}

std::string RenderModuleTree(const ModuleTree& tree, std::string_view unit) {
  const std::string u(unit);
  std::string out = "Module tree (" + u +
                    "; total: events within the module, each once; self: "
                    "events in none of its submodules)\n";
  AlignedTable table({{"total", true}, {"self", true}, {"share", true}, {"events", true}, {"module"}});
  AppendModuleRows(tree.root, 0, tree.root.total, table);
  out += table.Render();
  if (tree.unattributed_event_count > 0) {
    out += "Without module information: " +
           FormatEtrecordTime(tree.unattributed_total) + " " + u + " in " +
           Plural(tree.unattributed_event_count, "event") + "\n";
  }
  return out;
}

std::string RenderOpTypeGroups(const std::vector<OpTypeGroup>& groups,
                               std::string_view unit) {
  std::string out = "Op types (" + std::string(unit) + ")\n";
  AlignedTable table({{"total", true}, {"events", true}, {"avg/event", true}, {"op type"}});
  for (const OpTypeGroup& group : groups) {
    const double per_event =
        group.event_count == 0
            ? 0.0
            : group.total / static_cast<double>(group.event_count);
    table.Row({FormatEtrecordTime(group.total),
               std::to_string(group.event_count), FormatEtrecordTime(per_event),
               group.linked ? group.key : group.key + "  (not linked)"});
  }
  out += table.Render();
  return out;
}

}  // namespace etbench
