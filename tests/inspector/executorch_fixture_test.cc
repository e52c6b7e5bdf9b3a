// ETDumps written by ExecuTorch's own runtime (upstream executor_runner and
// example_runner, commit cff6f4dd32e6; see tests/fixtures/executorch/), read
// as the reference Inspector reads them. Expected values were read
// independently: timestamps with `flatc --json --size-prefixed` over the
// ETDump schema, the bundled program's inputs and expected outputs with
// `flatc --json` over upstream's bundled_program_schema.fbs (inputs x = y =
// zeros(2, 2) int32, expected output 2 everywhere), and the intermediates
// from the model (mul, then two adds).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "etbench/inspector/etdump_file.h"
#include "etbench/inspector/etdump_writer.h"
#include "etbench/inspector/inspector.h"
#include "support/test_support.h"

namespace etbench {
namespace {

std::string Fixture(const std::string& name) {
  return testing::FixturePath("executorch/" + name);
}

std::vector<EventBlock> Load(const std::string& name, const std::string& debug_buffer = "") {
  auto file = EtdumpFile::Open(Fixture(name));
  EXPECT_TRUE(file.ok()) << (file.ok() ? "" : file.error().message);
  if (!file.ok()) return {};
  EXPECT_TRUE(file->size_prefixed());
  EXPECT_TRUE(file->warnings().empty());
  InspectorOptions options;
  if (!debug_buffer.empty()) options.debug_buffer = testing::ReadBinaryFile(Fixture(debug_buffer));
  auto blocks = BuildEventBlocks(*file, options);
  EXPECT_TRUE(blocks.ok()) << (blocks.ok() ? "" : blocks.error().message);
  return blocks.ok() ? std::move(blocks).value() : std::vector<EventBlock>{};
}

std::vector<std::string> Names(const EventBlock& block) {
  std::vector<std::string> out;
  for (const Event& e : block.events) out.push_back(e.name);
  return out;
}

// The int32 elements of a tensor value, checking its type and shape.
std::vector<double> IntTensor(const DebugValue& value) {
  EXPECT_EQ(value.type, ValueType::kTensor);
  if (value.tensors.size() != 1) return {};
  const TensorValue& t = value.tensors[0];
  EXPECT_EQ(t.scalar_type, ScalarType::kInt);
  EXPECT_EQ(t.sizes, (std::vector<int64_t>{2, 2}));
  return TensorElementsAsDouble(t);
}

const std::vector<double> kTwos = {2, 2, 2, 2};  // the bundled expected output

TEST(ExecutorchFixtureTest, AddModelHasADefaultBlockAndTenExecutions) {
  for (const char* name : {"add.etdp", "arduino_AddModel.etdp", "arduino_HelloExecuTorch.etdp"}) {
    SCOPED_TRACE(name);
    auto blocks = Load(name);
    ASSERT_EQ(blocks.size(), 2u);
    EXPECT_EQ(blocks[0].name, "Default");
    EXPECT_EQ(blocks[0].run_count, 1u);
    EXPECT_EQ(Names(blocks[0]), (std::vector<std::string>{"Method::init", "Program::load_method"}));
    EXPECT_EQ(blocks[1].name, "Execute");
    EXPECT_EQ(blocks[1].run_count, 10u);
    EXPECT_EQ(Names(blocks[1]), (std::vector<std::string>{"native_call_add.out", "OPERATOR_CALL",
                                                          "Method::execute"}));
    EXPECT_FALSE(blocks[1].bundled_input_index.has_value());
    EXPECT_TRUE(blocks[1].framework_tax.has_value());
  }
}

TEST(ExecutorchFixtureTest, AddModelDurationsAndStartTimesPerRun) {
  auto blocks = Load("add.etdp");
  ASSERT_EQ(blocks.size(), 2u);
  const Event& init = blocks[0].events[0];
  EXPECT_EQ(init.chain_index, -1);
  EXPECT_EQ(init.instruction_id, 0);
  EXPECT_EQ(init.perf_data->raw, (std::vector<double>{(659220 - 644999) / 1e6}));
  const Event& add = blocks[1].events[0];
  EXPECT_EQ(add.instruction_id, 0);
  EXPECT_EQ(add.chain_index, 0);
  EXPECT_FALSE(add.is_delegated_op);
  const std::vector<uint64_t> starts = {677036, 687522, 691368, 694673, 697807,
                                        701032, 707452, 710997, 714953, 718828};
  const std::vector<uint64_t> ends = {680191, 687692, 691528, 694803, 697927,
                                      701162, 707612, 711177, 715203, 718959};
  EXPECT_EQ(add.start_ticks, starts);
  EXPECT_EQ(add.end_ticks, ends);
  ASSERT_EQ(add.perf_data->raw.size(), 10u);
  for (std::size_t r = 0; r < 10; ++r) {
    EXPECT_EQ(add.perf_data->raw[r], static_cast<double>(ends[r] - starts[r]) / 1e6) << r;
  }
  EXPECT_EQ(add.perf_data->min, 120 / 1e6);
  EXPECT_EQ(add.perf_data->max, 3155 / 1e6);
  const Event& execute = blocks[1].events[2];
  EXPECT_EQ(execute.start_ticks.front(), 675684u);
  EXPECT_EQ(execute.perf_data->raw.back(), (719249 - 718718) / 1e6);
}

TEST(ExecutorchFixtureTest, BundledProgramRunsMulThenTwoAdds) {
  auto blocks = Load("bundled_program.etdp");
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(blocks[1].run_count, 10u);
  EXPECT_EQ(Names(blocks[1]),
            (std::vector<std::string>{"native_call_mul.out", "OPERATOR_CALL", "native_call_add.out",
                                      "OPERATOR_CALL", "native_call_add.out", "OPERATOR_CALL",
                                      "Method::execute"}));
  const std::vector<int32_t> instructions = {0, 0, 1, 1, 2, 2, 0};
  for (std::size_t i = 0; i < instructions.size(); ++i) {
    EXPECT_EQ(blocks[1].events[i].instruction_id, instructions[i]) << i;
  }
  EXPECT_EQ(blocks[1].events[0].perf_data->raw[0], (210143 - 207619) / 1e6);
  EXPECT_EQ(blocks[1].events[6].start_ticks[9], 244804u);
  for (const Event& e : blocks[1].events) EXPECT_TRUE(e.debug_data.empty());
  EXPECT_TRUE(blocks[1].run_output.empty());
}

TEST(ExecutorchFixtureTest, IntermediatesDecodeWithTheDebugBuffer) {
  auto blocks =
      Load("bundled_program_intermediates.etdp", "bundled_program_intermediates.debug.bin");
  ASSERT_EQ(blocks.size(), 2u);
  const EventBlock& execute = blocks[1];
  EXPECT_EQ(execute.run_count, 1u);
  ASSERT_EQ(Names(execute),
            (std::vector<std::string>{"native_call_mul.out", "OPERATOR_CALL", "native_call_add.out",
                                      "OPERATOR_CALL", "native_call_add.out", "OPERATOR_CALL",
                                      "Method::execute"}));
  // Each instruction's debug event is collated with both of its profile
  // events (kernel and OPERATOR_CALL), as in the reference.
  const std::vector<std::vector<double>> expected = {
      {0, 0, 0, 0}, {0, 0, 0, 0},  // mul: x * y = 0 * 0
      kTwos, kTwos,                // first add
      kTwos, kTwos};               // second add: the program output
  for (std::size_t i = 0; i < expected.size(); ++i) {
    SCOPED_TRACE(execute.events[i].name + " #" + std::to_string(i));
    ASSERT_EQ(execute.events[i].debug_data.size(), 1u);
    EXPECT_EQ(IntTensor(execute.events[i].debug_data[0]), expected[i]);
  }
  EXPECT_TRUE(execute.events[6].debug_data.empty());  // Method::execute
  ASSERT_EQ(execute.run_output.size(), 1u);
  EXPECT_EQ(IntTensor(execute.run_output[0]), kTwos);
}

TEST(ExecutorchFixtureTest, IntermediatesWithoutTheBufferHaveShapesButNoBytes) {
  auto blocks = Load("bundled_program_intermediates.etdp");
  ASSERT_EQ(blocks.size(), 2u);
  const TensorValue& mul = blocks[1].events[0].debug_data.at(0).tensors.at(0);
  EXPECT_EQ(mul.sizes, (std::vector<int64_t>{2, 2}));
  EXPECT_FALSE(mul.data.has_value());
}

TEST(ExecutorchFixtureTest, ProgramOutputsDecodeWithTheDebugBuffer) {
  auto blocks = Load("bundled_program_outputs.etdp", "bundled_program_outputs.debug.bin");
  ASSERT_EQ(blocks.size(), 2u);
  const EventBlock& execute = blocks[1];
  EXPECT_EQ(execute.events.size(), 7u);
  for (const Event& e : execute.events) EXPECT_TRUE(e.debug_data.empty()) << e.name;
  ASSERT_EQ(execute.run_output.size(), 1u);
  EXPECT_EQ(IntTensor(execute.run_output[0]), kTwos);
}

TEST(ExecutorchFixtureTest, DecodedRecordsRoundTripThroughTheWriter) {
  for (const char* name : {"add.etdp", "bundled_program_intermediates.etdp"}) {
    auto file = EtdumpFile::Open(Fixture(name));
    ASSERT_TRUE(file.ok());
    const EtdumpRecord record = DecodeEtdump(*file);
    auto again = EtdumpFile::FromBytes(WriteEtdump(record));
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(DecodeEtdump(*again), record) << name;
  }
}

}  // namespace
}  // namespace etbench
