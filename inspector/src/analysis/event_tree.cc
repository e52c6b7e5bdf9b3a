// Event trees by time-interval containment (see event_tree.h).
#include "etbench/inspector/event_tree.h"

#include <algorithm>
#include <unordered_map>
#include <variant>

#include "etbench/inspector/event_role.h"
#include "etbench/inspector/inspector.h"

namespace etbench {
namespace {

// Sort key of the sort-and-stack method: start ascending, end descending
// (containers before what they contain), rank ascending, and the later
// interval first among identical ones.
struct NestKey {
  uint64_t start;
  uint64_t end;
  int32_t rank;
  uint32_t item;
};

inline bool NestBefore(const NestKey& a, const NestKey& b) {
  if (a.start != b.start) return a.start < b.start;
  if (a.end != b.end) return a.end > b.end;
  if (a.rank != b.rank) return a.rank < b.rank;
  return a.item > b.item;
}

inline bool Contains(const NestKey& outer, const NestKey& inner) {
  return outer.start <= inner.start && inner.end <= outer.end;
}

// Sorts `keys` (skipping the sort when they already are in order, the
// common case when consecutive runs of a block have the same shape) and
// writes each item's parent (an item id, or -1) into `parent`.
void SortAndNest(std::vector<NestKey>& keys, std::vector<NestKey>& stack,
                 std::vector<int32_t>& parent) {
  if (!std::is_sorted(keys.begin(), keys.end(), NestBefore)) {
    std::sort(keys.begin(), keys.end(), NestBefore);
  }
  stack.clear();
  for (const NestKey& key : keys) {
    while (!stack.empty() && !Contains(stack.back(), key)) stack.pop_back();
    parent[key.item] =
        stack.empty() ? -1 : static_cast<int32_t>(stack.back().item);
    stack.push_back(key);
  }
}

bool IsDelegated(const Event& event) { return event.role == EventRole::kDelegateEvent; }

// Builds the trees of one block's runs, reusing scratch space across runs.
class TreeBuilder {
 public:
  TreeBuilder(const EventBlock& block, const EventTreeOptions& options)
      : block_(block), options_(options) {
    const std::size_t runs = block.run_count;
    for (std::size_t i = 0; i < block.events.size(); ++i) {
      const Event& e = block.events[i];
      if (!e.perf_data || e.perf_data->raw.size() < runs ||
          e.start_ticks.size() < runs || e.end_ticks.size() < runs) {
        continue;  // debug-only or inconsistent: no interval to place
      }
      const uint32_t item = static_cast<uint32_t>(events_.size());
      events_.push_back(static_cast<uint32_t>(i));
      ranks_.push_back(EventNestingRank(e));
      const int32_t instruction = e.instruction_id.value_or(-1);
      if (IsDelegated(e)) {
        if (e.instruction_id) {
          delegated_by_instruction_[instruction].push_back(item);
        }
      } else if (e.role == EventRole::kDelegateCall && e.instruction_id) {
        calls_by_instruction_.emplace(instruction, item);  // keeps the first
      }
    }
    // Delegated groups without a DELEGATE_CALL always nest by time.
    for (auto& [instruction, items] : delegated_by_instruction_) {
      auto call = calls_by_instruction_.find(instruction);
      if (call != calls_by_instruction_.end()) {
        groups_.push_back({call->second, items});
      }
    }
    std::sort(groups_.begin(), groups_.end(),
              [](const Group& a, const Group& b) { return a.call < b.call; });
    const std::size_t n = events_.size();
    keys_by_item_.resize(n);
    totals_.resize(n);
    parent_.resize(n);
    by_instruction_.resize(n);
    child_count_.resize(n);
    child_begin_.resize(n + 1);
    node_of_item_.resize(n);
  }

  RunEventTree Build(std::size_t run);

 private:
  struct Group {
    uint32_t call;                // item of the DELEGATE_CALL
    std::vector<uint32_t> items;  // delegated items of its instruction
  };

  const EventBlock& block_;
  const EventTreeOptions& options_;
  std::vector<uint32_t> events_;  // item -> event index
  std::vector<int32_t> ranks_;
  std::unordered_map<int32_t, std::vector<uint32_t>> delegated_by_instruction_;
  std::unordered_map<int32_t, uint32_t> calls_by_instruction_;
  std::vector<Group> groups_;

