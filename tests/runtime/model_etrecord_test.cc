// The ETRecord of built-in models: every event of a real run links to the
// right graph nodes, op types, YAML lines and module paths.

#include "etbench/runtime/model_etrecord.h"

#include <map>
#include <set>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "etbench/inspector/etdump_file.h"
#include "etbench/inspector/etrecord.h"
#include "etbench/inspector/etrecord_symbolicate.h"
#include "etbench/inspector/inspector.h"
#include "etbench/runtime/model_loader.h"
#include "model/op_schema.h"
#include "runtime_test_util.h"
#include "support/test_support.h"

namespace etbench::runtime {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAreArray;

// A run of `model` written to disk with its ETRecord, read back and
// symbolicated as `etbench inspect --etrecord_path` does.
struct Symbolicated {
  Etrecord etrecord;
  std::vector<EventBlock> blocks;
  std::vector<std::string> warnings;
};

Symbolicated RunAndSymbolicate(const Model& model, int executions = 3) {
  etbench::testing::TempDir dir;
  RunOptions options;
  options.num_executions = executions;
  const RunOutput run = testing::RunOrFail(model, options);
  const std::string etdump_path = dir.File("run.etdp");
  const std::string etrecord_path = dir.File("run.etrecord");
  etbench::testing::WriteBinaryFile(etdump_path, run.etdump);
  auto status = WriteModelEtrecord(model, etrecord_path);
  EXPECT_TRUE(status.ok()) << status.error().message;

  Symbolicated result;
  auto etrecord = LoadEtrecord(etrecord_path);
  EXPECT_TRUE(etrecord.ok()) << etrecord.error().message;
  if (!etrecord.ok()) return result;
  result.etrecord = std::move(etrecord).value();
  auto file =
      EtdumpFile::FromBytes(etbench::testing::ReadBinaryFile(etdump_path));
  EXPECT_TRUE(file.ok()) << file.error().message;
  if (!file.ok()) return result;
  auto blocks = BuildEventBlocks(*file, InspectorOptions{});
  EXPECT_TRUE(blocks.ok()) << blocks.error().message;
  if (!blocks.ok()) return result;
  result.blocks = std::move(blocks).value();
  result.warnings = Symbolicate(result.etrecord, result.blocks);
  return result;
}

// What an instruction should run, derived from the model alone (the lowering
// table of the README): a portable node's kernels in order, one
// DELEGATE_CALL per partition.
struct ExpectedInstruction {
  const Node* node = nullptr;  // the (first) node
  std::string kernel;          // "" for a DELEGATE_CALL
};

std::vector<ExpectedInstruction> ExpectedInstructions(const Model& model) {
  std::vector<ExpectedInstruction> expected;
  std::set<std::string> partitions_seen;
  for (const Node& node : model.nodes) {
    if (!node.delegate.empty()) {
      if (partitions_seen.insert(node.delegate).second) {
        expected.push_back({&node, ""});
      }
      continue;
    }
    for (const std::string& kernel : KernelNames(node)) {
      expected.push_back({&node, kernel});
    }
  }
  return expected;
}

// "convolution.out" -> "aten.convolution.default"; add/mul keep the Tensor
// overload, as an edge program shows them.
std::string EdgeOpOfKernel(const std::string& kernel) {
  const std::string base = kernel.substr(0, kernel.find('.'));
  return "aten." + base +
         (base == "add" || base == "mul" ? ".Tensor" : ".default");
}

std::vector<std::string> ModulesOf(const Node& node) {
  if (node.module.empty()) return {};
  return {node.module};
}

// Per shipped model with a delegate: delegate debug id -> expected op types
// and module paths of the delegated event.
struct ExpectedDelegated {
  std::vector<std::string> op_types;
  std::vector<std::string> modules;
};

const std::map<std::string, std::map<std::string, ExpectedDelegated>>&
DelegatedExpectations() {
  static const std::map<std::string, std::map<std::string, ExpectedDelegated>>
      expectations = {
          {"mobilenet_v2_block",
           {{"0",
             {{"aten.convolution.default", "aten.hardtanh.default"},
              {"conv.1.0", "conv.1.2"}}},
            {"1", {{"aten.convolution.default"}, {"conv.2"}}}}},
          {"transformer_block",
           {{"ff1+ff_gelu",
             {{"aten.linear.default", "aten.gelu.default"},
              {"mlp.fc1", "mlp.act"}}},
            {"ff2", {{"aten.linear.default"}, {"mlp.fc2"}}}}},
      };
  return expectations;
}

void CheckEveryEventIsLinked(const std::string& name) {
  SCOPED_TRACE(name);
  const Model model = testing::LoadShippedModel(name);
  const Symbolicated s = RunAndSymbolicate(model);
  EXPECT_THAT(s.etrecord.warnings, IsEmpty());
  EXPECT_THAT(s.warnings, IsEmpty());
  const std::vector<ExpectedInstruction> expected = ExpectedInstructions(model);
  const auto delegated = DelegatedExpectations().find(name);
  int execute_blocks = 0;
  for (const EventBlock& block : s.blocks) {
    if (block.name != "Execute") continue;
    ++execute_blocks;  // the three runs merge into one block
    std::set<std::string> delegated_seen;
    for (const Event& event : block.events) {
      SCOPED_TRACE(event.name);
      if (IsEndToEnd(event.role)) {
        EXPECT_THAT(event.op_types, IsEmpty());
        continue;
      }
      ASSERT_TRUE(event.instruction_id.has_value());
      const auto id = static_cast<std::size_t>(*event.instruction_id);
      ASSERT_LT(id, expected.size());
      const ExpectedInstruction& instruction = expected[id];
      if (event.is_delegated_op) {
        ASSERT_NE(delegated, DelegatedExpectations().end());
        const std::string debug_id =
            DelegateDebugIdToString(event.delegate_debug_identifier);
        const auto it = delegated->second.find(debug_id);
        ASSERT_NE(it, delegated->second.end()) << debug_id;
        delegated_seen.insert(debug_id);
        EXPECT_EQ(event.op_types, it->second.op_types);
        EXPECT_THAT(EventModulePaths(event),
                    UnorderedElementsAreArray(it->second.modules));
        EXPECT_EQ(event.delegate_backend_name, "reference");
        EXPECT_EQ(event.stack_traces.size(), it->second.op_types.size());
        continue;
      }
      if (event.name == "DELEGATE_CALL") {
        EXPECT_EQ(instruction.kernel, "");
        EXPECT_THAT(event.op_types, ElementsAre("executorch_call_delegate"));
        EXPECT_EQ(event.delegate_backend_name, "reference");
        EXPECT_THAT(EventModulePaths(event), IsEmpty());
        continue;
      }
      // native_call_* and its OPERATOR_CALL.
      if (event.name != "OPERATOR_CALL") {
        EXPECT_EQ(event.name, "native_call_" + instruction.kernel);
      }
      EXPECT_THAT(event.op_types,
                  ElementsAre(EdgeOpOfKernel(instruction.kernel)));
      EXPECT_FALSE(event.delegate_backend_name.has_value());
      EXPECT_EQ(EventModulePaths(event), ModulesOf(*instruction.node));
      ASSERT_EQ(event.stack_traces.size(), 1u);
      const std::string& trace = event.stack_traces.begin()->second;
      EXPECT_THAT(trace, HasSubstr("File \"" + model.source_path + "\", line " +
                                   std::to_string(
                                       instruction.node->location.line) +
                                   ", in " + instruction.node->name + "\n"));
      EXPECT_THAT(trace, HasSubstr("    - {name: " + instruction.node->name));
    }
    if (delegated != DelegatedExpectations().end()) {
      EXPECT_EQ(delegated_seen.size(), delegated->second.size());
    }
  }
  EXPECT_EQ(execute_blocks, 1);
}

TEST(RuntimeModelEtrecordTest, EveryEventOfToyCnnIsLinked) {
  CheckEveryEventIsLinked("toy_cnn");
}

TEST(RuntimeModelEtrecordTest, EveryEventOfMlpIsLinked) {
  CheckEveryEventIsLinked("mlp");
}

TEST(RuntimeModelEtrecordTest, EveryEventOfMobilenetBlockIsLinked) {
  CheckEveryEventIsLinked("mobilenet_v2_block");
}

TEST(RuntimeModelEtrecordTest, EveryEventOfTransformerBlockIsLinked) {
  CheckEveryEventIsLinked("transformer_block");
}

TEST(RuntimeModelEtrecordTest, ShippedModelsCoverEveryEventWithAModule) {
  // Only the root-level residual adds and DELEGATE_CALLs lack a module.
  for (const std::string& name : testing::ShippedModelNames()) {
    SCOPED_TRACE(name);
    const Model model = testing::LoadShippedModel(name);
    for (const Node& node : model.nodes) {
      if (node.op != OpType::kAdd) {
        EXPECT_NE(node.module, "") << node.name;
      }
    }
  }
}

// Σ avg of the Events (OPERATOR_CALL excluded) with a module path equal to
// `module` or under it, and how many there are.
std::pair<double, int> HandSum(const std::vector<EventBlock>& blocks,
                               const std::string& module) {
  double sum = 0;
  int count = 0;
  for (const EventBlock& block : blocks) {
    for (const Event& event : block.events) {
      if (event.name == "OPERATOR_CALL" || !event.perf_data) continue;
      bool inside = false;
      for (const std::string& path : EventModulePaths(event)) {
        inside |= path == module || path.rfind(module + ".", 0) == 0;
      }
      if (inside) {
        sum += event.perf_data->avg;
        ++count;
      }
    }
  }
  return {sum, count};
}

TEST(RuntimeModelEtrecordTest, ModuleTotalsAreTheSumOfTheirEvents) {
  struct Case {
    std::string model;
    std::string module;  // a dotted path; FindTotalForModule takes its key
    int events;          // per Execute block's worth of events, summed once
  };
  const std::vector<Case> cases = {
      {"toy_cnn", "features", 6},   {"toy_cnn", "classifier", 8},
      {"toy_cnn", "classifier.fc1", 2},
      {"mlp", "layers", 11},        {"mlp", "layers.6", 2},
      {"mobilenet_v2_block", "conv.1", 1},
      {"mobilenet_v2_block", "conv", 4},
      {"transformer_block", "attn", 13},
      {"transformer_block", "mlp", 2},
  };
  std::map<std::string, Symbolicated> runs;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.model + " " + c.module);
    if (runs.count(c.model) == 0) {
      runs[c.model] = RunAndSymbolicate(testing::LoadShippedModel(c.model));
    }
    const std::vector<EventBlock>& blocks = runs[c.model].blocks;
    std::string key = c.module;
    for (char& ch : key) ch = ch == '.' ? '_' : ch;
    const auto [sum, count] = HandSum(blocks, c.module);
    EXPECT_EQ(count, c.events);
    EXPECT_GT(sum, 0);
    EXPECT_NEAR(FindTotalForModule(blocks, "L__self___" + key), sum,
                1e-9 * sum);
  }
}

