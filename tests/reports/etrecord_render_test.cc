// Text views: graph summary (--show-graph), module tree, op-type groups.
// Inputs are fixed numbers, so outputs are compared whole.

#include "etbench/reports/etrecord_render.h"

#include <gtest/gtest.h>

#include "etbench/inspector/etrecord.h"
#include "etbench/inspector/etrecord_writer.h"
#include "etbench/inspector/module_tree.h"
#include "inspector/etrecord/etrecord_test_util.h"
#include "support/test_support.h"

namespace etbench {
namespace {

using testing::Frame;
using testing::MakeBlock;
using testing::MakeEvent;

TEST(EtrecordRenderTest, GraphSummaryOfTheRealSample) {
  const std::string path =
      testing::FixturePath("executorch_sample_etrecord.bin");
  auto etrecord = LoadEtrecord(path);
  ASSERT_TRUE(etrecord.ok()) << etrecord.error().message;
  EXPECT_EQ(
      RenderGraphSummary(etrecord.value()),
      "ETRecord " + path +
          " (method 'forward')\n"
          "  entries: ETRECORD_V0, aten_dialect_output/forward, "
          "aten_dialect_output/forward_state_dict, "
          "edge_dialect_exported_program, "
          "edge_dialect_exported_program_state_dict, debug_handle_map, "
          "delegate_map\n"
          "  program: edge_dialect_exported_program: 1 node, 1 with debug "
          "handles\n"
          "  inputs: arg0_1, arg1_1\n"
          "  outputs: aten_mul_tensor\n"
          "\n"
          "  #  node             target           handles  module  source\n"
          "  0  aten_mul_tensor  aten.mul.Tensor  2        -       "
          "model.py:18\n"
          "\n"
          "debug_handle_map (method 'forward'): 0 instructions\n"
          "delegate_map: 0 instructions\n");
}

TEST(EtrecordRenderTest, GraphSummaryListsInstructionsAndDelegates) {
  EtrecordSpec spec;
  spec.graph_inputs = {"x"};
  EtrecordNodeSpec conv;
  conv.name = "conv";
  conv.target = EdgeDialectTarget("aten.convolution.default");
  conv.debug_handles = {1};
  conv.module_stack = {Frame("L__self___conv", "conv", "Conv2d")};
  EtrecordNodeSpec relu = conv;
  relu.name = "relu";
  relu.target = EdgeDialectTarget("aten.relu.default");
  relu.debug_handles = {2};
  relu.module_stack.clear();
  spec.nodes = {conv, relu};
  spec.debug_handle_map = {{0, {1}}, {1, {1, 2}}, {2, {9}}};
  spec.delegate_map = {
      {1, {"XnnpackBackend", {{int32_t{0}, {1}}, {std::string("r"), {2}}}}}};
  auto bytes = SerializeEtrecord(spec);
  ASSERT_TRUE(bytes.ok()) << bytes.error().message;
  auto etrecord = LoadEtrecordFromBytes(bytes.value(), "mem");
  ASSERT_TRUE(etrecord.ok()) << etrecord.error().message;
  const std::string text = RenderGraphSummary(etrecord.value());
  const std::string tail =
      "  #  node  target                    handles  module  source\n"
      "  0  conv  aten.convolution.default  1        conv    -\n"
      "  1  relu  aten.relu.default         2        -       -\n"
      "\n"
      "debug_handle_map (method 'forward'): 3 instructions\n"
      "  instr  handles  delegate        nodes\n"
      "      0  1        -               conv\n"
      "      1  1, 2     XnnpackBackend  conv, relu\n"
      "      2  9        -               ?9\n"
      "delegate_map: 1 instruction\n"
      "  instr  backend         delegate id  handles\n"
      "      1  XnnpackBackend  0            1\n"
      "      1  XnnpackBackend  r            2\n";
  ASSERT_GE(text.size(), tail.size());
  EXPECT_EQ(text.substr(text.size() - tail.size()), tail) << text;
  EXPECT_NE(text.find("  inputs: x\n  outputs: -\n"), std::string::npos)
      << text;
}

std::vector<EventBlock> TreeBlocks() {
  const ModuleFrame layer1 = Frame("L__self___layer1", "layer1", "Sequential");
  const ModuleFrame conv = Frame("L__self___layer1_0", "layer1.0", "Conv2d");
  const ModuleFrame fc = Frame("L__self___fc", "fc", "Linear");
  Event a = MakeEvent("native_call_conv", 0, std::monostate{}, {3.0});
  a.module_hierarchy["conv"] = {layer1, conv};
  a.op_types = {"aten.convolution.default"};
  Event b = MakeEvent("native_call_fc", 1, std::monostate{}, {1.0});
  b.module_hierarchy["fc"] = {fc};
  b.op_types = {"aten.linear.default"};
  Event c = MakeEvent("native_call_add", 2, std::monostate{}, {0.5});
  return {MakeBlock("Execute", {a, b, c})};
}

TEST(EtrecordRenderTest, ModuleTreeIsIndentedWithTotalsAndShares) {
  EXPECT_EQ(RenderModuleTree(BuildModuleTree(TreeBlocks()), "ms"),
            "Module tree (ms; total: events within the module, each once; "
            "self: events in none of its submodules)\n"
            "   total    self   share  events  module\n"
            "  4.0000  0.0000  100.0%       2  (model)\n"
            "  3.0000  0.0000   75.0%       1    layer1  (Sequential)\n"
            "  3.0000  3.0000   75.0%       1      layer1.0  (Conv2d)\n"
            "  1.0000  1.0000   25.0%       1    fc  (Linear)\n"
            "Without module information: 0.5000 ms in 1 event\n");
}

TEST(EtrecordRenderTest, OpTypeGroupsShowTotalsAndAverages) {
  EXPECT_EQ(RenderOpTypeGroups(GroupByOpType(TreeBlocks()), "ms"),
            "Op types (ms)\n"
            "   total  events  avg/event  op type\n"
            "  3.0000       1     3.0000  aten.convolution.default\n"
            "  1.0000       1     1.0000  aten.linear.default\n"
            "  0.5000       1     0.5000  native_call_add  (not linked)\n");
}

TEST(EtrecordRenderTest, TimesUseFourDecimalsBelowAThousand) {
  EXPECT_EQ(FormatEtrecordTime(0.01234), "0.0123");
  EXPECT_EQ(FormatEtrecordTime(999.5), "999.5000");
  EXPECT_EQ(FormatEtrecordTime(123456.78), "123456.8");
}

}  // namespace
}  // namespace etbench
