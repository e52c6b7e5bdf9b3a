#include "etbench/inspector/key_averages.h"

#include <gtest/gtest.h>

#include "support/event_blocks.h"

namespace etbench {
namespace {

using testing::MakeTimedBlock;
using testing::TimedEvent;

// Two runs: add twice per run (two instructions), mul once.
EventBlock TwoRuns() {
  return MakeTimedBlock("Execute",
                   {
                       {"native_call_add.out", 0, {{12, 38}, {112, 122}}},
                       {"OPERATOR_CALL", 0, {{10, 40}, {110, 124}}},
                       {"native_call_mul.out", 1, {{52, 88}, {140, 190}}},
                       {"OPERATOR_CALL", 1, {{50, 90}, {135, 195}}},
                       {"native_call_add.out", 2, {{91, 95}, {196, 198}}},
                       {"Method::execute", 0, {{0, 100}, {100, 200}}, {}, -1},
                   });
}

const ProfileRow* Find(const ProfileTable& table, const std::string& key) {
  for (const ProfileRow& row : table.rows) {
    if (row.key == key) return &row;
  }
  return nullptr;
}

TEST(KeyAveragesTest, GroupsByNameOverAllRuns) {
  const EventBlock block = TwoRuns();
  const BlockEventTrees trees = BuildEventTrees({block})[0];
  const ProfileTable table = ComputeKeyAverages(block, trees, GroupBy::kName);
  ASSERT_EQ(table.rows.size(), 4u);
  // First appearance in run 0's pre-order.
  EXPECT_EQ(table.rows[0].key, "Method::execute");
  EXPECT_EQ(table.rows[1].key, "OPERATOR_CALL");
  EXPECT_EQ(table.rows[2].key, "native_call_add.out");
  EXPECT_EQ(table.rows[3].key, "native_call_mul.out");

  const ProfileRow& add = *Find(table, "native_call_add.out");
  EXPECT_EQ(add.count, 4u);
  EXPECT_DOUBLE_EQ(add.total, 26 + 4 + 10 + 2);
  EXPECT_DOUBLE_EQ(add.self_total, 42);
  EXPECT_DOUBLE_EQ(add.avg(), 10.5);
  EXPECT_FALSE(add.top_level);

  const ProfileRow& op = *Find(table, "OPERATOR_CALL");
  EXPECT_EQ(op.count, 4u);
  EXPECT_DOUBLE_EQ(op.total, 30 + 40 + 14 + 60);
  EXPECT_DOUBLE_EQ(op.self_total,
                   (30 - 26) + (40 - 36) + (14 - 10) + (60 - 50));

  const ProfileRow& execute = *Find(table, "Method::execute");
  EXPECT_EQ(execute.count, 2u);
  EXPECT_TRUE(execute.top_level);
  // run 0: 100 − 30 − 40 − 4; run 1: 100 − 14 − 60 − 2.
  EXPECT_DOUBLE_EQ(execute.self_total, 26 + 24);

  // Self times add up to the roots' totals.
  EXPECT_DOUBLE_EQ(table.self_total_sum, 200);
  EXPECT_EQ(table.run_count, 2u);
  EXPECT_EQ(table.block_name, "Execute");
}

TEST(KeyAveragesTest, GroupsByInstructionKeepingMethodEventsByName) {
  const EventBlock block = TwoRuns();
  const ProfileTable table = ComputeKeyAverages(
      block, BuildEventTrees({block})[0], GroupBy::kInstruction);
  ASSERT_EQ(table.rows.size(), 4u);
  EXPECT_EQ(table.rows[0].key, "Method::execute");
  EXPECT_EQ(table.rows[1].key, "instruction 0: native_call_add.out");
  EXPECT_EQ(table.rows[2].key, "instruction 1: native_call_mul.out");
  EXPECT_EQ(table.rows[3].key, "instruction 2: native_call_add.out");
  EXPECT_EQ(table.rows[1].instruction_id, 0);
  EXPECT_FALSE(table.rows[0].instruction_id.has_value());
  // Instruction 0: OPERATOR_CALL + kernel, two runs.
  EXPECT_EQ(table.rows[1].count, 4u);
  EXPECT_DOUBLE_EQ(table.rows[1].self_total, 30 + 14);
}

TEST(KeyAveragesTest, GroupsByOpTypeAndModuleWhenAnEtrecordIsLoaded) {
  EventBlock block = TwoRuns();
  block.events[0].op_types = {"aten.add.Tensor"};
  block.events[2].op_types = {"aten.mul.Tensor"};
  block.events[4].op_types = {"aten.add.Tensor"};
  block.events[0].module_hierarchy["add"] = {
      {"L__self__", "", "Net"}, {"L__self___block", "block", "Block"}};
  block.events[2].module_hierarchy["mul"] = {
      {"L__self___block", "block", "Block"}};
  block.events[4].module_hierarchy["add_1"] = {
      {"L__self___head", "head", "Head"}};
  const BlockEventTrees trees = BuildEventTrees({block})[0];

  const ProfileTable ops = ComputeKeyAverages(block, trees, GroupBy::kOpType);
  const ProfileRow* add = Find(ops, "aten.add.Tensor");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->count, 4u);
  EXPECT_DOUBLE_EQ(add->self_total, 42);
  ASSERT_NE(Find(ops, "OPERATOR_CALL"), nullptr);  // no op type: by name

  const ProfileTable modules =
      ComputeKeyAverages(block, trees, GroupBy::kModule);
  const ProfileRow* inner = Find(modules, "block");
  ASSERT_NE(inner, nullptr);
  EXPECT_EQ(inner->count, 4u);  // add at instruction 0 and mul, two runs
  EXPECT_DOUBLE_EQ(inner->total, 26 + 10 + 36 + 50);
  ASSERT_NE(Find(modules, "head"), nullptr);
  EXPECT_EQ(Find(modules, "head")->count, 2u);

  EXPECT_TRUE(HasOpTypes({block}));
  EXPECT_TRUE(HasModuleHierarchy({block}));
  EXPECT_FALSE(HasOpTypes({TwoRuns()}));
  EXPECT_FALSE(HasModuleHierarchy({TwoRuns()}));
}

TEST(KeyAveragesTest, EventsViewListsEveryOccurrence) {
  const EventBlock block = TwoRuns();
  const ProfileTable table =
      ListEventOccurrences(block, BuildEventTrees({block})[0]);
  ASSERT_EQ(table.rows.size(), 12u);
  EXPECT_TRUE(table.per_event);
  EXPECT_EQ(table.rows[0].key, "Method::execute");
  EXPECT_EQ(table.rows[0].run, 0u);
  EXPECT_TRUE(table.rows[0].top_level);
  EXPECT_EQ(table.rows[2].key, "native_call_add.out");
  EXPECT_EQ(table.rows[2].depth, 2u);
  EXPECT_EQ(table.rows[6].run, 1u);
  EXPECT_DOUBLE_EQ(table.self_total_sum, 200);
}

TEST(KeyAveragesTest, ParsesGroupByNames) {
  EXPECT_EQ(ParseGroupBy("op_type").value(), GroupBy::kOpType);
  EXPECT_EQ(GroupByName(GroupBy::kInstruction), "instruction");
  const Result<GroupBy> bad = ParseGroupBy("stack");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("name, op_type, module or instruction"),
            std::string::npos);
}

}  // namespace
}  // namespace etbench