TEST(RuntimeModelEtrecordTest, DebugHandlesAreOneBasedInGraphOrder) {
  const Model model = testing::LoadShippedModel("transformer_block");
  auto spec = BuildModelEtrecord(model);
  ASSERT_TRUE(spec.ok()) << spec.error().message;
  ASSERT_EQ(spec->nodes.size(), 21u);  // 16 nodes, 4 portable linears, a call
  for (std::size_t i = 0; i < spec->nodes.size(); ++i) {
    EXPECT_THAT(spec->nodes[i].debug_handles,
                ElementsAre(static_cast<int64_t>(i + 1)));
  }
  EXPECT_EQ(spec->nodes[1].name, "q_permute_copy");
  EXPECT_EQ(spec->nodes[1].target,
            "executorch.exir.dialects.edge.ops.aten.permute_copy.default");
  EXPECT_EQ(spec->nodes[2].name, "q");
  EXPECT_EQ(spec->nodes[19].name, "executorch_call_delegate");
  EXPECT_EQ(spec->nodes[19].target,
            "torch.ops.higher_order.executorch_call_delegate");
  EXPECT_EQ(spec->debug_handle_map.size(), 18u);
  EXPECT_THAT(spec->debug_handle_map.at(16), ElementsAre(20));
  ASSERT_EQ(spec->delegate_map.count(16), 1u);
  const EtrecordDelegateSpec& delegate = spec->delegate_map.at(16);
  EXPECT_EQ(delegate.backend_name, "reference");
  ASSERT_EQ(delegate.handles_by_id.size(), 2u);
  EXPECT_EQ(std::get<std::string>(delegate.handles_by_id[0].first),
            "ff1+ff_gelu");
  EXPECT_THAT(delegate.handles_by_id[0].second, ElementsAre(17, 18));
}

