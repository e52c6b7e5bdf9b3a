// Optional ETDump content: intermediate/program outputs as debug events with
// their bytes in the debug buffer, and allocation events per allocator.

#include <cstring>

#include <gtest/gtest.h>

#include "etbench/inspector/etdump_file.h"
#include "etbench/inspector/inspector.h"
#include "runtime_test_util.h"

namespace etbench::runtime {
namespace {

using testing::DecodeOrFail;
using testing::LoadShippedModel;
using testing::RunOrFail;

// Index in `run.events` of each event kind, in order.
struct Positions {
  std::vector<std::size_t> debug;
  std::vector<std::size_t> operator_calls;
  std::size_t execute = 0;
};

Positions Locate(const RunDataRecord& run) {
  Positions positions;
  for (std::size_t i = 0; i < run.events.size(); ++i) {
    if (std::holds_alternative<DebugEventRecord>(run.events[i])) {
      positions.debug.push_back(i);
    } else if (const auto* p = std::get_if<ProfileEventRecord>(&run.events[i])) {
      if (p->name == "OPERATOR_CALL" || p->name == "DELEGATE_CALL") {
        positions.operator_calls.push_back(i);
      }
      if (p->name == "Method::execute") positions.execute = i;
    }
  }
  return positions;
}

std::vector<float> TensorAt(const std::vector<uint8_t>& buffer,
                            const TensorRecord& tensor) {
  int64_t count = 1;
  for (int64_t size : tensor.sizes) count *= size;
  std::vector<float> values(static_cast<std::size_t>(count));
  EXPECT_LE(static_cast<std::size_t>(tensor.offset) + values.size() * 4,
            buffer.size());
  std::memcpy(values.data(), buffer.data() + tensor.offset, values.size() * 4);
  return values;
}

TEST(RuntimeDebugEventsTest, IntermediateOutputsFollowEachKernelAndOutputsFollowExecute) {
  const Model model = LoadShippedModel("toy_cnn");
  RunOptions options;
  options.num_executions = 2;
  options.dump_intermediate_outputs = true;
  const RunOutput run = RunOrFail(model, options);
  const EtdumpRecord record = DecodeOrFail(run.etdump);
  ASSERT_EQ(record.run_data.size(), 3u);
  for (std::size_t r = 1; r < 3; ++r) {
    const RunDataRecord& execute = record.run_data[r];
    const Positions positions = Locate(execute);
    ASSERT_EQ(positions.operator_calls.size(), 14u);
    ASSERT_EQ(positions.debug.size(), 15u);  // 14 intermediates + 1 output
    for (std::size_t i = 0; i < 14; ++i) {
      const auto& debug = std::get<DebugEventRecord>(execute.events[positions.debug[i]]);
      EXPECT_EQ(debug.instruction_id, static_cast<int32_t>(i));
      EXPECT_EQ(debug.chain_index, 0u);
      EXPECT_FALSE(debug.debug_entry.output.has_value());
      EXPECT_EQ(debug.debug_entry.type, ValueType::kTensor);
      EXPECT_EQ(debug.debug_entry.tensor.scalar_type, ScalarType::kFloat);
      EXPECT_EQ(debug.debug_entry.tensor.offset % 64, 0);
      // Logged inside the instruction: right before its OPERATOR_CALL ends.
      EXPECT_EQ(positions.debug[i] + 1, positions.operator_calls[i]);
    }
    const auto& output =
        std::get<DebugEventRecord>(execute.events[positions.debug[14]]);
    EXPECT_GT(positions.debug[14], positions.execute);
    ASSERT_TRUE(output.debug_entry.output.has_value());
    EXPECT_TRUE(*output.debug_entry.output);
    EXPECT_EQ(output.debug_entry.tensor.sizes, (std::vector<int64_t>{1, 10}));
    EXPECT_EQ(output.debug_entry.tensor.strides, (std::vector<int64_t>{10, 1}));
    EXPECT_EQ(TensorAt(run.debug_buffer, output.debug_entry.tensor),
              run.outputs[0].data);
    // The last intermediate (fc3's addmm) is the same tensor.
    const auto& last = std::get<DebugEventRecord>(execute.events[positions.debug[13]]);
    EXPECT_EQ(TensorAt(run.debug_buffer, last.debug_entry.tensor),
              run.outputs[0].data);
  }
}

TEST(RuntimeDebugEventsTest, DumpOutputsLogsOnlyTheProgramOutputs) {
  const Model model = LoadShippedModel("mlp");
  RunOptions options;
  options.num_executions = 2;
  options.dump_outputs = true;
  const RunOutput run = RunOrFail(model, options);
  const EtdumpRecord record = DecodeOrFail(run.etdump);
  for (std::size_t r = 1; r < record.run_data.size(); ++r) {
    const Positions positions = Locate(record.run_data[r]);
    ASSERT_EQ(positions.debug.size(), 1u);
    const auto& output =
        std::get<DebugEventRecord>(record.run_data[r].events[positions.debug[0]]);
    EXPECT_TRUE(output.debug_entry.output.value_or(false));
    EXPECT_EQ(TensorAt(run.debug_buffer, output.debug_entry.tensor),
              run.outputs[0].data);
  }
}

TEST(RuntimeDebugEventsTest, DelegateCallLogsItsOutputsInsideTheCall) {
  const Model model = LoadShippedModel("mobilenet_v2_block");
  RunOptions options;
  options.dump_intermediate_outputs = true;
  const RunOutput run = RunOrFail(model, options);
  const EtdumpRecord record = DecodeOrFail(run.etdump);
  const Positions positions = Locate(record.run_data[1]);
  ASSERT_EQ(positions.operator_calls.size(), 4u);
  // Instruction 2 is the DELEGATE_CALL; its output (project) is logged
  // just before the call ends.
  const auto& debug = std::get<DebugEventRecord>(
      record.run_data[1].events[positions.operator_calls[2] - 1]);
  EXPECT_EQ(debug.instruction_id, 2);
  EXPECT_EQ(debug.debug_entry.tensor.sizes,
            (std::vector<int64_t>{1, 16, 24, 24}));
}

TEST(RuntimeDebugEventsTest, InspectorReadsTheDebugBuffer) {
  const Model model = LoadShippedModel("toy_cnn");
  RunOptions options;
  options.num_executions = 2;
  options.dump_intermediate_outputs = true;
  const RunOutput run = RunOrFail(model, options);
  auto file = EtdumpFile::FromBytes(run.etdump);
  ASSERT_TRUE(file.ok()) << file.error().message;
  InspectorOptions inspector;
  inspector.debug_buffer = run.debug_buffer;
  auto blocks = BuildEventBlocks(*file, inspector);
  ASSERT_TRUE(blocks.ok()) << blocks.error().message;
  ASSERT_EQ(blocks->size(), 2u);
  const EventBlock& execute = (*blocks)[1];
  ASSERT_EQ(execute.run_output.size(), 1u);
  ASSERT_EQ(execute.run_output[0].tensors.size(), 1u);
  ASSERT_TRUE(execute.run_output[0].tensors[0].data.has_value());
  EXPECT_EQ(execute.run_output[0].tensors[0].data->size(), 40u);
}

TEST(RuntimeAllocationEventsTest, EveryBlockDeclaresItsAllocators) {
  const Model model = LoadShippedModel("toy_cnn");
  RunOptions options;
  options.num_executions = 2;
  options.log_allocations = true;
  const RunOutput run = RunOrFail(model, options);
  const EtdumpRecord record = DecodeOrFail(run.etdump);
  ASSERT_EQ(record.run_data.size(), 3u);
  EXPECT_EQ(record.run_data[0].allocators,
            (std::vector<std::string>{"method_allocator", "planned_memory"}));
  std::size_t load_allocations = 0;
  for (const EventRecord& event : record.run_data[0].events) {
    if (const auto* a = std::get_if<AllocationEventRecord>(&event)) {
      ++load_allocations;
      // 1-based, as ETDumpGen::track_allocator returns them.
      EXPECT_GE(a->allocator_id, 1);
      EXPECT_LE(a->allocator_id, 2);
      EXPECT_GT(a->allocation_size, 0u);
    }
  }
  // One per tensor: input, 2 conv weights + biases, 3 linear weights +
  // biases, and every activation (views share their source's memory).
  EXPECT_GE(load_allocations, 20u);
  for (std::size_t r = 1; r < 3; ++r) {
    EXPECT_EQ(record.run_data[r].allocators,
              (std::vector<std::string>{"temp_allocator"}));
    std::size_t temp_allocations = 0;
    for (const EventRecord& event : record.run_data[r].events) {
      if (const auto* a = std::get_if<AllocationEventRecord>(&event)) {
        ++temp_allocations;
        EXPECT_EQ(a->allocator_id, 1);
      }
    }
    // Scratch of the two dense convs (im2col) and the two max pools'
    // indices.
    EXPECT_EQ(temp_allocations, 4u);
  }
  auto file = EtdumpFile::FromBytes(run.etdump);
  ASSERT_TRUE(file.ok());
  auto blocks = BuildEventBlocks(*file, InspectorOptions{});
  ASSERT_TRUE(blocks.ok()) << blocks.error().message;
  EXPECT_FALSE((*blocks)[0].allocations.empty());
}

}  // namespace
}  // namespace etbench::runtime
