// Key averages and the per-occurrence event list (see key_averages.h).
#include "etbench/inspector/key_averages.h"

#include <set>
#include <string>
#include <unordered_map>

#include "etbench/base/join.h"
#include "etbench/inspector/event_role.h"
#include "etbench/inspector/inspector.h"

namespace etbench {
namespace {

std::string NameOf(const Event& event) {
  return event.name.empty() ? std::string("(unnamed)") : event.name;
}

// Method-level events (load, init, execute) are not instructions even
// though the runtime writes them with instruction 0.
bool IsMethodLevel(const Event& event) {
  return !event.instruction_id || event.chain_index == -1 ||
         IsEndToEnd(event.role);
}

// "instruction 3: <label>", where the label is the instruction's delegate
// call, else its kernel call, else its first event (by EventRole).
std::unordered_map<int32_t, std::string> InstructionLabels(
    const EventBlock& block) {
  std::unordered_map<int32_t, std::string> labels;
  std::unordered_map<int32_t, int>
      quality;  // 3 delegate call, 2 kernel, 1 other
  for (const Event& event : block.events) {
    if (IsMethodLevel(event)) continue;
    const int32_t id = *event.instruction_id;
    int q = 1;
    if (event.role == EventRole::kDelegateCall) {
      q = 3;
    } else if (event.role == EventRole::kKernelCall) {
      q = 2;
    }
    auto [it, inserted] = quality.emplace(id, q);
    if (inserted || q > it->second) {
      it->second = q;
      labels[id] = NameOf(event);
    }
  }
  return labels;
}

class KeyMaker {
 public:
  KeyMaker(const EventBlock& block, GroupBy group_by) : group_by_(group_by) {
    if (group_by == GroupBy::kInstruction) labels_ = InstructionLabels(block);
  }

  // The row key of an event, and the instruction id when keyed by it.
  std::pair<std::string, std::optional<int32_t>> Key(const Event& event) const {
    switch (group_by_) {
      case GroupBy::kName:
        break;
      case GroupBy::kOpType:
        if (!event.op_types.empty()) {
          return {JoinStrings(event.op_types), std::nullopt};
        }
        break;
      case GroupBy::kModule: {
        std::vector<std::string> modules;
        std::set<std::string> seen;
        for (const auto& [node, frames] : event.module_hierarchy) {
          if (frames.empty()) continue;
          const ModuleFrame& inner = frames.back();
          std::string name = inner.path.empty() ? inner.key : inner.path;
          if (seen.insert(name).second) modules.push_back(std::move(name));
        }
        if (!modules.empty()) return {JoinStrings(modules), std::nullopt};
        break;
      }
      case GroupBy::kInstruction:
        if (!IsMethodLevel(event)) {
          const int32_t id = *event.instruction_id;
          auto label = labels_.find(id);
          return {"instruction " + std::to_string(id) +
                      (label != labels_.end() ? ": " + label->second
                                              : std::string()),
                  id};
        }
        break;
    }
    return {NameOf(event), std::nullopt};
  }

 private:
  GroupBy group_by_;
  std::unordered_map<int32_t, std::string> labels_;
};

ProfileTable EmptyTable(const EventBlock& block, const BlockEventTrees& trees) {
  ProfileTable table;
  table.block_name = block.name;
  table.block_index = trees.block_index;
  table.run_count = block.run_count;
  table.time_scale = block.target_time_scale;
  return table;
}

}  // namespace

std::string_view GroupByName(GroupBy group_by) {
  switch (group_by) {
    case GroupBy::kName:
      return "name";
    case GroupBy::kOpType:
      return "op_type";
    case GroupBy::kModule:
      return "module";
    case GroupBy::kInstruction:
      return "instruction";
  }
  return "?";
}

Result<GroupBy> ParseGroupBy(std::string_view name) {
  for (GroupBy g : kAllGroupBys) {
    if (GroupByName(g) == name) return g;
  }
  return UsageError("unknown --group-by '" + std::string(name) +
                    "' (expected name, op_type, module or instruction)");
}

ProfileTable ComputeKeyAverages(const EventBlock& block,
                                const BlockEventTrees& trees,
                                GroupBy group_by) {
  ProfileTable table = EmptyTable(block, trees);
  table.group_by = group_by;
  const KeyMaker keys(block, group_by);
  std::vector<int32_t> row_of_event(block.events.size(), -1);
  std::unordered_map<std::string, std::size_t> row_of_key;
  for (const RunEventTree& tree : trees.runs) {
    for (const EventTreeNode& node : tree.nodes) {
      if (node.event_index >= row_of_event.size()) continue;
      int32_t& row = row_of_event[node.event_index];
      if (row < 0) {
        auto [key, instruction] = keys.Key(block.events[node.event_index]);
        auto [it, inserted] = row_of_key.emplace(key, table.rows.size());
        if (inserted) {
          ProfileRow fresh;
          fresh.key = std::move(key);
          fresh.instruction_id = instruction;
          table.rows.push_back(std::move(fresh));
        }
        row = static_cast<int32_t>(it->second);
      }
      ProfileRow& r = table.rows[static_cast<std::size_t>(row)];
      ++r.count;
      r.total += node.total;
      r.self_total += node.self;
      if (node.parent < 0) r.top_level = true;
    }
  }
  for (const ProfileRow& r : table.rows) table.self_total_sum += r.self_total;
  return table;
}

ProfileTable ListEventOccurrences(const EventBlock& block,
                                  const BlockEventTrees& trees) {
  ProfileTable table = EmptyTable(block, trees);
  table.per_event = true;
  std::size_t total_nodes = 0;
  for (const RunEventTree& tree : trees.runs) total_nodes += tree.nodes.size();
  table.rows.reserve(total_nodes);
  for (const RunEventTree& tree : trees.runs) {
    for (const EventTreeNode& node : tree.nodes) {
      if (node.event_index >= block.events.size()) continue;
      ProfileRow row;
      row.key = NameOf(block.events[node.event_index]);
      row.count = 1;
      row.total = node.total;
      row.self_total = node.self;
      row.top_level = node.parent < 0;
      row.run = tree.run;
      row.depth = node.depth;
      table.self_total_sum += node.self;
      table.rows.push_back(std::move(row));
    }
  }
  return table;
}

bool HasOpTypes(const std::vector<EventBlock>& blocks) {
  for (const EventBlock& block : blocks) {
    for (const Event& event : block.events) {
      if (!event.op_types.empty()) return true;
    }
  }
  return false;
}

bool HasModuleHierarchy(const std::vector<EventBlock>& blocks) {
  for (const EventBlock& block : blocks) {
    for (const Event& event : block.events) {
      for (const auto& [node, frames] : event.module_hierarchy) {
        if (!frames.empty()) return true;
      }
    }
  }
  return false;
}

}  // namespace etbench