TEST(RuntimeModelEtrecordTest, EqualModelsGiveIdenticalBytes) {
  const Model model = testing::LoadShippedModel("mobilenet_v2_block");
  auto a = BuildModelEtrecord(model);
  auto b = BuildModelEtrecord(testing::LoadShippedModel("mobilenet_v2_block"));
  ASSERT_TRUE(a.ok() && b.ok());
  auto bytes_a = SerializeEtrecord(*a);
  auto bytes_b = SerializeEtrecord(*b);
  ASSERT_TRUE(bytes_a.ok() && bytes_b.ok());
  EXPECT_EQ(*bytes_a, *bytes_b);
}

Model Parse(const std::string& text) {
  auto model = ParseModelYaml(text, "m.yaml");
  EXPECT_TRUE(model.ok()) << model.error().message;
  return model.ok() ? *model : Model{};
}

TEST(RuntimeModelEtrecordTest, ModulesDefaultToTheNodeNameWithTheOpsClass) {
  const Model model = Parse(R"(
name: m
inputs: [{name: x, shape: [2, 8]}]
nodes:
  - {name: fc, op: linear, inputs: [x], out_features: 8}
  - {name: act, op: gelu, inputs: [fc]}
  - {name: sum, op: add, inputs: [x, act]}
)");
  ASSERT_EQ(model.nodes.size(), 3u);
  const std::vector<ModuleFrame> fc = NodeModuleFrames(model, 0);
  ASSERT_EQ(fc.size(), 1u);
  EXPECT_EQ(fc[0].key, "L__self___fc");
  EXPECT_EQ(fc[0].path, "fc");
  EXPECT_EQ(fc[0].module_type, "torch.nn.modules.linear.Linear");
  EXPECT_EQ(NodeModuleFrames(model, 1)[0].module_type,
            "torch.nn.modules.activation.GELU");
  // add is a plain function in PyTorch: a generic module.
  EXPECT_EQ(NodeModuleFrames(model, 2)[0].module_type,
            "torch.nn.modules.module.Module");
  const Symbolicated s = RunAndSymbolicate(model, 1);
  EXPECT_THAT(s.warnings, IsEmpty());
  EXPECT_NEAR(FindTotalForModule(s.blocks, "L__self___fc"),
              HandSum(s.blocks, "fc").first, 1e-12);
}

