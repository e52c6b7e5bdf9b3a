// torch.export JSON -> OperatorGraph, old and new styles, and its errors.

#include <gtest/gtest.h>

#include "etbench/inspector/etrecord_graph.h"
#include "inspector/etrecord/etrecord_test_util.h"

namespace etbench {
namespace {

using testing::ProgramJson;

TEST(EtrecordGraphTest, NewStyleArgumentsExplicitNamesAndGeneratedNames) {
  const std::string json = ProgramJson(R"([
    {"name": "aten_convolution_default",
     "target": "executorch.exir.dialects.edge.ops.aten.convolution.default",
     "inputs": [{"name": "input", "arg": {"as_tensor": {"name": "x"}}},
                {"name": "weight", "arg": {"as_tensor": {"name": "w"}}},
                {"name": "stride", "arg": {"as_ints": [1, 1]}}],
     "outputs": [{"as_tensor": {"name": "aten_convolution_default"}}],
     "metadata": {"debug_handle": "1",
                  "nn_module_stack": "L__self___conv,conv,torch.nn.modules.conv.Conv2d",
                  "source_fn_stack": "conv,torch.nn.modules.conv.Conv2d"}},
    {"target": "torch.ops.higher_order.executorch_call_delegate",
     "inputs": [{"name": "lowered_module_0", "arg": {"as_string": "{...}"}},
                {"name": "delegate_arg_0",
                 "arg": {"as_tensor": {"name": "aten_convolution_default"}}}],
     "outputs": [{"as_tensor": {"name": "a"}}, {"as_tensor": {"name": "b"}}],
     "metadata": {"debug_handle": "2"}},
    {"target": "_operator.getitem",
     "inputs": [],
     "outputs": [{"as_tensor": {"name": "getitem"}}],
     "metadata": {"debug_handle": "3"}}
  ])");
  auto graph = ParseOperatorGraph(json, "prog");
  ASSERT_TRUE(graph.ok()) << graph.error().message;
  ASSERT_EQ(graph->nodes.size(), 3u);
  EXPECT_EQ(graph->inputs, std::vector<std::string>{"x"});
  EXPECT_EQ(graph->outputs, std::vector<std::string>{"n0"});

  const GraphNode& conv = graph->nodes[0];
  EXPECT_EQ(conv.name, "aten_convolution_default");
  EXPECT_EQ(conv.op_type, "aten.convolution.default");
  EXPECT_EQ(conv.inputs, (std::vector<std::string>{"x", "w"}));
  ASSERT_EQ(conv.module_stack.size(), 1u);
  EXPECT_EQ(conv.module_stack[0].path, "conv");
  ASSERT_EQ(conv.source_fn_stack.size(), 1u);
  EXPECT_EQ(conv.source_fn_stack[0].name, "conv");

  // Two outputs and no "name": FX-style generated name.
  EXPECT_EQ(graph->nodes[1].name, "executorch_call_delegate");
  EXPECT_EQ(graph->nodes[1].inputs,
            std::vector<std::string>{"aten_convolution_default"});

  // getitem is bookkeeping: listed, but never linked to events.
  EXPECT_FALSE(graph->nodes[2].is_operator);
  EXPECT_EQ(graph->nodes_by_handle.count(3), 0u);
  EXPECT_EQ(graph->nodes_by_handle.at(1), std::vector<std::size_t>{0});
  EXPECT_TRUE(graph->warnings.empty());
}

TEST(EtrecordGraphTest, NodesMayShareAHandleAndHoldSeveral) {
  const std::string json = ProgramJson(R"json([
    {"target": "t.a", "outputs": [{"as_tensor": {"name": "a"}}],
     "metadata": {"debug_handle": "(4, 5)"}},
    {"target": "t.b", "outputs": [{"as_tensor": {"name": "b"}}],
     "metadata": {"debug_handle": "5"}},
    {"target": "t.c", "outputs": [{"as_tensor": {"name": "c"}}],
     "metadata": {"debug_handle": 6}}
  ])json");
  auto graph = ParseOperatorGraph(json, "prog");
  ASSERT_TRUE(graph.ok()) << graph.error().message;
  EXPECT_EQ(graph->nodes_by_handle.at(4), std::vector<std::size_t>{0});
  EXPECT_EQ(graph->nodes_by_handle.at(5), (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(graph->nodes_by_handle.at(6), std::vector<std::size_t>{2});
}

TEST(EtrecordGraphTest, UnparseableCosmeticMetadataIsAWarning) {
  const std::string json = ProgramJson(R"([
    {"target": "t.a", "outputs": [{"as_tensor": {"name": "a"}}],
     "metadata": {"debug_handle": "1", "nn_module_stack": "only,two",
                  "source_fn_stack": "x"}}
  ])");
  auto graph = ParseOperatorGraph(json, "prog");
  ASSERT_TRUE(graph.ok()) << graph.error().message;
  EXPECT_TRUE(graph->nodes[0].module_stack.empty());
  ASSERT_EQ(graph->warnings.size(), 2u);
  EXPECT_NE(graph->warnings[0].find(
                "graph_module.graph.nodes[0].metadata.nn_module_stack"),
            std::string::npos)
      << graph->warnings[0];
}

struct BadProgram {
  const char* json;
  const char* expected;  // part of the message
};

TEST(EtrecordGraphTest, WrongTypesNameTheJsonPath) {
  const BadProgram cases[] = {
      {"[]", "(root): expected an object, got array"},
      {R"({"graph_module": {}})", "graph_module.graph: missing"},
      {R"({"graph_module": {"graph": {"nodes": {}}}})",
       "graph_module.graph.nodes: expected an array, got object"},
      {R"({"graph_module": {"graph": {"nodes": [{"target": 3}]}}})",
       "graph_module.graph.nodes[0].target: expected a string, got number"},
      {R"({"graph_module": {"graph": {"nodes": [{"inputs": []}]}}})",
       "graph_module.graph.nodes[0].target: missing"},
      {R"({"graph_module": {"graph": {"nodes": [{"target": "a",
           "metadata": []}]}}})",
       "graph_module.graph.nodes[0].metadata: expected an object, got array"},
      {R"({"graph_module": {"graph": {"nodes": [{"target": "a",
           "metadata": {"debug_handle": "seven"}}]}}})",
       "graph_module.graph.nodes[0].metadata.debug_handle: expected an "
       "integer or a tuple of integers, got 'seven'"},
      {R"({"graph_module": {"graph": {"nodes": [{"target": "a",
           "metadata": {"stack_trace": 5}}]}}})",
       "graph_module.graph.nodes[0].metadata.stack_trace: expected a string"},
      {R"({"graph_module": {"graph": {"nodes": [{"target": "a",
           "metadata": {"debug_handle": 1.5}}]}}})",
       "metadata.debug_handle: expected an integer, got number"},
  };
  for (const BadProgram& c : cases) {
    auto graph = ParseOperatorGraph(c.json, "prog");
    ASSERT_FALSE(graph.ok()) << c.json;
    EXPECT_NE(graph.error().message.find("entry 'prog': "), std::string::npos)
        << graph.error().message;
    EXPECT_NE(graph.error().message.find(c.expected), std::string::npos)
        << graph.error().message;
  }
}

TEST(EtrecordGraphTest, MalformedJsonSaysWhere) {
  auto graph = ParseOperatorGraph("{\"graph_module\": ", "prog");
  ASSERT_FALSE(graph.ok());
  EXPECT_NE(graph.error().message.find("entry 'prog': malformed JSON: parse "
                                       "error at line 1"),
            std::string::npos)
      << graph.error().message;
}

}  // namespace
}  // namespace etbench
