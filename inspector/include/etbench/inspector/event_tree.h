#pragma once
// Event trees: per run, the profile events of an EventBlock nested by
// time-interval containment (torch.profiler's parent/child relation), with
// total and self time per node.
//
// The runtime writes an event when it ends, so file order is not nesting
// order; nesting is recovered from [start, end) by the O(n log n)
// sort-and-stack method. Delegate-internal events may count in the
// delegate's own unit (cycles while the runtime counts ns): those are
// placed under their DELEGATE_CALL by instruction id instead of by time.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "etbench/inspector/event_block.h"

namespace etbench {

/// One interval for NestIntervals.
struct NestingInterval {
  uint64_t start = 0;
  uint64_t end = 0;  // must be >= start
  /// Among identical intervals the lower rank is the outer one.
  int32_t rank = 0;
};

/// Parent of each interval (an index into `intervals`, or -1 for a root).
/// A child lies inside its parent: parent.start <= start and end <=
/// parent.end (a zero-length interval on a parent's boundary is inside it).
/// Partial overlaps do not nest. When several intervals contain one, the
/// parent is the one that starts last (then ends first). Identical intervals
/// nest in one another: lower rank outside; at equal rank the LATER interval
/// is the outer one, because the runtime writes events in completion order.
/// O(n log n) (O(n) when the intervals are already in start order).
std::vector<int32_t> NestIntervals(
    const std::vector<NestingInterval>& intervals);

/// How delegate-internal events (those with a delegate debug id) are placed.
enum class DelegatePlacement {
  /// Per run and instruction: by time when all of the instruction's
  /// delegated events lie inside its DELEGATE_CALL, else by instruction.
  kAuto,
  kByTime,         // always by time (the delegate uses the runtime's clock)
  kByInstruction,  // always under the DELEGATE_CALL of the same instruction
};

struct EventTreeOptions {
  DelegatePlacement delegate_placement = DelegatePlacement::kAuto;
};

struct EventTreeNode {
  uint32_t event_index = 0;  // into EventBlock::events
  int32_t parent = -1;       // into RunEventTree::nodes; -1 for a root
  uint32_t depth = 0;        // 0 for roots
  /// This node and its descendants are nodes[i, i + subtree_size).
  uint32_t subtree_size = 1;
  uint32_t child_count = 0;
  uint64_t start_ticks = 0;
  /// start_ticks + elapsed ticks (a 32-bit counter wrap is unwrapped).
  uint64_t end_ticks = 0;
  /// Duration in the block's target time scale (the Event's
  /// perf_data.raw[run], i.e. after the delegate time converter).
  double total = 0;
  /// total − Σ direct children's total. With partially overlapping
  /// children it can be negative; it is not clamped (as torch.profiler).
  double self = 0;
  /// A delegated event placed under its instruction's DELEGATE_CALL by
  /// instruction id (its timestamps are not in the runtime's unit); such
  /// events nest among themselves by time.
  bool placed_by_instruction = false;
};

struct RunEventTree {
  std::size_t run = 0;             // index of the run within the block
  std::size_t run_data_index = 0;  // EventBlock::run_indices[run]
  /// Depth-first pre-order; siblings in start order (then by nesting rank).
  std::vector<EventTreeNode> nodes;
  /// Σ of the roots' totals (= Σ self over all nodes).
  double root_total = 0;
};

struct BlockEventTrees {
  std::size_t block_index = 0;     // position in the EventBlock list
  std::vector<RunEventTree> runs;  // one per run of the block
};

/// Nesting rank used for identical intervals, by Event::role:
/// Program::load_method 0, Method::init / Method::execute 1, operator and
/// delegate calls (OPERATOR_CALL, DELEGATE_CALL) 2, everything else 3
/// (delegate events always 3).
int32_t EventNestingRank(const Event& event);

/// The tree of one run of `block` (empty when run >= block.run_count).
/// Events without timing (debug-only events) are left out.
RunEventTree BuildRunEventTree(const EventBlock& block, std::size_t run,
                               const EventTreeOptions& options = {});

/// Trees of every run of every block.
std::vector<BlockEventTrees> BuildEventTrees(
    const std::vector<EventBlock>& blocks,
    const EventTreeOptions& options = {});

}  // namespace etbench
