// The reference delegate: fusion, debug ids, metadata, clocks, timestamps.

#include "exec/reference_delegate.h"

#include <gtest/gtest.h>

#include "etbench/runtime/model_loader.h"
#include "runtime_test_util.h"

namespace etbench::runtime {
namespace {

using testing::DecodeOrFail;
using testing::ProfileEvents;
using testing::RunOrFail;

constexpr char kModel[] = R"(
name: delegate_options
inputs: [{name: x, shape: [1, 4, 8, 8]}]
delegates:
  - {name: npu, debug_ids: str, metadata: true, time_source: cycles,
     timestamps: back_to_back}
nodes:
  - {name: c1, op: conv2d, inputs: [x], out_channels: 4, kernel_size: 3, padding: 1, delegate: npu}
  - {name: r1, op: relu, inputs: [c1], delegate: npu}
  - {name: c2, op: conv2d, inputs: [r1], out_channels: 4, kernel_size: 1, delegate: npu}
  - {name: r2, op: relu6, inputs: [c2], delegate: npu}
  - {name: out, op: add, inputs: [r2, c2]}
)";

Model Parse(const std::string& text) {
  auto model = ParseModelYaml(text, "test.yaml");
  EXPECT_TRUE(model.ok()) << model.error().message;
  return model.ok() ? *model : Model{};
}

uint64_t ReadLe(const std::vector<uint8_t>& bytes, std::size_t at, int size) {
  uint64_t value = 0;
  for (int i = 0; i < size; ++i) value |= uint64_t{bytes[at + i]} << (8 * i);
  return value;
}

TEST(RuntimeReferenceDelegateTest, FusesAnActivationOnlyIntoItsSoleProducer) {
  const Program program = LowerModel(Parse(kModel), {});
  ASSERT_EQ(program.partitions.size(), 1u);
  const ReferenceDelegate delegate(program, program.partitions[0]);
  ASSERT_EQ(delegate.ops().size(), 3u);
  // c2's output is also read outside the partition, so r2 stays separate.
  EXPECT_EQ(delegate.ops()[0].debug_id_str, "c1+r1");
  EXPECT_EQ(delegate.ops()[1].debug_id_str, "c2");
  EXPECT_EQ(delegate.ops()[2].debug_id_str, "r2");
  for (const auto& op : delegate.ops()) EXPECT_EQ(op.debug_id_int, -1);
}

TEST(RuntimeReferenceDelegateTest, MetadataEncodesNodeCountAndFlops) {
  const Program program = LowerModel(Parse(kModel), {});
  const ReferenceDelegate delegate(program, program.partitions[0]);
  const std::vector<uint8_t>& metadata = delegate.ops()[0].metadata;
  ASSERT_EQ(metadata.size(), 16u);
  EXPECT_EQ(ReadLe(metadata, 0, 4), 1u);  // version
  EXPECT_EQ(ReadLe(metadata, 4, 4), 2u);  // c1 + r1
  // conv: 2 · (4·8·8 outputs) · (4·3·3 taps); relu: 256 elements.
  EXPECT_EQ(ReadLe(metadata, 8, 8), 2u * 256 * 36 + 256);
  EXPECT_EQ(delegate.ops()[0].metadata, EncodeDelegateMetadata(2, 18688));
}

TEST(RuntimeReferenceDelegateTest, BackToBackEventsTileTheCallInCycles) {
  RunOptions options;
  options.num_executions = 2;
  const RunOutput run = RunOrFail(Parse(kModel), options);
  ASSERT_EQ(run.delegates.size(), 1u);
  EXPECT_EQ(run.delegates[0].time_source, "cycles");
  EXPECT_EQ(run.delegates[0].instruction_id, 0);
  const EtdumpRecord record = DecodeOrFail(run.etdump);
  ASSERT_EQ(record.run_data.size(), 3u);
  const auto events = ProfileEvents(record.run_data[1]);
  // c1+r1, c2, r2, DELEGATE_CALL, add's native call + OPERATOR_CALL, execute.
  ASSERT_EQ(events.size(), 7u);
  const std::vector<std::string> ids = {"c1+r1", "c2", "r2"};
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(events[i].name, "");
    EXPECT_EQ(events[i].delegate_debug_id_str, ids[i]);
    EXPECT_EQ(events[i].instruction_id, 0);
    EXPECT_EQ(events[i].delegate_debug_metadata.size(), 16u);
    EXPECT_LE(events[i].start_time, events[i].end_time);
    if (i > 0) {
      EXPECT_EQ(events[i].start_time, events[i - 1].end_time);
    }
  }
  EXPECT_EQ(events[3].name, "DELEGATE_CALL");
}

