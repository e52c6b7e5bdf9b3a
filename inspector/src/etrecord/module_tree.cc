#include "etbench/inspector/module_tree.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "etbench/inspector/etrecord_graph.h"
#include "etbench/inspector/etrecord_symbolicate.h"
#include "etbench/inspector/event_role.h"
#include "etbench/inspector/inspector.h"

namespace etbench {
namespace {

// Events that count in module and op-type totals: timed, not OPERATOR_CALL
// (its time is the operator's plus call overhead, counted via its
// native_call_* event) and not a framework event spanning everything.
bool Counts(const Event& event) {
  return event.perf_data.has_value() && event.role != EventRole::kOperatorCall &&
         !IsEndToEnd(event.role);
}

ModuleTreeNode& ChildFor(ModuleTreeNode& parent, const ModuleFrame& frame) {
  for (ModuleTreeNode& child : parent.children) {
    if (SameModuleFrame(child.frame, frame)) return child;
  }
  ModuleTreeNode child;
  child.frame = frame;
  child.name = frame.path.empty() ? frame.key : frame.path;
  parent.children.push_back(std::move(child));
  return parent.children.back();
}

// Adds the event to every node on its module paths, once per node, and to
// the self time of those of them with no submodule on its paths.
void AddEvent(ModuleTreeNode& root, const Event& event, const EventRef& ref) {
  // Pass 1 creates the nodes; pass 2 collects their addresses, which no
  // longer move because nothing is inserted any more.
  for (const auto& [node_name, frames] : event.module_hierarchy) {
    ModuleTreeNode* at = &root;
    for (const ModuleFrame& frame : frames) at = &ChildFor(*at, frame);
  }
  std::set<ModuleTreeNode*> within;
  for (const auto& [node_name, frames] : event.module_hierarchy) {
    ModuleTreeNode* at = &root;
    for (const ModuleFrame& frame : frames) {
      at = &ChildFor(*at, frame);
      within.insert(at);
    }
  }
  const double avg = event.perf_data->avg;
  root.total += avg;
  ++root.event_count;
  root.events.push_back(ref);
  for (ModuleTreeNode* node : within) {
    node->total += avg;
    ++node->event_count;
    node->events.push_back(ref);
    bool in_child = false;
    for (ModuleTreeNode& child : node->children) {
      in_child = in_child || within.count(&child) > 0;
    }
    if (!in_child) {
      node->self += avg;
      ++node->self_event_count;
    }
  }
}

bool HasModuleInfo(const Event& event) {
  for (const auto& [node_name, frames] : event.module_hierarchy) {
    if (!frames.empty()) return true;
  }
  return false;
}

const ModuleTreeNode* FindIn(const ModuleTreeNode& node,
                             const std::string& path) {
  if (node.name == path) return &node;
  for (const ModuleTreeNode& child : node.children) {
    if (const ModuleTreeNode* found = FindIn(child, path)) return found;
  }
  return nullptr;
}

}  // namespace

ModuleTree BuildModuleTree(const std::vector<EventBlock>& blocks) {
  ModuleTree tree;
  tree.root.name = "(model)";
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const auto& events = blocks[b].events;
    for (std::size_t e = 0; e < events.size(); ++e) {
      const Event& event = events[e];
      if (!Counts(event)) continue;
      if (HasModuleInfo(event)) {
        AddEvent(tree.root, event, EventRef{b, e});
      } else {
        tree.unattributed_total += event.perf_data->avg;
        ++tree.unattributed_event_count;
      }
    }
  }
  return tree;
}

const ModuleTreeNode* FindModuleNode(const ModuleTree& tree,
                                     const std::string& path) {
  for (const ModuleTreeNode& child : tree.root.children) {
    if (const ModuleTreeNode* found = FindIn(child, path)) return found;
  }
  return nullptr;
}

std::vector<OpTypeGroup> GroupByOpType(const std::vector<EventBlock>& blocks) {
  std::vector<OpTypeGroup> groups;
  std::map<std::pair<bool, std::string>, std::size_t> index;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const auto& events = blocks[b].events;
    for (std::size_t e = 0; e < events.size(); ++e) {
      const Event& event = events[e];
      if (!Counts(event)) continue;
      const bool linked = !event.op_types.empty();
      const std::string key = linked ? JoinedOpTypes(event) : event.name;
      auto [it, inserted] =
          index.emplace(std::make_pair(linked, key), groups.size());
      if (inserted) {
        OpTypeGroup group;
        group.key = key;
        group.linked = linked;
        groups.push_back(std::move(group));
      }
      OpTypeGroup& group = groups[it->second];
      group.total += event.perf_data->avg;
      ++group.event_count;
      group.events.push_back(EventRef{b, e});
    }
  }
  std::stable_sort(groups.begin(), groups.end(),
                   [](const OpTypeGroup& a, const OpTypeGroup& b) {
                     if (a.total != b.total) return a.total > b.total;
                     return a.key < b.key;
                   });
  return groups;
}

}  // namespace etbench
