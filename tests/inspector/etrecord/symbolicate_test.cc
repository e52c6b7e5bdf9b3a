// Symbolicate and FindTotalForModule on a synthetic ETRecord written with
// WriteEtrecord, with hand-built EventBlocks.

#include <gtest/gtest.h>

#include "etbench/inspector/etrecord.h"
#include "etbench/inspector/etrecord_symbolicate.h"
#include "etbench/inspector/etrecord_writer.h"
#include "inspector/etrecord/etrecord_test_util.h"
#include "support/test_support.h"

namespace etbench {
namespace {

using testing::Frame;
using testing::MakeBlock;
using testing::MakeEvent;

const ModuleFrame kLayer1 = Frame("L__self___layer1", "layer1",
                                  "torch.nn.modules.container.Sequential");
const ModuleFrame kLayer1Conv =
    Frame("L__self___layer1_0", "layer1.0", "torch.nn.modules.conv.Conv2d");
const ModuleFrame kLayer1Relu =
    Frame("L__self___layer1_1", "layer1.1", "torch.nn.modules.activation.ReLU");
const ModuleFrame kLayer2 = Frame("L__self___layer2", "layer2",
                                  "torch.nn.modules.container.Sequential");
const ModuleFrame kFc =
    Frame("L__self___fc", "fc", "torch.nn.modules.linear.Linear");

EtrecordNodeSpec Node(const std::string& name, const std::string& op,
                      int64_t handle, std::vector<ModuleFrame> stack) {
  EtrecordNodeSpec node;
  node.name = name;
  node.target = EdgeDialectTarget(op);
  node.debug_handles = {handle};
  node.module_stack = std::move(stack);
  node.stack_trace = "  File \"/m/model.py\", line " +
                     std::to_string(10 + handle) + ", in forward\n    x\n";
  return node;
}

// A small CNN: conv/relu in layer1, a delegated conv/relu in layer2, fc,
// and an add outside any module.
EtrecordSpec ModelSpec() {
  EtrecordSpec spec;
  spec.graph_inputs = {"x"};
  spec.graph_outputs = {"add"};
  spec.nodes = {
      Node("conv", "aten.convolution.default", 1, {kLayer1, kLayer1Conv}),
      Node("relu", "aten.relu.default", 2, {kLayer1, kLayer1Relu}),
      Node("d_conv", "aten.convolution.default", 5,
           {kLayer2, Frame("L__self___layer2_0", "layer2.0", "Conv2d")}),
      Node("d_relu", "aten.relu.default", 6,
           {kLayer2, Frame("L__self___layer2_1", "layer2.1", "ReLU")}),
      Node("fc", "aten.linear.default", 3, {kFc}),
      Node("add", "aten.add.Tensor", 4, {}),
  };
  spec.nodes[1].inputs = {"conv"};
  spec.debug_handle_map = {{0, {1}}, {1, {2}},    {2, {3}}, {3, {5, 6}},
                           {4, {4}}, {5, {1, 2}}, {6, {5}}, {7, {12}}};
  EtrecordDelegateSpec xnn;
  xnn.backend_name = "XnnpackBackend";
  xnn.handles_by_id = {{int32_t{0}, {5}},
                       {std::string("relu_op"), {6}},
                       {std::string("fused"), {5, 6}},
                       {int32_t{12}, {5}},
                       {std::string("2"), {6}}};
  spec.delegate_map = {{3, xnn}};
  return spec;
}

class EtrecordSymbolicateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string path = dir_.File("etrecord.bin");
    Status written = WriteEtrecord(ModelSpec(), path);
    ASSERT_TRUE(written.ok()) << written.error().message;
    auto loaded = LoadEtrecord(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    etrecord_ = std::move(loaded.value());
  }

  // Symbolicates one block holding `events` and returns it.
  EventBlock Run(std::vector<Event> events) {
    std::vector<EventBlock> blocks = {MakeBlock("Execute", std::move(events))};
    warnings_ = Symbolicate(etrecord_, blocks);
    return blocks[0];
  }