TEST(RuntimeReferenceDelegateTest, IntIdsNumberTheOpsInOrder) {
  const std::string text = R"(
name: int_ids
inputs: [{name: x, shape: [2, 8]}]
delegates: [{name: d, debug_ids: int}]
nodes:
  - {name: fc, op: linear, inputs: [x], out_features: 8, delegate: d}
  - {name: act, op: gelu, inputs: [fc], delegate: d}
  - {name: fc2, op: linear, inputs: [act], out_features: 4, bias: false, delegate: d}
)";
  const Program program = LowerModel(Parse(text), {});
  const ReferenceDelegate delegate(program, program.partitions[0]);
  ASSERT_EQ(delegate.ops().size(), 2u);
  EXPECT_EQ(delegate.ops()[0].debug_id_int, 0);
  EXPECT_EQ(delegate.ops()[1].debug_id_int, 1);
  EXPECT_TRUE(delegate.ops()[0].metadata.empty());
  // The weight transpose moved to init: only the matrix products remain.
  EXPECT_EQ(delegate.ops()[0].calls.size(), 2u);  // addmm + gelu
  EXPECT_EQ(delegate.ops()[1].calls.size(), 1u);  // mm
  EXPECT_EQ(delegate.ops()[1].calls[0].op, KernelOp::kMm);
}

TEST(RuntimeReferenceDelegateTest, ActivationOfAModelInputIsNotFused) {
  const std::string text = R"(
name: input_activation
inputs: [{name: x, shape: [4]}]
delegates: [{name: d, debug_ids: str}]
nodes:
  - {name: a, op: relu, inputs: [x], delegate: d}
  - {name: b, op: relu6, inputs: [x], delegate: d}
  - {name: c, op: add, inputs: [a, b], delegate: d}
)";
  const Program program = LowerModel(Parse(text), {});
  const ReferenceDelegate delegate(program, program.partitions[0]);
  ASSERT_EQ(delegate.ops().size(), 3u);
  EXPECT_EQ(delegate.ops()[1].debug_id_str, "b");
}

TEST(RuntimeReferenceDelegateTest, DelegatedResultsEqualPortableResults) {
  const std::string portable = R"(
name: same
inputs: [{name: x, shape: [1, 6, 7, 7]}]
nodes:
  - {name: c, op: conv2d, inputs: [x], out_channels: 6, kernel_size: 3, groups: 6, padding: 1}
  - {name: r, op: relu6, inputs: [c]}
  - {name: f, op: flatten, inputs: [r]}
  - {name: l, op: linear, inputs: [f], out_features: 5}
)";
  std::string delegated = portable;
  delegated.replace(delegated.find("nodes:"), 6,
                    "delegates: [{name: d}]\nnodes:");
  for (const char* node : {"c, op", "r, op", "f, op", "l, op"}) {
    const std::size_t at = delegated.find(node);
    const std::size_t close = delegated.find('}', at);
    delegated.insert(close, ", delegate: d");
  }
  const RunOutput a = RunOrFail(Parse(portable), RunOptions{});
  const RunOutput b = RunOrFail(Parse(delegated), RunOptions{});
  ASSERT_EQ(a.outputs.size(), 1u);
  ASSERT_EQ(b.outputs.size(), 1u);
  EXPECT_EQ(a.outputs[0].data, b.outputs[0].data);
  EXPECT_EQ(b.instruction_count, 1);
}

}  // namespace
}  // namespace etbench::runtime
