#pragma once
// Grouping of symbolicated Events: a top-down module tree (which layer took
// the time) and groups by op type. Pure data; renderers live in
// etbench/reports/etrecord_render.h.

#include <cstddef>
#include <string>
#include <vector>

#include "etbench/inspector/event_block.h"

namespace etbench {

/// An Event by position: blocks[block].events[event].
struct EventRef {
  std::size_t block = 0;
  std::size_t event = 0;
};

/// One module of the tree. Times are sums of perf_data.avg, in the blocks'
/// target time scale.
struct ModuleTreeNode {
  ModuleFrame frame;  // empty for the root
  std::string name;   // frame.path, or frame.key when the path is empty;
                      // "(model)" for the root
  /// Σ avg of the Events within this module (each Event once, however many
  /// of its nodes fall in the module).
  double total = 0;
  /// Σ avg of the Events within this module and in none of its submodules.
  double self = 0;
  std::size_t event_count = 0;           // Events counted in total
  std::size_t self_event_count = 0;      // Events counted in self
  std::vector<EventRef> events;          // those counted in total, in order
  std::vector<ModuleTreeNode> children;  // in first-seen order
};

struct ModuleTree {
  /// Synthetic root: every Event with module information.
  ModuleTreeNode root;
  /// Events with timing but no module information (reserved framework
  /// events and OPERATOR_CALL excluded).
  double unattributed_total = 0;
  std::size_t unattributed_event_count = 0;
};

/// Builds the tree from every block's Events that have perf_data, skipping
/// OPERATOR_CALL (as find_total_for_module does) and reserved framework
/// events. A module is identified by its frame (key, path, type) under its
/// parent. Note: with delegate profiling, a DELEGATE_CALL and the delegated
/// events inside it are both counted (as in the reference).
ModuleTree BuildModuleTree(const std::vector<EventBlock>& blocks);

/// The node whose name (dotted path) equals `path`, searching depth-first;
/// nullptr when none.
const ModuleTreeNode* FindModuleNode(const ModuleTree& tree,
                                     const std::string& path);

/// Events grouped by op type.
struct OpTypeGroup {
  /// Distinct op types joined by " + " (an Event linked to several nodes,
  /// e.g. a DELEGATE_CALL, forms its own group); the Event name when the
  /// Event has no op types.
  std::string key;
  bool linked = false;  // false when the key is an Event name
  double total = 0;     // Σ avg
  std::size_t event_count = 0;
  std::vector<EventRef> events;
};

/// Groups Events with perf_data (OPERATOR_CALL and reserved framework events
/// skipped) by op type; sorted by total, largest first, then by key.
std::vector<OpTypeGroup> GroupByOpType(const std::vector<EventBlock>& blocks);

}  // namespace etbench