  // Scratch, per run.
  std::vector<NestKey> keys_by_item_;
  std::vector<double> totals_;
  std::vector<int32_t> parent_;
  std::vector<char> by_instruction_;
  std::vector<char> previous_by_instruction_;
  std::vector<NestKey> main_keys_;  // in the previous run's sorted order
  std::vector<NestKey> group_keys_;
  std::vector<NestKey> stack_;
  std::vector<uint32_t> processing_order_;
  std::vector<uint32_t> child_count_;
  std::vector<uint32_t> child_begin_;
  std::vector<uint32_t> children_;
  std::vector<uint32_t> roots_;
  std::vector<uint32_t> dfs_;
  std::vector<uint32_t> node_of_item_;
};

RunEventTree TreeBuilder::Build(std::size_t run) {
  RunEventTree tree;
  tree.run = run;
  tree.run_data_index =
      run < block_.run_indices.size() ? block_.run_indices[run] : run;
  const std::size_t n = events_.size();
  if (n == 0) return tree;

  for (uint32_t item = 0; item < n; ++item) {
    const Event& e = block_.events[events_[item]];
    const uint64_t start = e.start_ticks[run];
    uint64_t end = e.end_ticks[run];
    if (end < start) {
      const std::optional<uint64_t> elapsed = ElapsedTicks(start, end);
      end = elapsed ? start + *elapsed : start;
    }
    keys_by_item_[item] = NestKey{start, end, ranks_[item], item};
    totals_[item] = e.perf_data->raw[run];
    by_instruction_[item] = 0;
  }

  // Which delegated groups hang under their DELEGATE_CALL by instruction.
  for (const Group& group : groups_) {
    bool by_instruction =
        options_.delegate_placement == DelegatePlacement::kByInstruction;
    if (options_.delegate_placement == DelegatePlacement::kAuto) {
      const NestKey& call = keys_by_item_[group.call];
      for (uint32_t item : group.items) {
        if (!Contains(call, keys_by_item_[item])) {
          by_instruction = true;
          break;
        }
      }
    }
    if (by_instruction) {
      for (uint32_t item : group.items) by_instruction_[item] = 1;
    }
  }

  // Main forest: every item not placed by instruction, nested by time. The
  // previous run's order is kept when membership did not change, so that
  // the sort is skipped for runs of the same shape.
  if (main_keys_.empty() || by_instruction_ != previous_by_instruction_) {
    main_keys_.clear();
    for (uint32_t item = 0; item < n; ++item) {
      if (!by_instruction_[item]) main_keys_.push_back(keys_by_item_[item]);
    }
    previous_by_instruction_ = by_instruction_;
  } else {
    for (NestKey& key : main_keys_) key = keys_by_item_[key.item];
  }
  SortAndNest(main_keys_, stack_, parent_);
  processing_order_.clear();
  for (const NestKey& key : main_keys_) processing_order_.push_back(key.item);

  // Delegated groups in another unit: nested among themselves by time, their
  // roots attached to the DELEGATE_CALL.
  for (const Group& group : groups_) {
    if (!by_instruction_[group.items.front()]) continue;
    group_keys_.clear();
    for (uint32_t item : group.items) {
      group_keys_.push_back(keys_by_item_[item]);
    }
    SortAndNest(group_keys_, stack_, parent_);
    for (const NestKey& key : group_keys_) {
      if (parent_[key.item] == -1) {
        parent_[key.item] = static_cast<int32_t>(group.call);
      }
      processing_order_.push_back(key.item);
    }
  }

  // Children lists (CSR) in processing order: siblings in start order.
  std::fill(child_count_.begin(), child_count_.end(), 0);
  for (uint32_t item = 0; item < n; ++item) {
    if (parent_[item] >= 0) {
      ++child_count_[static_cast<uint32_t>(parent_[item])];
    }
  }
  child_begin_[0] = 0;
  for (std::size_t i = 0; i < n; ++i) {
    child_begin_[i + 1] = child_begin_[i] + child_count_[i];
  }
  children_.resize(child_begin_[n]);
  roots_.clear();
  {
    std::vector<uint32_t>& fill = node_of_item_;  // reused as a cursor
    for (std::size_t i = 0; i < n; ++i) fill[i] = child_begin_[i];
    for (uint32_t item : processing_order_) {
      const int32_t p = parent_[item];
      if (p < 0) {
        roots_.push_back(item);
      } else {
        children_[fill[static_cast<uint32_t>(p)]++] = item;
      }
    }
  }

  // Depth-first pre-order.
  tree.nodes.reserve(n);
  dfs_.clear();
  for (auto it = roots_.rbegin(); it != roots_.rend(); ++it) {
    dfs_.push_back(*it);
  }
  while (!dfs_.empty()) {
    const uint32_t item = dfs_.back();
    dfs_.pop_back();
    const uint32_t index = static_cast<uint32_t>(tree.nodes.size());
    node_of_item_[item] = index;
    EventTreeNode node;
    node.event_index = events_[item];
    node.start_ticks = keys_by_item_[item].start;
    node.end_ticks = keys_by_item_[item].end;
    node.total = totals_[item];
    node.self = totals_[item];
    node.child_count = child_count_[item];
    node.placed_by_instruction = by_instruction_[item] != 0;
    if (parent_[item] >= 0) {
      node.parent = static_cast<int32_t>(
          node_of_item_[static_cast<uint32_t>(parent_[item])]);
      node.depth = tree.nodes[static_cast<uint32_t>(node.parent)].depth + 1;
    }
    tree.nodes.push_back(node);
    for (uint32_t c = child_begin_[item + 1]; c > child_begin_[item]; --c) {
      dfs_.push_back(children_[c - 1]);
    }
  }

  // Subtree sizes and self times, bottom-up.
  for (std::size_t i = tree.nodes.size(); i-- > 0;) {
    const EventTreeNode& node = tree.nodes[i];
    if (node.parent < 0) {
      tree.root_total += node.total;
      continue;
    }
    EventTreeNode& parent = tree.nodes[static_cast<uint32_t>(node.parent)];
    parent.subtree_size += node.subtree_size;
    parent.self -= node.total;
  }
  return tree;
}

}  // namespace

std::vector<int32_t> NestIntervals(
    const std::vector<NestingInterval>& intervals) {
  std::vector<NestKey> keys;
  keys.reserve(intervals.size());
  for (std::size_t i = 0; i < intervals.size(); ++i) {
    const NestingInterval& in = intervals[i];
    keys.push_back(NestKey{in.start, std::max(in.start, in.end), in.rank,
                           static_cast<uint32_t>(i)});
  }
  std::vector<int32_t> parent(intervals.size(), -1);
  std::vector<NestKey> stack;
  SortAndNest(keys, stack, parent);
  return parent;
}

int32_t EventNestingRank(const Event& event) {
  if (IsDelegated(event)) return 3;
  if (event.role == EventRole::kLoadMethod) return 0;
  if (event.role == EventRole::kMethodInit || event.role == EventRole::kMethodExecute) return 1;
  if (event.role == EventRole::kOperatorCall || event.role == EventRole::kDelegateCall) return 2;
  return 3;
}

RunEventTree BuildRunEventTree(const EventBlock& block, std::size_t run,
                               const EventTreeOptions& options) {
  if (run >= block.run_count) {
    RunEventTree empty;
    empty.run = run;
    return empty;
  }
  TreeBuilder builder(block, options);
  return builder.Build(run);
}

std::vector<BlockEventTrees> BuildEventTrees(
    const std::vector<EventBlock>& blocks, const EventTreeOptions& options) {
  std::vector<BlockEventTrees> out;
  out.reserve(blocks.size());
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    BlockEventTrees trees;
    trees.block_index = b;
    TreeBuilder builder(blocks[b], options);
    trees.runs.reserve(blocks[b].run_count);
    for (std::size_t r = 0; r < blocks[b].run_count; ++r) {
      trees.runs.push_back(builder.Build(r));
    }
    out.push_back(std::move(trees));
  }
  return out;
}

}  // namespace etbench