  testing::TempDir dir_;
  Etrecord etrecord_;
  std::vector<std::string> warnings_;
};

TEST_F(EtrecordSymbolicateTest, NonDelegatedEventGetsHandlesOpTypeAndModule) {
  EventBlock block = Run({MakeEvent("native_call_convolution.out", 0)});
  const Event& e = block.events[0];
  ASSERT_TRUE(e.debug_handles.has_value());
  EXPECT_EQ(*e.debug_handles, std::vector<int64_t>{1});
  EXPECT_EQ(e.op_types, std::vector<std::string>{"aten.convolution.default"});
  ASSERT_EQ(e.module_hierarchy.count("conv"), 1u);
  ASSERT_EQ(e.module_hierarchy.at("conv").size(), 2u);
  EXPECT_EQ(e.module_hierarchy.at("conv")[1].path, "layer1.0");
  EXPECT_EQ(StackTraceLocation(e.stack_traces.at("conv")), "model.py:11");
  EXPECT_FALSE(e.delegate_backend_name.has_value());
  EXPECT_EQ(EventModulePaths(e), std::vector<std::string>{"layer1.0"});
  EXPECT_TRUE(warnings_.empty()) << warnings_[0];
}

TEST_F(EtrecordSymbolicateTest, MultipleHandlesPerEventLinkEveryNode) {
  EventBlock block = Run({MakeEvent("native_call_fused", 5)});
  const Event& e = block.events[0];
  EXPECT_EQ(*e.debug_handles, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(e.op_types, (std::vector<std::string>{"aten.convolution.default",
                                                  "aten.relu.default"}));
  EXPECT_EQ(e.module_hierarchy.size(), 2u);
  EXPECT_EQ(e.stack_traces.size(), 2u);
  EXPECT_EQ(JoinedOpTypes(e), "aten.convolution.default + aten.relu.default");
  EXPECT_EQ(EventModulePaths(e),
            (std::vector<std::string>{"layer1.0", "layer1.1"}));
}

TEST_F(EtrecordSymbolicateTest, NodeWithoutModuleStackHasNoHierarchy) {
  EventBlock block = Run({MakeEvent("native_call_add.out", 4)});
  const Event& e = block.events[0];
  EXPECT_EQ(e.op_types, std::vector<std::string>{"aten.add.Tensor"});
  EXPECT_TRUE(e.module_hierarchy.empty());
  EXPECT_EQ(e.stack_traces.size(), 1u);
}

TEST_F(EtrecordSymbolicateTest, DelegateCallGetsBackendNameAndAllHandles) {
  EventBlock block = Run({MakeEvent("DELEGATE_CALL", 3)});
  const Event& e = block.events[0];
  EXPECT_EQ(*e.debug_handles, (std::vector<int64_t>{5, 6}));
  EXPECT_EQ(e.delegate_backend_name.value_or(""), "XnnpackBackend");
  EXPECT_EQ(e.op_types.size(), 2u);
}

TEST_F(EtrecordSymbolicateTest, DelegatedIntAndStringIdsResolve) {
  EventBlock block = Run({MakeEvent("0", 3, int32_t{0}),
                          MakeEvent("relu_op", 3, std::string("relu_op")),
                          MakeEvent("fused", 3, std::string("fused"))});
  EXPECT_EQ(*block.events[0].debug_handles, std::vector<int64_t>{5});
  EXPECT_EQ(block.events[0].op_types,
            std::vector<std::string>{"aten.convolution.default"});
  EXPECT_EQ(block.events[0].delegate_backend_name.value_or(""),
            "XnnpackBackend");
  EXPECT_EQ(*block.events[1].debug_handles, std::vector<int64_t>{6});
  EXPECT_EQ(EventModulePaths(block.events[1]),
            std::vector<std::string>{"layer2.1"});
  EXPECT_EQ(*block.events[2].debug_handles, (std::vector<int64_t>{5, 6}));
  EXPECT_TRUE(warnings_.empty()) << warnings_[0];
}

TEST_F(EtrecordSymbolicateTest, SubstringFallbackTakesTheLastMatchInFileOrder) {
  // Keys in file order: "0", "relu_op", "fused", "12", "2".
  EventBlock block =
      Run({MakeEvent("relu_op#2x", 3, std::string("relu_op#x")),
           MakeEvent("fused_relu_op", 3, std::string("fused_relu_op")),
           MakeEvent("10", 3, int32_t{10}), MakeEvent("120", 3, int32_t{120})});
  // Only "relu_op" is a substring.
  EXPECT_EQ(*block.events[0].debug_handles, std::vector<int64_t>{6});
  // "relu_op" and "fused" both are: the later key, "fused", wins.
  EXPECT_EQ(*block.events[1].debug_handles, (std::vector<int64_t>{5, 6}));
  // 10 has no exact key; "0" is a substring of "10".
  EXPECT_EQ(*block.events[2].debug_handles, std::vector<int64_t>{5});
  // "0", "12" and "2" are substrings of "120": the last, "2", wins.
  EXPECT_EQ(*block.events[3].debug_handles, std::vector<int64_t>{6});
}

TEST_F(EtrecordSymbolicateTest, ExactDelegateIdIsNotOverriddenBySubstring) {
  // The reference would let the later key "2" (a substring of "12") win.
  EventBlock block = Run({MakeEvent("12", 3, int32_t{12})});
  EXPECT_EQ(*block.events[0].debug_handles, std::vector<int64_t>{5});
}

TEST_F(EtrecordSymbolicateTest, UnknownDelegateIdWarnsAndStaysUnlinked) {
  EventBlock block = Run({MakeEvent("nomatch", 3, std::string("nomatch"))});
  const Event& e = block.events[0];
  EXPECT_FALSE(e.debug_handles.has_value());
  EXPECT_TRUE(e.op_types.empty());
  EXPECT_EQ(e.delegate_backend_name.value_or(""), "XnnpackBackend");
  ASSERT_EQ(warnings_.size(), 1u);
  EXPECT_EQ(warnings_[0],
            "instruction 3 (XnnpackBackend): delegate_map has no entry for "
            "delegate debug id 'nomatch'");
}

TEST_F(EtrecordSymbolicateTest, MissingDelegateMappingWarnsButLinks) {
  EventBlock block =
      Run({MakeEvent("0", 6, int32_t{0}), MakeEvent("1", 6, int32_t{1})});
  // Falls back to the instruction's handles, as the reference does.
  EXPECT_EQ(*block.events[0].debug_handles, std::vector<int64_t>{5});
  EXPECT_EQ(block.events[0].op_types,
            std::vector<std::string>{"aten.convolution.default"});
  EXPECT_FALSE(block.events[0].delegate_backend_name.has_value());
  // One line for both events.
  ASSERT_EQ(warnings_.size(), 1u);
  EXPECT_EQ(warnings_[0],
            "No delegate mapping found for delegate with instruction id 6");
}

TEST_F(EtrecordSymbolicateTest, FrameworkAndUnmappedEventsStayUnlinked) {
  EventBlock block =
      Run({MakeEvent("Method::execute", 0),
           MakeEvent("Program::load_method", 0), MakeEvent("native_call_x", 99),
           MakeEvent("native_call_y", std::nullopt)});
  for (const Event& e : block.events) {
    EXPECT_FALSE(e.debug_handles.has_value()) << e.name;
    EXPECT_TRUE(e.op_types.empty()) << e.name;
  }
  ASSERT_EQ(warnings_.size(), 1u);
  EXPECT_EQ(warnings_[0],
            "1 event(s) have an instruction id that debug_handle_map does not "
            "list for method 'forward'; they stay unlinked");
}

TEST_F(EtrecordSymbolicateTest, HandlesWithoutGraphNodesAreReported) {
  EventBlock block = Run({MakeEvent("native_call_z", 7)});
  EXPECT_EQ(*block.events[0].debug_handles, std::vector<int64_t>{12});
  EXPECT_TRUE(block.events[0].op_types.empty());
  ASSERT_EQ(warnings_.size(), 1u);
  EXPECT_EQ(warnings_[0],
            "debug handle(s) 12 match no operator node of "
            "edge_dialect_exported_program (does the ETRecord belong to this "
            "model?)");
}

TEST_F(EtrecordSymbolicateTest, SymbolicatingTwiceGivesTheSameResult) {
  std::vector<EventBlock> blocks = {
      MakeBlock("Execute", {MakeEvent("native_call_fused", 5)})};
  Symbolicate(etrecord_, blocks);
  Symbolicate(etrecord_, blocks);
  EXPECT_EQ(blocks[0].events[0].op_types.size(), 2u);
}

TEST_F(EtrecordSymbolicateTest, FindTotalForModuleMatchesHandSums) {
  std::vector<EventBlock> blocks = {
      MakeBlock(
          "Execute",
          {MakeEvent("Method::execute", 0, std::monostate{}, {20.0}),
           MakeEvent("native_call_convolution.out", 0, std::monostate{},
                     {1.0, 3.0}),  // avg 2.0, layer1.0
           MakeEvent("OPERATOR_CALL", 0, std::monostate{}, {2.5}),  // skipped
           MakeEvent("native_call_relu.out", 1, std::monostate{},
                     {0.5}),  // layer1.1
           MakeEvent("native_call_fused", 5, std::monostate{},
                     {3.0}),  // layer1.0 and layer1.1, counted once
           MakeEvent("native_call_linear.out", 2, std::monostate{},
                     {1.0}),  // fc
           MakeEvent("native_call_add.out", 4, std::monostate{},
                     {0.25})}),  // no module
      MakeBlock("Execute2",
                {MakeEvent("DELEGATE_CALL", 3, std::monostate{}, {4.0}),
                 MakeEvent("0", 3, int32_t{0}, {1.5}),
                 MakeEvent("relu_op", 3, std::string("relu_op"), {})})};
  Symbolicate(etrecord_, blocks);
  EXPECT_DOUBLE_EQ(FindTotalForModule(blocks, "layer1"), 2.0 + 0.5 + 3.0);
  EXPECT_DOUBLE_EQ(FindTotalForModule(blocks, "layer1_0"), 2.0 + 3.0);
  EXPECT_DOUBLE_EQ(FindTotalForModule(blocks, "layer1_1"), 0.5 + 3.0);
  EXPECT_DOUBLE_EQ(FindTotalForModule(blocks, "fc"), 1.0);
  // DELEGATE_CALL and its delegated event both count (as in the reference);
  // the event without perf data does not.
  EXPECT_DOUBLE_EQ(FindTotalForModule(blocks, "layer2"), 4.0 + 1.5);
  // Substring of the key, as the reference: "self" is in every key.
  EXPECT_DOUBLE_EQ(FindTotalForModule(blocks, "self"),
                   2.0 + 0.5 + 3.0 + 1.0 + 4.0 + 1.5);
  EXPECT_DOUBLE_EQ(FindTotalForModule(blocks, "nothing"), 0.0);
}

}  // namespace
}  // namespace etbench