TEST(RuntimeModelEtrecordTest, ModuleTypesComeFromTheYamlThenTheOps) {
  const Model model = Parse(R"(
name: m
inputs: [{name: x, shape: [1, 4, 8, 8]}]
module_types: {body: torch.nn.modules.container.Sequential}
nodes:
  - {name: c, op: conv2d, inputs: [x], out_channels: 4, kernel_size: 1, module: body.block.conv}
  - {name: r, op: relu, inputs: [c], module: body.block, module_type: my.Block}
  - {name: s, op: softmax, inputs: [r], module: body.block.sm}
  - {name: m1, op: mul, inputs: [s], scalar: 2.0, module: head}
  - {name: m2, op: relu, inputs: [m1], module: head}
  - {name: out, op: add, inputs: [m2, x], module: ''}
)");
  const std::vector<ModuleFrame> conv = NodeModuleFrames(model, 0);
  ASSERT_EQ(conv.size(), 3u);
  EXPECT_EQ(conv[0].module_type, "torch.nn.modules.container.Sequential");
  EXPECT_EQ(conv[1].key, "L__self___body_block");
  EXPECT_EQ(conv[1].module_type, "my.Block");
  EXPECT_EQ(conv[2].module_type, "torch.nn.modules.conv.Conv2d");
  // Nodes of one module whose ops disagree: a generic module.
  EXPECT_EQ(ModuleTypeOf(model, "head"), "torch.nn.modules.module.Module");
  EXPECT_THAT(NodeModuleFrames(model, 5), IsEmpty());
  const Symbolicated s = RunAndSymbolicate(model, 1);
  EXPECT_THAT(s.warnings, IsEmpty());
}

