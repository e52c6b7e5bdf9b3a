// Lowering: models to instructions, as ExecuTorch's emitter would.

#include "exec/program.h"

#include <gtest/gtest.h>

#include "etbench/runtime/model_loader.h"
#include "runtime_test_util.h"

namespace etbench::runtime {
namespace {

using testing::LoadShippedModel;

std::vector<std::string> EventNames(const Program& program) {
  std::vector<std::string> names;
  for (const Instruction& instruction : program.instructions) {
    names.push_back(instruction.event_name);
  }
  return names;
}

std::vector<double> Factors(const Program& program) {
  std::vector<double> factors;
  for (const Instruction& instruction : program.instructions) {
    factors.push_back(instruction.slowdown);
  }
  return factors;
}

TEST(RuntimeProgramTest, ToyCnnLowersLikeTheTutorialModel) {
  const Program program = LowerModel(LoadShippedModel("toy_cnn"), {});
  const std::vector<std::string> expected = {
      "native_call_convolution.out", "native_call_relu.out",
      "native_call_max_pool2d_with_indices.out", "native_call_convolution.out",
      "native_call_relu.out", "native_call_max_pool2d_with_indices.out",
      "native_call_permute_copy.out", "native_call_addmm.out",
      "native_call_relu.out", "native_call_permute_copy.out",
      "native_call_addmm.out", "native_call_relu.out",
      "native_call_permute_copy.out", "native_call_addmm.out"};
  EXPECT_EQ(EventNames(program), expected);
}

TEST(RuntimeProgramTest, ViewsAliasTheirSourceAndCostNoInstruction) {
  const Program program = LowerModel(LoadShippedModel("toy_cnn"), {});
  const int flat = program.lowering[FindNode(program.model, "flat")].output;
  const int pool2 = program.lowering[FindNode(program.model, "pool2")].output;
  EXPECT_EQ(program.values[flat].kind, ValueKind::kView);
  EXPECT_EQ(program.values[flat].alias_of, pool2);
  EXPECT_EQ(program.values[flat].shape, (std::vector<int64_t>{1, 800}));
}

TEST(RuntimeProgramTest, SlowdownByOpTypeAppliesToEveryKernelOfTheOp) {
  const Model model = LoadShippedModel("toy_cnn");
  const Program program = LowerModel(model, {{"linear", 1.5}});
  EXPECT_EQ(Factors(program),
            (std::vector<double>{1, 1, 1, 1, 1, 1, 1.5, 1.5, 1, 1.5, 1.5, 1,
                                 1.5, 1.5}));
}

TEST(RuntimeProgramTest, SlowdownByKernelOrNodeNameIsSelective) {
  const Model model = LoadShippedModel("toy_cnn");
  EXPECT_EQ(Factors(LowerModel(model, {{"addmm", 2.0}})),
            (std::vector<double>{1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 2, 1, 1, 2}));
  EXPECT_EQ(Factors(LowerModel(model, {{"conv2d", 2.0}, {"conv1", 1.5}})),
            (std::vector<double>{3, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}));
  EXPECT_EQ(
      Factors(LowerModel(model, {{"native_call_max_pool2d_with_indices.out", 1.25}})),
      (std::vector<double>{1, 1, 1.25, 1, 1, 1.25, 1, 1, 1, 1, 1, 1, 1, 1}));
}

TEST(RuntimeProgramTest, ModelSlowdownsAndOptionSlowdownsMultiply) {
  Model model = LoadShippedModel("mlp");
  model.slowdowns = {{"relu", 2.0}};
  const Program program = LowerModel(model, {{"relu1", 1.5}});
  EXPECT_EQ(program.instructions[2].event_name, "native_call_relu.out");
  EXPECT_DOUBLE_EQ(program.instructions[2].slowdown, 3.0);
  EXPECT_DOUBLE_EQ(program.instructions[5].slowdown, 2.0);
  EXPECT_EQ(program.model.slowdowns.size(), 2u);
}

TEST(RuntimeProgramTest, DelegatedNodesBecomeOneDelegateCall) {
  const Program program = LowerModel(LoadShippedModel("mobilenet_v2_block"), {});
  ASSERT_EQ(program.instructions.size(), 4u);
  EXPECT_EQ(program.instructions[2].kind, Instruction::Kind::kDelegate);
  EXPECT_EQ(program.instructions[2].event_name, "DELEGATE_CALL");
  ASSERT_EQ(program.partitions.size(), 1u);
  EXPECT_EQ(program.partitions[0].nodes, (std::vector<int>{2, 3, 4}));
  EXPECT_EQ(program.partitions[0].instruction, 2);
  // Only `project` is read after the partition.
  const int project = program.lowering[4].output;
  EXPECT_EQ(program.instructions[2].outputs, (std::vector<int>{project}));
}

}  // namespace
}  // namespace etbench::runtime
