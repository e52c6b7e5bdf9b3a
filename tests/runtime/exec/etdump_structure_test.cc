// The ETDump every shipped model produces follows the runtime's conventions
// exactly (docs: etdump-format.md): blocks, event names, completion order,
// nesting in time, chains, instruction ids, delegate ids.

#include <gtest/gtest.h>

#include "etbench/inspector/etdump_file.h"
#include "etbench/inspector/inspector.h"
#include "runtime_test_util.h"

namespace etbench::runtime {
namespace {

using testing::DecodeOrFail;
using testing::LoadShippedModel;
using testing::ProfileEvents;
using testing::RunOrFail;

// One expected instruction: a kernel, or a delegate call with its events'
// ids (int ids or string ids).
struct ExpectedInstruction {
  std::string kernel;  // empty for a delegate call
  std::vector<int32_t> delegate_ints;
  std::vector<std::string> delegate_strs;
};

ExpectedInstruction K(const std::string& kernel) { return {kernel, {}, {}}; }
ExpectedInstruction DelegateInts(std::vector<int32_t> ids) {
  return {"", std::move(ids), {}};
}
ExpectedInstruction DelegateStrs(std::vector<std::string> ids) {
  return {"", {}, std::move(ids)};
}

std::vector<ExpectedInstruction> ExpectedPlan(const std::string& model) {
  if (model == "toy_cnn") {
    // Exactly the instruction list of the real tutorial model's ETDump.
    return {K("convolution.out"), K("relu.out"),
            K("max_pool2d_with_indices.out"), K("convolution.out"),
            K("relu.out"), K("max_pool2d_with_indices.out"),
            K("permute_copy.out"), K("addmm.out"), K("relu.out"),
            K("permute_copy.out"), K("addmm.out"), K("relu.out"),
            K("permute_copy.out"), K("addmm.out")};
  }
  if (model == "mlp") {
    return {K("permute_copy.out"), K("addmm.out"), K("relu.out"),
            K("permute_copy.out"), K("addmm.out"), K("relu.out"),
            K("permute_copy.out"), K("addmm.out"), K("relu.out"),
            K("permute_copy.out"), K("addmm.out")};
  }
  if (model == "mobilenet_v2_block") {
    return {K("convolution.out"), K("hardtanh.out"), DelegateInts({0, 1}),
            K("add.out")};
  }
  // transformer_block
  return {K("native_layer_norm.out"),
          K("permute_copy.out"), K("addmm.out"),  // q
          K("permute_copy.out"), K("addmm.out"),  // k
          K("permute_copy.out"), K("addmm.out"),  // v
          K("permute_copy.out"),                  // kᵀ
          K("bmm.out"), K("mul.out"), K("_softmax.out"), K("bmm.out"),
          K("permute_copy.out"), K("addmm.out"),  // proj
          K("add.out"), K("native_layer_norm.out"),
          DelegateStrs({"ff1+ff_gelu", "ff2"}), K("add.out")};
}

bool Encloses(const ProfileEventRecord& outer, const ProfileEventRecord& inner) {
  return outer.start_time <= inner.start_time && inner.end_time <= outer.end_time;
}

void ExpectFrameworkEvent(const ProfileEventRecord& event,
                          const std::string& name) {
  EXPECT_EQ(event.name, name);
  EXPECT_EQ(event.chain_index, -1) << name;
  EXPECT_EQ(event.instruction_id, 0) << name;
  EXPECT_EQ(event.delegate_debug_id_int, -1) << name;
  EXPECT_TRUE(event.delegate_debug_id_str.empty()) << name;
  EXPECT_LE(event.start_time, event.end_time) << name;
}

void CheckExecuteRun(const RunDataRecord& run,
                     const std::vector<ExpectedInstruction>& plan) {
  EXPECT_EQ(run.name, "Execute");
  const auto events = ProfileEvents(run);
  ASSERT_FALSE(events.empty());
  ExpectFrameworkEvent(events.back(), "Method::execute");
  const ProfileEventRecord& execute = events.back();
  std::size_t at = 0;
  uint64_t previous_end = execute.start_time;
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const auto id = static_cast<int32_t>(i);
    const ExpectedInstruction& want = plan[i];
    std::vector<ProfileEventRecord> inner;
    const std::size_t inner_count =
        want.kernel.empty()
            ? want.delegate_ints.size() + want.delegate_strs.size()
            : 1;
    ASSERT_LE(at + inner_count + 1, events.size() - 1) << "instruction " << i;
    for (std::size_t j = 0; j < inner_count; ++j) inner.push_back(events[at++]);
    const ProfileEventRecord& call = events[at++];
    EXPECT_EQ(call.name, want.kernel.empty() ? "DELEGATE_CALL" : "OPERATOR_CALL")
        << "instruction " << i;
    EXPECT_EQ(call.chain_index, 0);
    EXPECT_EQ(call.instruction_id, id);
    EXPECT_TRUE(Encloses(execute, call)) << "instruction " << i;
    EXPECT_LE(previous_end, call.start_time) << "instructions overlap at " << i;
    previous_end = call.end_time;
    for (std::size_t j = 0; j < inner.size(); ++j) {
      const ProfileEventRecord& event = inner[j];
      EXPECT_EQ(event.chain_index, 0);
      EXPECT_EQ(event.instruction_id, id);
      EXPECT_TRUE(Encloses(call, event)) << "instruction " << i << " event " << j;
      if (!want.kernel.empty()) {
        EXPECT_EQ(event.name, "native_call_" + want.kernel);
        EXPECT_EQ(event.delegate_debug_id_int, -1);
      } else if (!want.delegate_ints.empty()) {
        EXPECT_EQ(event.name, "");
        EXPECT_EQ(event.delegate_debug_id_int, want.delegate_ints[j]);
        EXPECT_EQ(event.delegate_debug_id_str, "");
      } else {
        EXPECT_EQ(event.name, "");
        EXPECT_EQ(event.delegate_debug_id_int, -1);
        EXPECT_EQ(event.delegate_debug_id_str, want.delegate_strs[j]);
      }
    }
  }
  EXPECT_EQ(at, events.size() - 1) << "unexpected extra events";
}

class RuntimeEtdumpStructureTest
    : public ::testing::TestWithParam<std::string> {};

TEST_P(RuntimeEtdumpStructureTest, FollowsTheRuntimeConventions) {
  const Model model = LoadShippedModel(GetParam());
  RunOptions options;
  options.num_executions = 3;
  const RunOutput run = RunOrFail(model, options);
  const EtdumpRecord record = DecodeOrFail(run.etdump);
  ASSERT_EQ(record.run_data.size(), 4u);

  const RunDataRecord& load = record.run_data[0];
  EXPECT_EQ(load.name, "Default");
  const auto load_events = ProfileEvents(load);
  ASSERT_EQ(load_events.size(), 2u);
  ExpectFrameworkEvent(load_events[0], "Method::init");
  ExpectFrameworkEvent(load_events[1], "Program::load_method");
  EXPECT_TRUE(Encloses(load_events[1], load_events[0]));

  const auto plan = ExpectedPlan(GetParam());
  for (std::size_t r = 1; r < record.run_data.size(); ++r) {
    SCOPED_TRACE("run " + std::to_string(r));
    CheckExecuteRun(record.run_data[r], plan);
  }
  EXPECT_EQ(run.instruction_count, static_cast<int>(plan.size()));
}

TEST_P(RuntimeEtdumpStructureTest, InspectorSeesOneDefaultAndOneExecuteBlock) {
  const Model model = LoadShippedModel(GetParam());
  RunOptions options;
  options.num_executions = 4;
  const RunOutput run = RunOrFail(model, options);
  auto file = EtdumpFile::FromBytes(run.etdump);
  ASSERT_TRUE(file.ok()) << file.error().message;
  EXPECT_TRUE(file->size_prefixed());
  auto blocks = BuildEventBlocks(*file, InspectorOptions{});
  ASSERT_TRUE(blocks.ok()) << blocks.error().message;
  ASSERT_EQ(blocks->size(), 2u);
  EXPECT_EQ((*blocks)[0].name, "Default");
  EXPECT_EQ((*blocks)[0].run_count, 1u);
  const EventBlock& execute = (*blocks)[1];
  EXPECT_EQ(execute.name, "Execute");
  EXPECT_EQ(execute.run_count, 4u);
  ASSERT_TRUE(execute.framework_tax.has_value());
  EXPECT_EQ(execute.framework_tax->raw.size(), 4u);
  std::size_t delegated = 0;
  for (const Event& event : execute.events) {
    ASSERT_TRUE(event.perf_data.has_value()) << event.name;
    EXPECT_EQ(event.perf_data->raw.size(), 4u) << event.name;
    if (event.is_delegated_op) ++delegated;
  }
  const bool has_delegate = !model.delegates.empty();
  EXPECT_EQ(delegated > 0, has_delegate);
}

INSTANTIATE_TEST_SUITE_P(
    ShippedModels, RuntimeEtdumpStructureTest,
    ::testing::ValuesIn(testing::ShippedModelNames()),
    [](const ::testing::TestParamInfo<std::string>& param) {
      return param.param;
    });

}  // namespace
}  // namespace etbench::runtime
