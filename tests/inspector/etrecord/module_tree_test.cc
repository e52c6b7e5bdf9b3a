// Module tree and op-type groups against hand-computed sums.

#include "etbench/inspector/module_tree.h"

#include <gtest/gtest.h>

#include "inspector/etrecord/etrecord_test_util.h"

namespace etbench {
namespace {

using testing::Frame;
using testing::MakeBlock;
using testing::MakeEvent;

const ModuleFrame kLayer1 = Frame("L__self___layer1", "layer1", "Sequential");
const ModuleFrame kConv = Frame("L__self___layer1_0", "layer1.0", "Conv2d");
const ModuleFrame kRelu = Frame("L__self___layer1_1", "layer1.1", "ReLU");
const ModuleFrame kFc = Frame("L__self___fc", "fc", "Linear");

Event Linked(
    const std::string& name, std::vector<double> raw,
    std::vector<std::pair<std::string, std::vector<ModuleFrame>>> nodes,
    std::vector<std::string> op_types) {
  Event event = MakeEvent(name, 0, std::monostate{}, std::move(raw));
  for (auto& [node, frames] : nodes) event.module_hierarchy[node] = frames;
  event.op_types = std::move(op_types);
  return event;
}

// avg: conv 2.0, relu 0.5, OPERATOR_CALL 2.5 (skipped), fused conv+relu 3.0,
// fc 1.0, add 0.25 (no module), Method::execute 10 (skipped), a debug-only
// event (no perf data, skipped), and in a second block another conv 1.5.
std::vector<EventBlock> Blocks() {
  return {
      MakeBlock(
          "Execute",
          {Linked("native_call_conv", {1.0, 3.0}, {{"conv", {kLayer1, kConv}}},
                  {"aten.convolution.default"}),
           Linked("native_call_relu", {0.5}, {{"relu", {kLayer1, kRelu}}},
                  {"aten.relu.default"}),
           Linked("OPERATOR_CALL", {2.5}, {{"conv", {kLayer1, kConv}}},
                  {"aten.convolution.default"}),
           Linked("native_call_fused", {3.0},
                  {{"conv", {kLayer1, kConv}}, {"relu", {kLayer1, kRelu}}},
                  {"aten.convolution.default", "aten.relu.default"}),
           Linked("native_call_fc", {1.0}, {{"fc", {kFc}}},
                  {"aten.linear.default"}),
           Linked("native_call_add", {0.25}, {}, {}),
           Linked("Method::execute", {10.0}, {}, {}),
           Linked("debug_only", {}, {{"fc", {kFc}}}, {"aten.linear.default"})}),
      MakeBlock("Execute",
                {Linked("native_call_conv", {1.5}, {{"conv", {kLayer1, kConv}}},
                        {"aten.convolution.default"})}),
  };
}

TEST(EtrecordModuleTreeTest, TotalsSelfAndCountsMatchHandSums) {
  const ModuleTree tree = BuildModuleTree(Blocks());
  EXPECT_EQ(tree.root.name, "(model)");
  EXPECT_DOUBLE_EQ(tree.root.total, 2.0 + 0.5 + 3.0 + 1.0 + 1.5);
  EXPECT_EQ(tree.root.event_count, 5u);
  ASSERT_EQ(tree.root.children.size(), 2u);

  const ModuleTreeNode& layer1 = tree.root.children[0];
  EXPECT_EQ(layer1.name, "layer1");
  EXPECT_EQ(layer1.frame.module_type, "Sequential");
  // The fused event is within layer1 once, not twice.
  EXPECT_DOUBLE_EQ(layer1.total, 2.0 + 0.5 + 3.0 + 1.5);
  EXPECT_EQ(layer1.event_count, 4u);
  EXPECT_DOUBLE_EQ(layer1.self, 0.0);
  ASSERT_EQ(layer1.children.size(), 2u);

  const ModuleTreeNode& conv = layer1.children[0];
  EXPECT_EQ(conv.name, "layer1.0");
  EXPECT_DOUBLE_EQ(conv.total, 2.0 + 3.0 + 1.5);
  EXPECT_DOUBLE_EQ(conv.self, conv.total);
  EXPECT_EQ(conv.event_count, 3u);
  EXPECT_EQ(conv.self_event_count, 3u);
  ASSERT_EQ(conv.events.size(), 3u);
  EXPECT_EQ(conv.events[2].block, 1u);
  EXPECT_EQ(conv.events[2].event, 0u);

  const ModuleTreeNode& relu = layer1.children[1];
  EXPECT_DOUBLE_EQ(relu.total, 0.5 + 3.0);

  const ModuleTreeNode& fc = tree.root.children[1];
  EXPECT_EQ(fc.name, "fc");
  EXPECT_DOUBLE_EQ(fc.total, 1.0);
  EXPECT_EQ(fc.event_count, 1u);

  EXPECT_DOUBLE_EQ(tree.unattributed_total, 0.25);
  EXPECT_EQ(tree.unattributed_event_count, 1u);

  ASSERT_NE(FindModuleNode(tree, "layer1.1"), nullptr);
  EXPECT_DOUBLE_EQ(FindModuleNode(tree, "layer1.1")->total, 3.5);
  EXPECT_EQ(FindModuleNode(tree, "absent"), nullptr);
}

TEST(EtrecordModuleTreeTest, SelfExcludesEventsInSubmodules) {
  // One event in layer1 directly (a node whose innermost frame is layer1)
  // and one in layer1.0.
  std::vector<EventBlock> blocks = {MakeBlock(
      "Execute", {Linked("a", {4.0}, {{"n", {kLayer1}}}, {"x"}),
                  Linked("b", {1.0}, {{"m", {kLayer1, kConv}}}, {"y"})})};
  const ModuleTree tree = BuildModuleTree(blocks);
  const ModuleTreeNode& layer1 = tree.root.children[0];
  EXPECT_DOUBLE_EQ(layer1.total, 5.0);
  EXPECT_DOUBLE_EQ(layer1.self, 4.0);
  EXPECT_EQ(layer1.self_event_count, 1u);
}

TEST(EtrecordModuleTreeTest, EmptyBlocksGiveAnEmptyTree) {
  const ModuleTree tree = BuildModuleTree({});
  EXPECT_DOUBLE_EQ(tree.root.total, 0.0);
  EXPECT_TRUE(tree.root.children.empty());
  EXPECT_EQ(tree.unattributed_event_count, 0u);
}

TEST(EtrecordModuleTreeTest, OpTypeGroupsSumAndSortByTotal) {
  const auto groups = GroupByOpType(Blocks());
  ASSERT_EQ(groups.size(), 5u);
  EXPECT_EQ(groups[0].key, "aten.convolution.default");
  EXPECT_DOUBLE_EQ(groups[0].total, 2.0 + 1.5);
  EXPECT_EQ(groups[0].event_count, 2u);
  EXPECT_TRUE(groups[0].linked);
  EXPECT_EQ(groups[1].key, "aten.convolution.default + aten.relu.default");
  EXPECT_DOUBLE_EQ(groups[1].total, 3.0);
  EXPECT_EQ(groups[2].key, "aten.linear.default");
  EXPECT_EQ(groups[3].key, "aten.relu.default");
  EXPECT_EQ(groups[4].key, "native_call_add");
  EXPECT_FALSE(groups[4].linked);
  EXPECT_DOUBLE_EQ(groups[4].total, 0.25);
}

}  // namespace
}  // namespace etbench
