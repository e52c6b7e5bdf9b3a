#include "etbench/inspector/event_tree.h"

#include <gtest/gtest.h>

#include "support/event_blocks.h"

namespace etbench {
namespace {

using testing::MakeTimedBlock;
using testing::TimedEvent;

std::vector<int32_t> Nest(const std::vector<NestingInterval>& intervals) {
  return NestIntervals(intervals);
}

TEST(NestIntervalsTest, NestedIntervalsFormAChain) {
  // Given in completion order (innermost first), as the runtime writes them.
  EXPECT_EQ(Nest({{20, 30}, {10, 40}, {0, 100}}),
            (std::vector<int32_t>{1, 2, -1}));
}

TEST(NestIntervalsTest, SiblingsShareTheirParent) {
  EXPECT_EQ(Nest({{10, 20}, {20, 30}, {0, 100}, {40, 50}}),
            (std::vector<int32_t>{2, 2, -1, 2}));
}

TEST(NestIntervalsTest, PartialOverlapDoesNotNest) {
  // [5,15) overlaps [0,10) without being inside it: both are roots. [6,8)
  // lies in both and goes to the one that starts last.
  EXPECT_EQ(Nest({{0, 10}, {5, 15}, {6, 8}}),
            (std::vector<int32_t>{-1, -1, 1}));
}

TEST(NestIntervalsTest, ZeroLengthIntervalsNestWhereTheyFall) {
  // Inside, on the start boundary, on the end boundary; and outside.
  EXPECT_EQ(Nest({{0, 10}, {5, 5}, {0, 0}, {10, 10}, {11, 11}}),
            (std::vector<int32_t>{-1, 0, 0, 0, -1}));
}

TEST(NestIntervalsTest, ZeroLengthIntervalBetweenSiblingsGoesToTheLaterOne) {
  EXPECT_EQ(Nest({{0, 10}, {10, 20}, {10, 10}}),
            (std::vector<int32_t>{-1, -1, 1}));
}

TEST(NestIntervalsTest, IdenticalIntervalsNestTheEarlierInsideTheLater) {
  // Completion order: the inner event is written first.
  EXPECT_EQ(Nest({{5, 9}, {5, 9}, {5, 9}}), (std::vector<int32_t>{1, 2, -1}));
}

TEST(NestIntervalsTest, IdenticalIntervalsNestByRankFirst) {
  NestingInterval outer{5, 9, 0};
  NestingInterval inner{5, 9, 3};
  EXPECT_EQ(Nest({outer, inner}), (std::vector<int32_t>{-1, 0}));
  EXPECT_EQ(Nest({inner, outer}), (std::vector<int32_t>{1, -1}));
}

TEST(NestIntervalsTest, EmptyInputGivesNoParents) {
  EXPECT_TRUE(Nest({}).empty());
}

// One Execute run as the runtime writes it: kernels before their
// OPERATOR_CALL, Method::execute last.
std::vector<TimedEvent> ExecuteRun() {
  return {
      {"native_call_add.out", 0, {{12, 38}, {112, 130}}},
      {"OPERATOR_CALL", 0, {{10, 40}, {110, 132}}},
      {"native_call_mul.out", 1, {{52, 88}, {140, 190}}},
      {"OPERATOR_CALL", 1, {{50, 90}, {135, 195}}},
      {"Method::execute", 0, {{0, 100}, {100, 200}}, {}, -1},
  };
}

TEST(EventTreeTest, RunTreeIsInPreOrderWithDepthsAndSizes) {
  const EventBlock block = MakeTimedBlock("Execute", ExecuteRun());
  const RunEventTree tree = BuildRunEventTree(block, 0);
  ASSERT_EQ(tree.nodes.size(), 5u);
  const std::vector<uint32_t> events{4, 1, 0, 3, 2};
  const std::vector<int32_t> parents{-1, 0, 1, 0, 3};
  const std::vector<uint32_t> depths{0, 1, 2, 1, 2};
  const std::vector<uint32_t> sizes{5, 2, 1, 2, 1};
  const std::vector<uint32_t> children{2, 1, 0, 1, 0};
  for (std::size_t i = 0; i < tree.nodes.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(tree.nodes[i].event_index, events[i]);
    EXPECT_EQ(tree.nodes[i].parent, parents[i]);
    EXPECT_EQ(tree.nodes[i].depth, depths[i]);
    EXPECT_EQ(tree.nodes[i].subtree_size, sizes[i]);
    EXPECT_EQ(tree.nodes[i].child_count, children[i]);
  }
}

TEST(EventTreeTest, SelfTimeIsTotalMinusDirectChildren) {
  const EventBlock block = MakeTimedBlock("Execute", ExecuteRun());
  const RunEventTree tree = BuildRunEventTree(block, 0);
  // execute 100 − (30 + 40); OPERATOR_CALL 30 − 26 and 40 − 36.
  const std::vector<double> totals{100, 30, 26, 40, 36};
  const std::vector<double> selfs{30, 4, 26, 4, 36};
  for (std::size_t i = 0; i < tree.nodes.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_DOUBLE_EQ(tree.nodes[i].total, totals[i]);
    EXPECT_DOUBLE_EQ(tree.nodes[i].self, selfs[i]);
  }
  EXPECT_DOUBLE_EQ(tree.root_total, 100);
}

TEST(EventTreeTest, EveryRunGetsItsOwnTreeEvenWhenTheOrderChanges) {
  // Run 1 reverses the two instructions' order in time: the sort-skipping
  // shortcut must notice.
  std::vector<TimedEvent> events = {
      {"a", 0, {{10, 20}, {60, 70}}},
      {"b", 1, {{30, 40}, {10, 20}}},
      {"Method::execute", 0, {{0, 100}, {0, 100}}, {}, -1},
  };
  const EventBlock block = MakeTimedBlock("Execute", events);
  const std::vector<BlockEventTrees> trees = BuildEventTrees({block});
  ASSERT_EQ(trees.size(), 1u);
  ASSERT_EQ(trees[0].runs.size(), 2u);
  auto order = [&](const RunEventTree& t) {
    std::vector<uint32_t> out;
    for (const EventTreeNode& n : t.nodes) out.push_back(n.event_index);
    return out;
  };
  EXPECT_EQ(order(trees[0].runs[0]), (std::vector<uint32_t>{2, 0, 1}));
  EXPECT_EQ(order(trees[0].runs[1]), (std::vector<uint32_t>{2, 1, 0}));
  EXPECT_EQ(trees[0].runs[1].run, 1u);
  EXPECT_EQ(trees[0].runs[1].run_data_index, 1u);
}

TEST(EventTreeTest, IdenticalKernelAndOperatorCallNestByRank) {
  // A coarse clock gives the kernel and its OPERATOR_CALL the same interval.
  const EventBlock block =
      MakeTimedBlock("Execute", {{"native_call_add.out", 0, {{10, 20}}},
                            {"OPERATOR_CALL", 0, {{10, 20}}}});
  const RunEventTree tree = BuildRunEventTree(block, 0);
  ASSERT_EQ(tree.nodes.size(), 2u);
  EXPECT_EQ(tree.nodes[0].event_index, 1u);  // OPERATOR_CALL outside
  EXPECT_EQ(tree.nodes[1].parent, 0);
  EXPECT_DOUBLE_EQ(tree.nodes[0].self, 0);
}

TEST(EventTreeTest, WrappedThirtyTwoBitCounterIsUnwrapped) {
  EventBlock block =
      MakeTimedBlock("Execute", {{"inner", 0, {{0xFFFFFFF0u, 0xFFFFFFF8u}}},
                            {"outer", 0, {{0xFFFFFFE0u, 0xFFFFFFFFu}}}});
  // outer really ends 0x30 ticks after the wrap.
  block.events[1].end_ticks[0] = 0x30;
  block.events[1].perf_data = PerfData::FromRaw({0x50});
  const RunEventTree tree = BuildRunEventTree(block, 0);
  ASSERT_EQ(tree.nodes.size(), 2u);
  EXPECT_EQ(tree.nodes[0].event_index, 1u);
  EXPECT_EQ(tree.nodes[0].end_ticks, uint64_t{0xFFFFFFE0u} + 0x50u);
  EXPECT_EQ(tree.nodes[1].parent, 0);
}

TEST(EventTreeTest, EventsWithoutTimingAreLeftOut) {
  EventBlock block = MakeTimedBlock("Execute", {{"a", 0, {{0, 10}}}});
  Event debug_only;
  debug_only.name = "debug";
  block.events.push_back(debug_only);
  EXPECT_EQ(BuildRunEventTree(block, 0).nodes.size(), 1u);
  EXPECT_TRUE(BuildRunEventTree(block, 5).nodes.empty());  // no such run
}

// A delegate whose events count in cycles, inside an ns-clocked runtime.
std::vector<TimedEvent> DelegateRun(uint64_t delegate_base) {
  return {
      {"", 2, {{delegate_base, delegate_base + 400}}, int32_t{7}},
      {"",
       2,
       {{delegate_base + 400, delegate_base + 1000}},
       std::string("conv")},
      {"",
       2,
       {{delegate_base + 450, delegate_base + 500}},
       std::string("conv.inner")},
      {"DELEGATE_CALL", 2, {{1'000'000'010, 1'000'000'090}}},
      {"native_call_add.out", 3, {{1'000'000'095, 1'000'000'099}}},
      {"Method::execute", 0, {{1'000'000'000, 1'000'000'100}}, {}, -1},
  };
}

TEST(EventTreeTest, DelegateEventsInAnotherUnitHangUnderTheirDelegateCall) {
  const EventBlock block = MakeTimedBlock("Execute", DelegateRun(5000));
  const RunEventTree tree = BuildRunEventTree(block, 0);
  ASSERT_EQ(tree.nodes.size(), 6u);
  // Pre-order: execute, DELEGATE_CALL, 7, conv, conv.inner, add.
  const std::vector<uint32_t> events{5, 3, 0, 1, 2, 4};
  const std::vector<int32_t> parents{-1, 0, 1, 1, 3, 0};
  for (std::size_t i = 0; i < tree.nodes.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(tree.nodes[i].event_index, events[i]);
    EXPECT_EQ(tree.nodes[i].parent, parents[i]);
  }
  EXPECT_FALSE(tree.nodes[1].placed_by_instruction);
  EXPECT_TRUE(tree.nodes[2].placed_by_instruction);
  EXPECT_TRUE(tree.nodes[4].placed_by_instruction);
  EXPECT_FALSE(tree.nodes[5].placed_by_instruction);
  // Durations are already in one unit (the block's); self subtracts them.
  EXPECT_DOUBLE_EQ(tree.nodes[1].self, 80 - 400 - 600);
}

TEST(EventTreeTest, DelegateEventsOnTheRuntimeClockNestByTime) {
  std::vector<TimedEvent> events = {
      {"", 2, {{1'000'000'020, 1'000'000'030}}, int32_t{7}},
      {"", 2, {{1'000'000'040, 1'000'000'080}}, int32_t{8}},
      {"DELEGATE_CALL", 2, {{1'000'000'010, 1'000'000'090}}},
      {"Method::execute", 0, {{1'000'000'000, 1'000'000'100}}, {}, -1},
  };
  const RunEventTree tree = BuildRunEventTree(MakeTimedBlock("Execute", events), 0);
  ASSERT_EQ(tree.nodes.size(), 4u);
  EXPECT_EQ(tree.nodes[1].event_index, 2u);
  EXPECT_EQ(tree.nodes[2].parent, 1);
  EXPECT_EQ(tree.nodes[3].parent, 1);
  EXPECT_FALSE(tree.nodes[2].placed_by_instruction);
  EXPECT_DOUBLE_EQ(tree.nodes[1].self, 80 - 10 - 40);
}

TEST(EventTreeTest, DelegatePlacementCanBeForced) {
  const EventBlock block = MakeTimedBlock("Execute", DelegateRun(5000));
  const RunEventTree by_time =
      BuildRunEventTree(block, 0, EventTreeOptions{DelegatePlacement::kByTime});
  // By time, the cycle-stamped events fall outside everything: roots.
  int roots = 0;
  for (const EventTreeNode& n : by_time.nodes) roots += n.parent < 0 ? 1 : 0;
  EXPECT_EQ(roots, 3);  // 7, conv (with conv.inner), Method::execute

  std::vector<TimedEvent> on_clock = {
      {"", 2, {{1'000'000'020, 1'000'000'030}}, int32_t{7}},
      {"DELEGATE_CALL", 2, {{1'000'000'010, 1'000'000'090}}},
  };
  const RunEventTree forced =
      BuildRunEventTree(MakeTimedBlock("Execute", on_clock), 0,
                        EventTreeOptions{DelegatePlacement::kByInstruction});
  ASSERT_EQ(forced.nodes.size(), 2u);
  EXPECT_EQ(forced.nodes[1].parent, 0);
  EXPECT_TRUE(forced.nodes[1].placed_by_instruction);
}

TEST(EventTreeTest, DelegateEventsWithoutDelegateCallNestByTime) {
  const std::vector<TimedEvent> events = {
      {"", 2, {{20, 30}}, int32_t{7}},
      {"Method::execute", 0, {{0, 100}}, {}, -1},
  };
  const RunEventTree tree = BuildRunEventTree(MakeTimedBlock("Execute", events), 0);
  ASSERT_EQ(tree.nodes.size(), 2u);
  EXPECT_EQ(tree.nodes[1].parent, 0);
}

TEST(EventTreeTest, NestingRanksOrderFrameworkEventsOutside) {
  // An Event as the builder makes it: the role decided from name and id.
  auto event = [](const std::string& name, bool delegated = false) {
    Event e;
    e.name = name;
    e.is_delegated_op = delegated;
    e.role = EventRoleOf(name, delegated);
    return e;
  };
  EXPECT_EQ(EventNestingRank(event("Program::load_method")), 0);
  EXPECT_EQ(EventNestingRank(event("Method::execute")), 1);
  EXPECT_EQ(EventNestingRank(event("DELEGATE_CALL")), 2);
  EXPECT_EQ(EventNestingRank(event("native_call_add.out")), 3);
  // A delegate id that happens to read DELEGATE_CALL.
  EXPECT_EQ(EventNestingRank(event("DELEGATE_CALL", /*delegated=*/true)), 3);
}

}  // namespace
}  // namespace etbench
