// Events -> debug handles -> graph nodes, following the reference Inspector
// (devtools/inspector/_inspector.py: EventBlock._gen_resolve_debug_handles,
// Event._associate_with_op_graph_nodes, Inspector.find_total_for_module).

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "etbench/inspector/etrecord_symbolicate.h"
#include "etbench/inspector/event_role.h"
#include "etbench/inspector/inspector.h"

namespace etbench {
namespace {

// Collects warnings once each, in first-seen order.
class Warnings {
 public:
  void Add(std::string line) {
    if (seen_.insert(line).second) lines_.push_back(std::move(line));
  }
  std::vector<std::string> Take() { return std::move(lines_); }

 private:
  std::set<std::string> seen_;
  std::vector<std::string> lines_;
};

std::string Describe(const DelegateDebugId& id) {
  if (const auto* s = std::get_if<std::string>(&id)) return "'" + *s + "'";
  return DelegateDebugIdToString(id);
}

// The delegate identifier's handles: an exact key match (an int id as its
// decimal string), else the reference's fallback, the last key in file order
// that is a substring of the identifier.
const std::vector<int64_t>* LookupDelegateHandles(
    const DelegateMapping& mapping, const DelegateDebugId& id) {
  const std::string text = DelegateDebugIdToString(id);
  for (const auto& [key, handles] : mapping.handles_by_id) {
    if (key == text) return &handles;
  }
  const std::vector<int64_t>* found = nullptr;
  for (const auto& [key, handles] : mapping.handles_by_id) {
    if (text.find(key) != std::string::npos) found = &handles;
  }
  return found;
}

void ClearLinks(Event& event) {
  event.debug_handles.reset();
  event.op_types.clear();
  event.stack_traces.clear();
  event.module_hierarchy.clear();
  event.delegate_backend_name.reset();
}

// Sets debug_handles (and the backend name) from the maps. Returns false when
// the instruction is not in debug_handle_map.
bool ResolveHandles(const Etrecord& etrecord, Event& event,
                    Warnings& warnings) {
  const int32_t id = *event.instruction_id;
  const auto handles = etrecord.debug_handle_map.find(id);
  if (handles == etrecord.debug_handle_map.end()) return false;

  const DelegateMapping* mapping = nullptr;
  if (etrecord.delegate_map.has_value()) {
    const auto it = etrecord.delegate_map->find(id);
    if (it != etrecord.delegate_map->end()) mapping = &it->second;
  }

  if (std::holds_alternative<std::monostate>(event.delegate_debug_identifier)) {
    event.debug_handles = handles->second;
    if (event.role == EventRole::kDelegateCall && mapping != nullptr) {
      event.delegate_backend_name = mapping->backend_name;
    }
    return true;
  }
  if (mapping == nullptr) {
    event.debug_handles = handles->second;
    warnings.Add("No delegate mapping found for delegate with instruction id " +
                 std::to_string(id));
    return true;
  }
  event.delegate_backend_name = mapping->backend_name;
  if (const auto* found =
          LookupDelegateHandles(*mapping, event.delegate_debug_identifier)) {
    event.debug_handles = *found;
  } else {
    warnings.Add("instruction " + std::to_string(id) + " (" +
                 mapping->backend_name +
                 "): delegate_map has no entry for "
                 "delegate debug id " +
                 Describe(event.delegate_debug_identifier));
  }
  return true;
}

void Associate(const OperatorGraph& graph, Event& event,
               std::set<int64_t>& unknown_handles) {
  if (!event.debug_handles.has_value()) return;
  for (int64_t handle : *event.debug_handles) {
    const auto it = graph.nodes_by_handle.find(handle);
    if (it == graph.nodes_by_handle.end()) {
      unknown_handles.insert(handle);
      continue;
    }
    for (std::size_t index : it->second) {
      const GraphNode& node = graph.nodes[index];
      if (!node.stack_trace.empty()) {
        event.stack_traces[node.name] = node.stack_trace;
      }
      if (!node.module_stack.empty()) {
        event.module_hierarchy[node.name] = node.module_stack;
      }
      event.op_types.push_back(node.op_type);
    }
  }
}

std::string JoinHandles(const std::set<int64_t>& handles) {
  std::string out;
  std::size_t shown = 0;
  for (int64_t handle : handles) {
    if (shown == 10) {
      out += ", ...";
      break;
    }
    out += (shown++ == 0 ? "" : ", ") + std::to_string(handle);
  }
  return out;
}

}  // namespace

std::vector<std::string> Symbolicate(const Etrecord& etrecord,
                                     std::vector<EventBlock>& blocks) {
  Warnings warnings;
  std::size_t unmapped = 0;
  std::set<int64_t> unknown_handles;
  for (EventBlock& block : blocks) {
    for (Event& event : block.events) {
      ClearLinks(event);
      // Framework events carry instruction id 0 but belong to no node.
      if (IsEndToEnd(event.role)) continue;
      if (!event.instruction_id.has_value()) continue;
      if (!ResolveHandles(etrecord, event, warnings)) {
        ++unmapped;
        continue;
      }
      Associate(etrecord.graph, event, unknown_handles);
    }
  }
  if (unmapped > 0) {
    warnings.Add(std::to_string(unmapped) +
                 " event(s) have an instruction id that debug_handle_map "
                 "does not list for method '" +
                 etrecord.method + "'; they stay unlinked");
  }
  if (!unknown_handles.empty()) {
    warnings.Add("debug handle(s) " + JoinHandles(unknown_handles) +
                 " match no operator node of " + etrecord.graph.entry +
                 " (does the ETRecord belong to this model?)");
  }
  return warnings.Take();
}

double FindTotalForModule(const std::vector<EventBlock>& blocks,
                          const std::string& module_name) {
  double total = 0.0;
  for (const EventBlock& block : blocks) {
    for (const Event& event : block.events) {
      if (event.role == EventRole::kOperatorCall) continue;
      bool found = false;
      for (const auto& [node, frames] : event.module_hierarchy) {
        for (const ModuleFrame& frame : frames) {
          if (frame.key.find(module_name) != std::string::npos) {
            found = true;
            break;
          }
        }
        if (found) break;
      }
      if (found && event.perf_data.has_value()) total += event.perf_data->avg;
    }
  }
  return total;
}

std::vector<std::string> EventModulePaths(const Event& event) {
  std::vector<std::string> paths;
  for (const auto& [node, frames] : event.module_hierarchy) {
    std::string path = ModulePathOf(frames);
    if (path.empty()) continue;
    bool seen = false;
    for (const std::string& p : paths) seen = seen || p == path;
    if (!seen) paths.push_back(std::move(path));
  }
  return paths;
}

std::string JoinedOpTypes(const Event& event, const std::string& separator) {
  std::vector<const std::string*> distinct;
  for (const std::string& op : event.op_types) {
    bool seen = false;
    for (const std::string* d : distinct) seen = seen || *d == op;
    if (!seen) distinct.push_back(&op);
  }
  std::string out;
  for (std::size_t i = 0; i < distinct.size(); ++i) {
    if (i > 0) out += separator;
    out += *distinct[i];
  }
  return out;
}

}  // namespace etbench
