#include "etbench/runtime/model_loader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "runtime_test_util.h"
#include "support/test_support.h"

namespace etbench::runtime {
namespace {

using ::testing::HasSubstr;

std::string ErrorOf(const std::string& yaml) {
  auto model = ParseModelYaml(yaml, "bad.yaml");
  EXPECT_FALSE(model.ok());
  return model.ok() ? "" : model.error().message;
}

constexpr char kHeader[] =
    "name: m\n"
    "inputs:\n"
    "  - {name: x, shape: [1, 3, 8, 8]}\n"
    "nodes:\n";

TEST(RuntimeModelLoaderTest, EveryShippedModelLoads) {
  for (const std::string& name : testing::ShippedModelNames()) {
    auto model = LoadModelFile(testing::ShippedModelPath(name));
    ASSERT_TRUE(model.ok()) << model.error().message;
    EXPECT_EQ(model->name, name);
    EXPECT_FALSE(model->nodes.empty());
    EXPECT_EQ(model->outputs.size(), 1u);
  }
}

TEST(RuntimeModelLoaderTest, ASecondDocumentIsAnErrorNotIgnored) {
  const std::string model_text = etbench::testing::ReadTextFile(
      testing::ShippedModelPath(testing::ShippedModelNames().front()));
  EXPECT_EQ(ErrorOf(model_text + "---\nname: other\n").rfind("bad.yaml:", 0), 0u);
  EXPECT_THAT(ErrorOf(model_text + "---\nname: other\n"),
              HasSubstr(": a second YAML document; a file holds one document"));
}

TEST(RuntimeModelLoaderTest, TooDeepNestingSaysSo) {
  EXPECT_THAT(ErrorOf("name: " + std::string(3000, '[') + std::string(3000, ']')),
              HasSubstr("invalid YAML: nested more than"));
}

TEST(RuntimeModelLoaderTest, InfersShapesAndAttributes) {
  const Model model = testing::LoadShippedModel("mobilenet_v2_block");
  const Node& dw = model.nodes[FindNode(model, "depthwise")];
  EXPECT_EQ(dw.op, OpType::kConv2d);
  EXPECT_EQ(dw.attrs.groups, 96);
  EXPECT_EQ(dw.attrs.pad_h, 1);
  EXPECT_FALSE(dw.attrs.bias);
  EXPECT_EQ(dw.delegate, "ref_backend");
  EXPECT_EQ(dw.output_shape, (std::vector<int64_t>{1, 96, 24, 24}));
  EXPECT_EQ(dw.location.line, 24);
  EXPECT_THAT(dw.source_line, ::testing::StartsWith("- {name: depthwise, "));
  EXPECT_EQ(dw.module, "conv.1.0");
  EXPECT_EQ(model.module_types.at("conv.1"),
            "torchvision.ops.misc.Conv2dNormActivation");
  ASSERT_EQ(model.delegates.size(), 1u);
  EXPECT_EQ(model.delegates[0].debug_ids, DelegateDebugIdKind::kInt);
}

TEST(RuntimeModelLoaderTest, PoolStrideDefaultsToKernelSize) {
  auto model = ParseModelYaml(std::string(kHeader) +
                              "  - {name: p, op: max_pool2d, inputs: [x], "
                              "kernel_size: 2}\n");
  ASSERT_TRUE(model.ok()) << model.error().message;
  EXPECT_EQ(model->nodes[0].attrs.stride_h, 2);
  EXPECT_EQ(model->nodes[0].output_shape, (std::vector<int64_t>{1, 3, 4, 4}));
}

TEST(RuntimeModelLoaderTest, UnknownOpNamesTheNodeAndPosition) {
  const std::string error =
      ErrorOf(std::string(kHeader) +
              "  - {name: c1, op: conv2d, inputs: [x], out_channels: 4, "
              "kernel_size: 3}\n"
              "  - {name: weird, op: conv3d, inputs: [c1]}\n");
  EXPECT_THAT(error, HasSubstr("bad.yaml:6:"));
  EXPECT_THAT(error, HasSubstr("node 'weird'"));
  EXPECT_THAT(error, HasSubstr("unknown op 'conv3d'"));
  EXPECT_THAT(error, HasSubstr("conv2d"));  // lists the known ops
}

TEST(RuntimeModelLoaderTest, DeclaredShapeMismatchNamesTheNode) {
  const std::string error = ErrorOf(
      std::string(kHeader) +
      "  - {name: c1, op: conv2d, inputs: [x], out_channels: 4, "
      "kernel_size: 3, shape: [1, 4, 8, 8]}\n");
  EXPECT_THAT(error, HasSubstr("bad.yaml:5:"));
  EXPECT_THAT(error, HasSubstr("node 'c1' (conv2d)"));
  EXPECT_THAT(error, HasSubstr("shape mismatch: declared [1, 4, 8, 8] but the "
                               "inputs give [1, 4, 6, 6]"));
}

TEST(RuntimeModelLoaderTest, InputShapeMismatchNamesTheNodeAndInput) {
  EXPECT_THAT(ErrorOf(std::string(kHeader) +
                      "  - {name: c1, op: conv2d, inputs: [x], in_channels: 4,"
                      " out_channels: 4, kernel_size: 3}\n"),
              HasSubstr("node 'c1' (conv2d): input 'x' has 3 channels but "
                        "in_channels is 4"));
  EXPECT_THAT(ErrorOf(std::string(kHeader) +
                      "  - {name: f, op: flatten, inputs: [x]}\n"
                      "  - {name: fc, op: linear, inputs: [f], in_features: 10,"
                      " out_features: 2}\n"),
              HasSubstr("node 'fc' (linear): input 'f' has shape [1, 192] "
                        "(last dimension 192) but in_features is 10"));
  EXPECT_THAT(ErrorOf(std::string(kHeader) +
                      "  - {name: f, op: flatten, inputs: [x]}\n"
                      "  - {name: bad, op: matmul, inputs: [f, f]}\n"),
              HasSubstr("node 'bad' (matmul): inner dimensions differ"));
  EXPECT_THAT(ErrorOf(std::string(kHeader) +
                      "  - {name: f, op: flatten, inputs: [x]}\n"
                      "  - {name: s, op: add, inputs: [x, f]}\n"),
              HasSubstr("node 's' (add): input shapes do not broadcast"));
}

TEST(RuntimeModelLoaderTest, StructuralErrorsAreClear) {
  EXPECT_THAT(ErrorOf(std::string(kHeader) +
                      "  - {name: r, op: relu, inputs: [nope]}\n"),
              HasSubstr("node 'r' (relu): input 'nope' is not a model input "
                        "or an earlier node"));
  EXPECT_THAT(ErrorOf(std::string(kHeader) +
                      "  - {name: r, op: relu, inputs: [x], stride: 2}\n"),
              HasSubstr("bad.yaml:5:"));
  EXPECT_THAT(ErrorOf(std::string(kHeader) +
                      "  - {name: r, op: relu, inputs: [x], stride: 2}\n"),
              HasSubstr("node 'r' (relu): unknown key 'stride'"));
  EXPECT_THAT(ErrorOf(std::string(kHeader) +
                      "  - {name: c, op: conv2d, inputs: [x], kernel_size: 3}\n"),
              HasSubstr("node 'c' (conv2d): missing required key "
                        "'out_channels'"));
  EXPECT_THAT(ErrorOf(std::string(kHeader) +
                      "  - {name: r, op: relu, inputs: [x]}\n"
                      "  - {name: r, op: relu, inputs: [x]}\n"),
              HasSubstr("the name 'r' is already used"));
  EXPECT_THAT(ErrorOf(std::string(kHeader) +
                      "  - {name: c, op: conv2d, inputs: [x], out_channels: "
                      "four, kernel_size: 3}\n"),
              HasSubstr("key 'out_channels' must be an integer"));
  EXPECT_THAT(ErrorOf(std::string(kHeader) +
                      "  - {name: r, op: relu, inputs: [x, x]}\n"),
              HasSubstr("takes 1 input(s), got 2"));
  EXPECT_THAT(ErrorOf("name: m\nnodes: []\n"),
              HasSubstr("missing required key 'inputs'"));
  EXPECT_THAT(ErrorOf("name: m\nbogus: 1\n"),
              HasSubstr("bad.yaml:2:1: unknown key 'bogus'"));
  EXPECT_THAT(ErrorOf("- just\n- a list\n"),
              HasSubstr("a model file must be a YAML mapping"));
}

TEST(RuntimeModelLoaderTest, HugeTensorsAreRejectedNotAllocated) {
  EXPECT_THAT(ErrorOf("name: m\ninputs: [{name: x, shape: [100000, 100000, "
                      "100000]}]\nnodes: [{name: r, op: relu, inputs: [x]}]\n"),
              HasSubstr("input 'x': sizes must be positive and at most"));
  EXPECT_THAT(ErrorOf(std::string(kHeader) +
                      "  - {name: c, op: conv2d, inputs: [x], out_channels: "
                      "1000000000, kernel_size: 3}\n"),
              HasSubstr("node 'c' (conv2d): the output"));
  EXPECT_THAT(ErrorOf(std::string(kHeader) +
                      "  - {name: c, op: conv2d, inputs: [x], out_channels: 4, "
                      "kernel_size: 3, padding: 99999999999}\n"),
              HasSubstr("key 'padding' is out of range"));
  EXPECT_THAT(ErrorOf(std::string(kHeader) +
                      "  - {name: r, op: reshape, inputs: [x], sizes: "
                      "[2147483647, 2147483647, 2147483647, -1]}\n"),
              HasSubstr("node 'r' (reshape): sizes"));
}

TEST(RuntimeModelLoaderTest, EmptyFileIsNotAModel) {
  EXPECT_THAT(ErrorOf(""), HasSubstr("a model file must be a YAML mapping"));
}

TEST(RuntimeModelLoaderTest, YamlSyntaxErrorsCarryThePosition) {
  EXPECT_THAT(ErrorOf("name: m\ninputs: [unclosed\n"),
              HasSubstr("bad.yaml:"));
  EXPECT_THAT(ErrorOf("name: m\ninputs: [unclosed\n"),
              HasSubstr("invalid YAML"));
}

TEST(RuntimeModelLoaderTest, DelegatePartitionErrors) {
  const std::string delegates = "delegates: [{name: d}]\n";
  EXPECT_THAT(ErrorOf(std::string(kHeader) +
                      "  - {name: r, op: relu, inputs: [x], delegate: nope}\n"),
              HasSubstr("delegate 'nope' is not declared"));
  EXPECT_THAT(
      ErrorOf(delegates + kHeader +
              "  - {name: a, op: relu, inputs: [x], delegate: d}\n"
              "  - {name: b, op: relu, inputs: [a]}\n"
              "  - {name: c, op: relu, inputs: [b], delegate: d}\n"),
      HasSubstr("node 'c' (relu): delegate partition 'd' is not contiguous"));
  EXPECT_THAT(ErrorOf(delegates + kHeader +
                      "  - {name: a, op: relu, inputs: [x]}\n"),
              HasSubstr("delegate 'd' has no nodes"));
  EXPECT_THAT(ErrorOf("delegates: [{name: d, debug_ids: float}]\n" +
                      std::string(kHeader) +
                      "  - {name: a, op: relu, inputs: [x], delegate: d}\n"),
              HasSubstr("debug_ids must be one of int, str, not 'float'"));
}

TEST(RuntimeModelLoaderTest, ModuleDefaultsToTheNodeName) {
  auto model = ParseModelYaml(
      std::string(kHeader) +
      "  - {name: r, op: relu, inputs: [x]}\n"
      "  - {name: s, op: relu, inputs: [r], module: blocks.0.act,"
      " module_type: torch.nn.modules.activation.ReLU}\n"
      "  - {name: t, op: add, inputs: [s, x], module: ''}\n");
  ASSERT_TRUE(model.ok()) << model.error().message;
  EXPECT_EQ(model->nodes[0].module, "r");
  EXPECT_EQ(model->nodes[0].module_type, "");
  EXPECT_EQ(model->nodes[1].module, "blocks.0.act");
  EXPECT_EQ(model->nodes[1].module_type, "torch.nn.modules.activation.ReLU");
  EXPECT_EQ(model->nodes[2].module, "");
  EXPECT_EQ(model->nodes[2].source_line,
            "- {name: t, op: add, inputs: [s, x], module: ''}");
}

TEST(RuntimeModelLoaderTest, BadModuleValuesNameTheNodeAndPosition) {
  const std::string relu = "  - {name: r, op: relu, inputs: [x], ";
  struct Case {
    std::string node_keys;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"module: features..conv1}",
       "bad.yaml:5:46: node 'r' (relu): key 'module': 'features..conv1' is "
       "not a dotted module path"},
      {"module: .conv1}", "key 'module': '.conv1' is not a dotted"},
      {"module: 'a b'}", "key 'module': 'a b' is not a dotted"},
      {"module: 'a,b'}", "key 'module': 'a,b' is not a dotted"},
      {"module: [a, b]}", "bad.yaml:5:46: node 'r' (relu): key 'module' must "
                          "be a string"},
      {"module_type: 'torch.nn.ReLU;x'}",
       "bad.yaml:5:51: node 'r' (relu): key 'module_type': "
       "'torch.nn.ReLU;x' is not a Python class path"},
      {"module_type: torch.nn.0ReLU}", "is not a Python class path"},
      {"module: '', module_type: torch.nn.ReLU}",
       "node 'r' (relu): key 'module_type': the node is in the root module"},
  };
  for (const Case& c : cases) {
    EXPECT_THAT(ErrorOf(std::string(kHeader) + relu + c.node_keys + "\n"),
                HasSubstr(c.message))
        << c.node_keys;
  }
}

TEST(RuntimeModelLoaderTest, AModuleHasOneType) {
  EXPECT_THAT(
      ErrorOf(std::string(kHeader) +
              "  - {name: a, op: relu, inputs: [x], module: m, module_type: "
              "my.A}\n"
              "  - {name: b, op: relu, inputs: [a], module: m, module_type: "
              "my.B}\n"),
      HasSubstr("bad.yaml:6:62: node 'b' (relu): key 'module_type': module "
                "'m' is already declared as 'my.A' (by node 'a', line 5)"));
  EXPECT_THAT(
      ErrorOf("module_types: {m: my.A}\n" + std::string(kHeader) +
              "  - {name: b, op: relu, inputs: [x], module: m, module_type: "
              "my.B}\n"),
      HasSubstr("already declared as 'my.A' (under 'module_types', line 1)"));
  // The same type twice is fine.
  EXPECT_TRUE(ParseModelYaml(std::string(kHeader) +
                             "  - {name: a, op: relu, inputs: [x], module: m, "
                             "module_type: my.A}\n"
                             "  - {name: b, op: relu, inputs: [a], module: m, "
                             "module_type: my.A}\n")
                  .ok());
}

TEST(RuntimeModelLoaderTest, ModuleTypesMustBeUsedAndWellFormed) {
  const std::string node =
      "  - {name: a, op: relu, inputs: [x], module: body.act}\n";
  auto model = ParseModelYaml("module_types: {body: my.Body}\n" +
                              std::string(kHeader) + node);
  ASSERT_TRUE(model.ok()) << model.error().message;
  EXPECT_EQ(model->module_types.at("body"), "my.Body");
  EXPECT_THAT(ErrorOf("module_types: {bod: my.Body}\n" +
                      std::string(kHeader) + node),
              HasSubstr("bad.yaml:1:16: module_types: 'bod' is not the module "
                        "of any node, nor a parent of one"));
  EXPECT_THAT(ErrorOf("module_types: {'body.': my.Body}\n" +
                      std::string(kHeader) + node),
              HasSubstr("module_types: 'body.': not a dotted module path"));
  EXPECT_THAT(ErrorOf("module_types: {body: 'my Body'}\n" +
                      std::string(kHeader) + node),
              HasSubstr("bad.yaml:1:22: module_types: 'body': 'my Body' is "
                        "not a Python class path"));
  EXPECT_THAT(ErrorOf("module_types: [body]\n" + std::string(kHeader) + node),
              HasSubstr("'module_types' must be a mapping"));
}

TEST(RuntimeModelLoaderTest, ModelSlowdownsAreValidated) {
  auto model = ParseModelYaml(std::string(kHeader) +
                              "  - {name: r, op: relu, inputs: [x]}\n"
                              "slowdown: {op: relu, factor: 1.10}\n");
  ASSERT_TRUE(model.ok()) << model.error().message;
  ASSERT_EQ(model->slowdowns.size(), 1u);
  EXPECT_EQ(model->slowdowns[0].target, "relu");
  EXPECT_DOUBLE_EQ(model->slowdowns[0].factor, 1.10);
  EXPECT_THAT(ErrorOf(std::string(kHeader) +
                      "  - {name: r, op: relu, inputs: [x]}\n"
                      "slowdown: [{op: conv2d, factor: 1.1}]\n"),
              HasSubstr("slowdown 'conv2d' matches no node, op or kernel"));
  EXPECT_THAT(ErrorOf(std::string(kHeader) +
                      "  - {name: r, op: relu, inputs: [x]}\n"
                      "slowdown: [{op: relu, factor: 0.5}]\n"),
              HasSubstr("must be between 1 and 1000"));
}

TEST(RuntimeModelLoaderTest, SlowdownFlagParsing) {
  auto ok = ParseSlowdownFlag("conv2d=1.10");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->target, "conv2d");
  EXPECT_DOUBLE_EQ(ok->factor, 1.10);
  EXPECT_FALSE(ParseSlowdownFlag("conv2d").ok());
  EXPECT_FALSE(ParseSlowdownFlag("=2").ok());
  EXPECT_FALSE(ParseSlowdownFlag("conv2d=").ok());
  EXPECT_THAT(ParseSlowdownFlag("conv2d=fast").error().message,
              HasSubstr("factor 'fast' is not a number"));
  // The whole factor or nothing; no infinities, NaN or hexadecimal.
  for (const char* bad : {"conv2d=1.1x", "conv2d= 1.1", "conv2d=nan", "conv2d=inf",
                          "conv2d=0x1p1"}) {
    EXPECT_FALSE(ParseSlowdownFlag(bad).ok()) << bad;
  }
}

TEST(RuntimeModelLoaderTest, MissingFileIsAnIoError) {
  auto model = LoadModelFile("/nonexistent/model.yaml");
  ASSERT_FALSE(model.ok());
  EXPECT_EQ(model.error().code, ErrorCode::kIo);
  EXPECT_THAT(model.error().message, HasSubstr("/nonexistent/model.yaml"));
}

TEST(RuntimeModelLoaderTest, LoadsFromAFileWithItsPathInErrors) {
  etbench::testing::TempDir dir;
  etbench::testing::WriteTextFile(dir.File("m.yaml"),
                                  std::string(kHeader) +
                                      "  - {name: z, op: zap, inputs: [x]}\n");
  auto model = LoadModelFile(dir.File("m.yaml"));
  ASSERT_FALSE(model.ok());
  EXPECT_THAT(model.error().message, HasSubstr(dir.File("m.yaml") + ":5:"));
}

}  // namespace
}  // namespace etbench::runtime