TEST(RuntimeModelEtrecordTest, IntIdsViewsAndFusionInsideAPartition) {
  // A partition with a linear + relu (fused), a view (no op) and a softmax;
  // int ids count the delegate's ops, not the nodes.
  const Model model = Parse(R"(
name: m
inputs: [{name: x, shape: [2, 3, 4]}]
delegates: [{name: npu, debug_ids: int, timestamps: back_to_back}]
nodes:
  - {name: fc, op: linear, inputs: [x], out_features: 6, delegate: npu, module: enc.fc}
  - {name: act, op: relu, inputs: [fc], delegate: npu, module: enc.act}
  - {name: flat, op: reshape, inputs: [act], sizes: [6, 6], delegate: npu, module: enc}
  - {name: sm, op: softmax, inputs: [flat], delegate: npu, module: enc.sm}
  - {name: fc2, op: linear, inputs: [sm], out_features: 2, bias: false, module: head}
)");
  auto spec = BuildModelEtrecord(model);
  ASSERT_TRUE(spec.ok()) << spec.error().message;
  ASSERT_EQ(spec->delegate_map.count(0), 1u);
  const auto& ids = spec->delegate_map.at(0).handles_by_id;
  ASSERT_EQ(ids.size(), 2u);
  EXPECT_EQ(std::get<int32_t>(ids[0].first), 0);
  EXPECT_THAT(ids[0].second, ElementsAre(1, 2));  // fc + act
  EXPECT_EQ(std::get<int32_t>(ids[1].first), 1);
  EXPECT_THAT(ids[1].second, ElementsAre(4));  // sm (flat is handle 3)
  EXPECT_EQ(spec->nodes[2].target,
            "executorch.exir.dialects.edge.ops.aten.view_copy.default");

  const Symbolicated s = RunAndSymbolicate(model, 2);
  EXPECT_THAT(s.warnings, IsEmpty());
  bool saw_mm = false;
  for (const Event& event : s.blocks.back().events) {
    if (event.name == "0") {
      EXPECT_THAT(event.op_types,
                  ElementsAre("aten.linear.default", "aten.relu.default"));
    }
    if (event.name == "1") {
      EXPECT_THAT(event.op_types, ElementsAre("aten._softmax.default"));
      EXPECT_THAT(EventModulePaths(event), ElementsAre("enc.sm"));
    }
    if (event.name == "native_call_mm.out") {
      saw_mm = true;
      EXPECT_THAT(event.op_types, ElementsAre("aten.mm.default"));
      EXPECT_THAT(EventModulePaths(event), ElementsAre("head"));
    }
  }
  EXPECT_TRUE(saw_mm);
}

TEST(RuntimeModelEtrecordTest, WriteNamesThePathOnFailure) {
  const Model model = testing::LoadShippedModel("toy_cnn");
  etbench::testing::TempDir dir;
  const std::string path = dir.File("missing_dir/x.etrecord");
  auto status = WriteModelEtrecord(model, path);
  ASSERT_FALSE(status.ok());
  EXPECT_THAT(status.error().message, HasSubstr(path));
}

}  // namespace
}  // namespace etbench::runtime
