// The reference Inspector's grouping scenarios, and where etbench is
// deliberately right where the reference is wrong.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "etbench/inspector/etdump_writer.h"
#include "etbench/inspector/inspector.h"
#include "etdump_test_util.h"
#include "flatbuffers/flatbuffers.h"

namespace etbench {
namespace {

using testing::Blocks;
using testing::DelegateProfile;
using testing::IntDebug;
using testing::LoadRecord;
using testing::Profile;

RunDataRecord MakeRun(std::string name, std::vector<EventRecord> events, int32_t bundled = -1) {
  RunDataRecord r;
  r.name = std::move(name);
  r.events = std::move(events);
  r.bundled_input_index = bundled;
  return r;
}

EtdumpRecord Dump(std::vector<RunDataRecord> runs) {
  EtdumpRecord d;
  d.run_data = std::move(runs);
  return d;
}

Error GroupingError(const EtdumpRecord& record, const InspectorOptions& options = {}) {
  auto blocks = BuildEventBlocks(LoadRecord(record), options);
  EXPECT_FALSE(blocks.ok());
  return blocks.ok() ? Error{} : blocks.error();
}

TEST(EventBlockBuilderTest, RunsWithEqualSignaturesMergeOthersStaySeparate) {
  // Two runs of one event and one run of two events: the reference's
  // test_gen_from_etdump scenario.
  auto one = [](uint64_t t) {
    return MakeRun("Execute", {Profile("native_call_add.out", 0, 0, t, t + 100)});
  };
  auto two = MakeRun("Execute", {Profile("native_call_add.out", 0, 0, 0, 10),
                             Profile("native_call_mul.out", 0, 1, 20, 50)});
  auto blocks = Blocks(Dump({one(0), two, one(1000)}));
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(blocks[0].name, "Execute");
  EXPECT_EQ(blocks[1].name, "Execute");
  EXPECT_EQ(blocks[0].events.size(), 1u);
  EXPECT_EQ(blocks[0].run_count, 2u);
  EXPECT_EQ(blocks[0].events[0].perf_data->raw.size(), 2u);
  EXPECT_EQ(blocks[0].run_indices, (std::vector<std::size_t>{0, 2}));
  EXPECT_EQ(blocks[1].events.size(), 2u);
  EXPECT_EQ(blocks[1].run_count, 1u);
  EXPECT_EQ(blocks[1].events[1].perf_data->raw, (std::vector<double>{30 / 1e6}));
}

TEST(EventBlockBuilderTest, OneDurationPerRunInRunOrder) {
  std::vector<RunDataRecord> runs;
  const uint64_t durations[] = {500, 100, 300};
  for (uint64_t d : durations) runs.push_back(MakeRun("Execute", {Profile("k", 0, 0, 1000, 1000 + d)}));
  auto blocks = Blocks(Dump(runs));
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].events[0].perf_data->raw,
            (std::vector<double>{500 / 1e6, 100 / 1e6, 300 / 1e6}));
}

TEST(EventBlockBuilderTest, BundledInputIndexIsKeptAndSeparatesRuns) {
  auto blocks = Blocks(Dump({MakeRun("Execute", {Profile("k", 0, 0, 0, 1)}, 0),
                             MakeRun("Execute", {Profile("k", 0, 0, 0, 1)}, 1),
                             MakeRun("Execute", {Profile("k", 0, 0, 0, 1)}, 0)}));
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(blocks[0].bundled_input_index, 0);
  EXPECT_EQ(blocks[0].run_count, 2u);
  EXPECT_EQ(blocks[1].bundled_input_index, 1);
}

TEST(EventBlockBuilderTest, DebugDataIsKeptOncePerEvent) {
  auto run = [] {
    return MakeRun("Execute", {IntDebug("native_call_add.out", 0, 7),
                           Profile("native_call_add.out", 0, 0, 0, 10)});
  };
  auto blocks = Blocks(Dump({run(), run(), run()}));
  ASSERT_EQ(blocks.size(), 1u);
  ASSERT_EQ(blocks[0].events.size(), 1u);
  const Event& e = blocks[0].events[0];
  EXPECT_EQ(e.name, "native_call_add.out");
  ASSERT_EQ(e.debug_data.size(), 1u);
  EXPECT_EQ(e.debug_data[0].type, ValueType::kInt);
  EXPECT_EQ(e.debug_data[0].int_value, 7);
  EXPECT_EQ(e.perf_data->raw.size(), 3u);
}

TEST(EventBlockBuilderTest, DebugOnlyInstructionBecomesAnEventWithoutPerfData) {
  auto blocks = Blocks(Dump({MakeRun("Execute", {IntDebug("native_call_mul.out", 3, 1)})}));
  ASSERT_EQ(blocks[0].events.size(), 1u);
  EXPECT_EQ(blocks[0].events[0].name, "native_call_mul.out");
  EXPECT_FALSE(blocks[0].events[0].perf_data.has_value());
  EXPECT_EQ(blocks[0].events[0].instruction_id, 3);
}

TEST(EventBlockBuilderTest, DifferingDebugDataAcrossRunsIsAnErrorNamingTheEvent) {
  auto run = [](int64_t v) {
    return MakeRun("Execute", {IntDebug("native_call_add.out", 0, v),
                           Profile("native_call_add.out", 0, 0, 0, 10)});
  };
  Error e = GroupingError(Dump({run(1), run(1), run(2)}));
  EXPECT_NE(e.message.find("native_call_add.out"), std::string::npos) << e.message;
  EXPECT_NE(e.message.find("differs"), std::string::npos) << e.message;
  EXPECT_NE(e.message.find("run_data[2]"), std::string::npos) << e.message;
}

TEST(EventBlockBuilderTest, RunOutputsAreCollectedAndChecked) {
  auto run = [](int64_t v) {
    return MakeRun("Execute", {Profile("native_call_add.out", 0, 0, 0, 10),
                           IntDebug("", 0, v, /*output=*/true)});
  };
  auto blocks = Blocks(Dump({run(5), run(5)}));
  ASSERT_EQ(blocks[0].run_output.size(), 1u);
  EXPECT_EQ(blocks[0].run_output[0].int_value, 5);
  // Output debug events do not become Events.
  EXPECT_EQ(blocks[0].events.size(), 1u);
  Error e = GroupingError(Dump({run(5), run(6)}));
  EXPECT_NE(e.message.find("program output 0"), std::string::npos) << e.message;
}

TEST(EventBlockBuilderTest, DelegatedEventsAreNamedByIntAndStringIds) {
  auto blocks = Blocks(Dump({MakeRun("Execute", {DelegateProfile(1, 0, "", 0, 100),
                                             DelegateProfile(1, -1, "conv_relu", 100, 250),
                                             Profile("DELEGATE_CALL", 0, 1, 0, 300)})}));
  const auto& events = blocks[0].events;
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].name, "0");  // 0 is a valid id
  EXPECT_TRUE(events[0].is_delegated_op);
  EXPECT_EQ(std::get<int32_t>(events[0].delegate_debug_identifier), 0);
  EXPECT_EQ(events[1].name, "conv_relu");
  EXPECT_EQ(std::get<std::string>(events[1].delegate_debug_identifier), "conv_relu");
  EXPECT_EQ(events[2].name, "DELEGATE_CALL");
  EXPECT_FALSE(events[2].is_delegated_op);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(events[2].delegate_debug_identifier));
}

TEST(EventBlockBuilderTest, TimeScalesScaleDurations) {
  auto dump = Dump({MakeRun("Execute", {Profile("k", 0, 0, 0, 3)})});
  InspectorOptions ms_to_ns;
  ms_to_ns.source_time_scale = TimeScale::kMs;
  ms_to_ns.target_time_scale = TimeScale::kNs;
  EXPECT_EQ(Blocks(dump, ms_to_ns)[0].events[0].perf_data->raw[0], 3 / 1e-6);
  InspectorOptions cycles;
  cycles.source_time_scale = TimeScale::kCycles;
  auto c = Blocks(dump, cycles);
  EXPECT_EQ(c[0].target_time_scale, TimeScale::kCycles);
  EXPECT_EQ(c[0].events[0].perf_data->raw[0], 3.0);
  InspectorOptions mismatch;
  mismatch.source_time_scale = TimeScale::kCycles;
  mismatch.target_time_scale = TimeScale::kMs;
  EXPECT_NE(GroupingError(dump, mismatch).message.find("cycles"), std::string::npos);
}

TEST(EventBlockBuilderTest, DelegateTimeConverterAppliesToDelegatedEventsOnly) {
  auto dump = Dump({MakeRun("Execute", {DelegateProfile(1, 4, "", 10, 1010),
                                    Profile("DELEGATE_CALL", 0, 1, 0, 2000)})});
  InspectorOptions options;
  std::vector<std::string> seen;
  options.delegate_time_converter = [&](const std::string& name, uint64_t ticks) {
    seen.push_back(name);
    return static_cast<double>(ticks) / 2.0;  // e.g. 2 GHz cycles → ns
  };
  auto blocks = Blocks(dump, options);
  EXPECT_EQ(blocks[0].events[0].perf_data->raw[0], 500.0);
  EXPECT_EQ(blocks[0].events[1].perf_data->raw[0], 2000 / 1e6);
  EXPECT_EQ(seen, (std::vector<std::string>{"4"}));
}

TEST(EventBlockBuilderTest, DelegateMetadataIsKeptPerRunAndParsed) {
  ProfileEventRecord p = DelegateProfile(1, 4, "", 0, 10);
  p.delegate_debug_metadata = {'h', 'i'};
  auto dump = Dump({MakeRun("Execute", {p}), MakeRun("Execute", {p})});
  InspectorOptions options;
  options.delegate_metadata_parser = [](const std::vector<std::vector<uint8_t>>& m) {
    return std::map<std::string, std::string>{{"runs", std::to_string(m.size())}};
  };
  auto blocks = Blocks(dump, options);
  const Event& e = blocks[0].events[0];
  ASSERT_EQ(e.delegate_debug_metadatas.size(), 2u);
  EXPECT_EQ(e.delegate_debug_metadatas[1], (std::vector<uint8_t>{'h', 'i'}));
  EXPECT_EQ(e.delegate_debug_metadata_parsed.at("runs"), "2");
}

// Runs that repeat an earlier run of their name field for field take a
// shorter path (their ticks go straight to the positions of that run's
// events); these runs mix it with every way a run can differ, and each must
// land where the full grouping puts it.
TEST(EventBlockBuilderTest, RepeatedRunsInterleavedWithOthersGroupAsTheFullPathDoes) {
  // Events in file order: the operator call completes after its kernel,
  // and two kernels of one instruction (collated to adjacent positions).
  auto execute = [](uint64_t t, const std::string& last = "native_call_mul.out") {
    return MakeRun("Execute", {Profile("native_call_add.out", 0, 0, t, t + 10),
                               Profile("native_call_add.out", 0, 2, t + 11, t + 12),
                               Profile("OPERATOR_CALL", 0, 0, t, t + 15),
                               Profile(last, 0, 1, t + 20, t + 20 + t / 100),
                               Profile("native_call_add.out", 0, 0, t + 40, t + 47),
                               Profile("Method::execute", -1, 0, t, t + 60)});
  };
  auto other = [](uint64_t t) {
    return MakeRun("Other", {Profile("native_call_sub.out", 0, 0, t, t + 5)});
  };
  RunDataRecord late_metadata = execute(500);
  std::get<ProfileEventRecord>(late_metadata.events[3]).delegate_debug_metadata = {'m'};
  RunDataRecord with_allocation = execute(600);
  with_allocation.allocators = {"planned"};
  with_allocation.events.push_back(AllocationEventRecord{1, 64});
  RunDataRecord bundled = execute(700);
  bundled.bundled_input_index = 3;
  auto blocks = Blocks(Dump({execute(0), execute(100), other(150), execute(200), other(250),
                             execute(300, "native_call_div.out"), execute(400), late_metadata,
                             with_allocation, execute(800), bundled, execute(900)}));
  ASSERT_EQ(blocks.size(), 4u);
  // Execute: runs 0, 1, 3, 6, 7, 8, 9, 11.
  const EventBlock& main = blocks[0];
  EXPECT_EQ(main.run_indices, (std::vector<std::size_t>{0, 1, 3, 6, 7, 8, 9, 11}));
  ASSERT_EQ(main.events.size(), 6u);
  // Collated order: instruction 0 (add, OPERATOR_CALL, add again), 2, 1, then Method::execute.
  std::vector<std::string> names;
  for (const Event& e : main.events) names.push_back(e.name);
  EXPECT_EQ(names, (std::vector<std::string>{"native_call_add.out", "OPERATOR_CALL",
                                             "native_call_add.out", "native_call_add.out",
                                             "native_call_mul.out", "Method::execute"}));
  const std::vector<uint64_t> starts{0, 100, 200, 400, 500, 600, 800, 900};
  EXPECT_EQ(main.events[0].start_ticks, starts);
  EXPECT_EQ(main.events[1].start_ticks, starts);
  std::vector<double> mul;
  for (uint64_t t : starts) mul.push_back(static_cast<double>(t / 100) / 1e6);
  EXPECT_EQ(main.events[4].perf_data->raw, mul);
  EXPECT_EQ(main.events[2].occurrence, 1);
  EXPECT_EQ(main.events[2].perf_data->raw[7], 7 / 1e6);
  // Metadata first seen in the fifth run of the block: one entry per run.
  ASSERT_EQ(main.events[4].delegate_debug_metadatas.size(), 8u);
  EXPECT_TRUE(main.events[4].delegate_debug_metadatas[3].empty());
  EXPECT_EQ(main.events[4].delegate_debug_metadatas[4], (std::vector<uint8_t>{'m'}));
  EXPECT_TRUE(main.events[4].delegate_debug_metadatas[5].empty());
  // Allocations first seen in the sixth run: zero in every other run.
  ASSERT_EQ(main.allocations.size(), 1u);
  EXPECT_EQ(main.allocations[0].bytes_per_run, (std::vector<uint64_t>{0, 0, 0, 0, 0, 64, 0, 0}));
  EXPECT_EQ(blocks[1].name, "Other");
  EXPECT_EQ(blocks[1].run_indices, (std::vector<std::size_t>{2, 4}));
  EXPECT_EQ(blocks[2].run_indices, (std::vector<std::size_t>{5}));  // div instead of mul
  EXPECT_EQ(blocks[2].events[4].name, "native_call_div.out");
  EXPECT_EQ(blocks[3].run_indices, (std::vector<std::size_t>{10}));  // bundled input 3
  EXPECT_EQ(blocks[3].bundled_input_index, 3);
}

// A block's repeating runs have their ticks gathered and moved into the
// columns 32 runs at a time; a run of another block (taking the full path,
// then the fast one) and the end of the file each move what was gathered
// first: every tick lands in run order.
TEST(EventBlockBuilderTest, ManyRepeatedRunsKeepTheirTicksInRunOrder) {
  auto execute = [](uint64_t t) {
    return MakeRun("Execute", {Profile("native_call_add.out", 0, 0, t, t + 1 + t % 7),
                               Profile("OPERATOR_CALL", 0, 0, t, t + 9),
                               Profile("Method::execute", -1, 0, t, t + 20)});
  };
  std::vector<RunDataRecord> runs;
  std::vector<uint64_t> starts;
  std::vector<uint64_t> add_ends;
  for (uint64_t r = 0; r < 80; ++r) {
    const uint64_t t = 100 * r;
    if (r == 45 || r == 70) {
      runs.push_back(MakeRun("Other", {Profile("native_call_sub.out", 0, 0, t + 1, t + 6)}));
    }
    runs.push_back(execute(t));
    starts.push_back(t);
    add_ends.push_back(t + 1 + t % 7);
  }
  auto blocks = Blocks(Dump(runs));
  ASSERT_EQ(blocks.size(), 2u);
  const EventBlock& main = blocks[0];
  ASSERT_EQ(main.run_count, 80u);
  ASSERT_EQ(main.events.size(), 3u);
  for (const Event& e : main.events) EXPECT_EQ(e.start_ticks, starts) << e.name;
  EXPECT_EQ(main.events[0].end_ticks, add_ends);
  EXPECT_EQ(main.events[0].perf_data->raw[79], static_cast<double>(1 + 7900 % 7) / 1e6);
  EXPECT_EQ(main.events[2].end_ticks[79], 7920u);
  EXPECT_EQ(blocks[1].events[0].start_ticks, (std::vector<uint64_t>{4501, 7001}));
}

// The fast path reads a repeating run's events at the offsets the template
// run's tables gave, when both use the same vtables: a run that differs in
// one field (same layout, or a field present in one and absent, the
// default, in the other) must still leave the template.
TEST(EventBlockBuilderTest, RunsDifferingInOneFieldOfTheSameLayoutLeaveTheTemplate) {
  auto run = [](uint64_t t, int32_t instruction, int32_t chain, int32_t id_int,
                const std::string& id_str, const std::string& name) {
    return MakeRun("Execute", {Profile("native_call_add.out", 1, 0, t, t + 10),
                               DelegateProfile(instruction, id_int, id_str, t + 1, t + 2),
                               Profile(name, chain, 2, t + 3, t + 5),
                               Profile("Method::execute", -1, 0, t, t + 20)});
  };
  auto base = [&](uint64_t t) { return run(t, 1, 1, 5, "", "native_call_mul.out"); };
  RunDataRecord zero_start = base(600);
  std::get<ProfileEventRecord>(zero_start.events[0]).start_time = 0;  // field omitted
  auto blocks = Blocks(Dump({base(0), base(100),
                             run(200, 3, 1, 5, "", "native_call_mul.out"),      // instruction
                             base(300), run(400, 1, 1, 6, "", "native_call_mul.out"),  // id int
                             base(500), zero_start,
                             run(700, 1, 1, -1, "x", "native_call_mul.out"),  // id str
                             base(800), run(900, 1, 1, 5, "", "native_call_div.out"),  // name
                             base(1000), run(1100, 1, 2, 5, "", "native_call_mul.out"),  // chain
                             run(1200, 1, 0, 5, "", "native_call_mul.out"),  // chain omitted
                             base(1300)}));
  ASSERT_EQ(blocks.size(), 5u);
  // The chain is not part of the signature: those runs stay in the block.
  EXPECT_EQ(blocks[0].run_indices, (std::vector<std::size_t>{0, 1, 3, 5, 6, 8, 10, 11, 12, 13}));
  EXPECT_EQ(blocks[0].events[0].start_ticks[4], 0u);
  EXPECT_EQ(blocks[0].events[0].perf_data->raw[4], 610 / 1e6);
  EXPECT_EQ(blocks[1].run_indices, (std::vector<std::size_t>{2}));
  EXPECT_EQ(blocks[2].run_indices, (std::vector<std::size_t>{4}));
  EXPECT_EQ(blocks[3].run_indices, (std::vector<std::size_t>{7}));
  EXPECT_EQ(blocks[4].run_indices, (std::vector<std::size_t>{9}));
  EXPECT_EQ(blocks[4].events[2].name, "native_call_div.out");
  for (const EventBlock& b : blocks) {
    for (const Event& e : b.events) EXPECT_EQ(e.start_ticks.size(), b.run_count) << e.name;
  }
}

// --- Where the reference is wrong and etbench is right -------------------

TEST(EventBlockBuilderTest, DuplicateEventsInOneRunAreAllKept) {
  // The same kernel twice in one instruction, and one instruction on two
  // chains: the reference keeps only the last of each; etbench keeps both.
  auto run = [] {
    return MakeRun("Execute", {Profile("native_call_add.out", 0, 0, 0, 10),
                           Profile("native_call_add.out", 0, 0, 20, 50),
                           Profile("native_call_mul.out", 0, 1, 60, 70),
                           Profile("native_call_mul.out", 1, 1, 60, 90)});
  };
  auto blocks = Blocks(Dump({run(), run()}));
  ASSERT_EQ(blocks.size(), 1u);
  const auto& events = blocks[0].events;
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[0].occurrence, 0);
  EXPECT_EQ(events[1].occurrence, 1);
  EXPECT_EQ(events[1].perf_data->raw, (std::vector<double>{30 / 1e6, 30 / 1e6}));
  EXPECT_EQ(events[2].chain_index, 0);
  EXPECT_EQ(events[3].chain_index, 1);
  EXPECT_EQ(events[3].perf_data->raw[0], 30 / 1e6);
}

TEST(EventBlockBuilderTest, AllocationEventsAreAccountedPerAllocator) {
  auto run = [](uint64_t extra) {
    // Allocator ids are 1-based (ETDumpGen::track_allocator): 1 = planned.
    RunDataRecord r = MakeRun("Execute", {Profile("k", 0, 0, 0, 10), AllocationEventRecord{1, 100},
                                      AllocationEventRecord{2, 8},
                                      AllocationEventRecord{1, extra}});
    r.allocators = {"planned", "scratch"};
    return r;
  };
  auto blocks = Blocks(Dump({run(28), run(0)}));
  ASSERT_EQ(blocks.size(), 1u);  // allocations do not change the signature
  ASSERT_EQ(blocks[0].allocations.size(), 2u);
  EXPECT_EQ(blocks[0].allocations[0].name, "planned");
  EXPECT_EQ(blocks[0].allocations[0].bytes_per_run, (std::vector<uint64_t>{128, 100}));
  EXPECT_EQ(blocks[0].allocations[0].count_per_run, (std::vector<uint64_t>{2, 2}));
  EXPECT_EQ(blocks[0].allocations[1].bytes_per_run, (std::vector<uint64_t>{8, 8}));
}

TEST(EventBlockBuilderTest, DelegatedEpochTimestampsSubtractBeforeScaling) {
  // Nanosecond epoch timestamps (~1.7e18) lose precision when converted to
  // ms before subtracting, as the reference does; etbench subtracts first.
  const uint64_t epoch = 1700000000123456789ull;
  auto blocks = Blocks(Dump({MakeRun("Execute", {DelegateProfile(0, 1, "", epoch, epoch + 333)})}));
  EXPECT_EQ(blocks[0].events[0].perf_data->raw[0], 333 / 1e6);
}

TEST(EventBlockBuilderTest, ThirtyTwoBitWrapIsExact) {
  // Counter wrapped: start 2^32 - 16, end 16 → 32 ticks (reference: 31).
  auto blocks = Blocks(Dump({MakeRun("Execute", {Profile("k", 0, 0, 0xFFFFFFF0ull, 0x10)})}),
                       [] {
                         InspectorOptions o;
                         o.source_time_scale = TimeScale::kNs;
                         o.target_time_scale = TimeScale::kNs;
                         return o;
                       }());
  EXPECT_EQ(blocks[0].events[0].perf_data->raw[0], 32.0);
  EXPECT_EQ(ElapsedTicks(0xFFFFFFF0ull, 0x10), 32u);
  EXPECT_EQ(ElapsedTicks(5, 9), 4u);
  EXPECT_FALSE(ElapsedTicks(0x100000000ull, 5).has_value());
}

TEST(EventBlockBuilderTest, BackwardsTimestampsBeyondThirtyTwoBitsAreAnError) {
  Error e = GroupingError(
      Dump({MakeRun("Execute", {Profile("native_call_x.out", 0, 0, 0x200000000ull, 0x100000000ull)})}));
  EXPECT_NE(e.message.find("native_call_x.out"), std::string::npos) << e.message;
  EXPECT_NE(e.message.find("before it starts"), std::string::npos) << e.message;
}

TEST(EventBlockBuilderTest, TensorsAreInflatedFromTheDebugBuffer) {
  DebugEventRecord d;
  d.name = "native_call_relu.out";
  d.instruction_id = 0;
  d.debug_entry.type = ValueType::kTensor;
  d.debug_entry.tensor = TensorRecord{ScalarType::kFloat, {2}, {1}, 4};
  auto dump = Dump({MakeRun("Execute", {d, Profile("native_call_relu.out", 0, 0, 0, 1)})});
  std::vector<uint8_t> buffer(12, 0);
  const float values[2] = {1.5f, -2.0f};
  std::memcpy(buffer.data() + 4, values, sizeof values);
  InspectorOptions options;
  options.debug_buffer = buffer;
  auto blocks = Blocks(dump, options);
  ASSERT_EQ(blocks[0].events[0].debug_data.size(), 1u);
  const TensorValue& t = blocks[0].events[0].debug_data[0].tensors.at(0);
  EXPECT_EQ(TensorElementsAsDouble(t), (std::vector<double>{1.5, -2.0}));
  // Without a buffer the shape is known but the bytes are not.
  auto no_buffer = Blocks(dump);
  EXPECT_FALSE(no_buffer[0].events[0].debug_data[0].tensors.at(0).data.has_value());
  // A tensor that points past the buffer's end is an error.
  options.debug_buffer = std::vector<uint8_t>(8, 0);
  Error e = GroupingError(dump, options);
  EXPECT_NE(e.message.find("outside the debug buffer"), std::string::npos) << e.message;
}

// ETDumpGen writes no events vector for a block in which nothing was logged
// (create_event_block starts the vector only when the first event comes);
// the reference's _gen_from_etdump skips such runs (`run.events is None`).
TEST(EventBlockBuilderTest, RunsWithoutAnEventsVectorMakeNoBlock) {
  auto bytes = [] {
    EtdumpBuilder b;
    b.BeginRun("Default");
    b.AddProfileEvent("Method::init", -1, 0, 1, 2);
    b.BeginRun("Execute");  // nothing logged: no events vector
    b.BeginRun("Execute");
    b.AddProfileEvent("Method::execute", -1, 0, 10, 30);
    b.BeginRun("Empty");    // nothing logged either
    return b.Finish();
  }();
  auto file = EtdumpFile::FromBytes(bytes, "gen.etdp");
  ASSERT_TRUE(file.ok()) << file.error().message;
  const auto* runs = file->root().run_data();
  ASSERT_EQ(runs->size(), 4u);
  EXPECT_EQ(runs->Get(1)->events(), nullptr);
  EXPECT_EQ(runs->Get(3)->events(), nullptr);
  auto blocks = BuildEventBlocks(*file, {});
  ASSERT_TRUE(blocks.ok()) << blocks.error().message;
  ASSERT_EQ(blocks->size(), 2u);
  EXPECT_EQ((*blocks)[0].name, "Default");
  EXPECT_EQ((*blocks)[1].name, "Execute");
  EXPECT_EQ((*blocks)[1].run_count, 1u);
  EXPECT_EQ((*blocks)[1].run_indices, (std::vector<std::size_t>{2}));
  // The record form keeps the distinction.
  EXPECT_FALSE(DecodeEtdump(*file).run_data[1].empty_events_vector);
}

// Other writers may write an explicitly empty vector: the reference then
// forms a 0-event block, placed where its signature first appears.
TEST(EventBlockBuilderTest, ExplicitlyEmptyEventsVectorFormsAZeroEventBlockAtFirstAppearance) {
  RunDataRecord empty = MakeRun("Execute", {});
  empty.empty_events_vector = true;
  RunDataRecord absent = MakeRun("Execute", {});
  auto record = Dump({MakeRun("Default", {Profile("Method::init", -1, 0, 1, 2)}), absent, empty,
                      MakeRun("Execute", {Profile("Method::execute", -1, 0, 10, 30)}), empty});
  EXPECT_EQ(DecodeEtdump(LoadRecord(record)), record);  // both forms round-trip
  auto blocks = Blocks(record);
  ASSERT_EQ(blocks.size(), 3u);
  EXPECT_EQ(blocks[0].name, "Default");
  EXPECT_EQ(blocks[1].name, "Execute");
  EXPECT_TRUE(blocks[1].events.empty());
  EXPECT_EQ(blocks[1].run_indices, (std::vector<std::size_t>{2, 4}));
  EXPECT_FALSE(blocks[1].framework_tax.has_value());
  EXPECT_EQ(blocks[2].events.size(), 1u);
  EXPECT_EQ(blocks[2].run_indices, (std::vector<std::size_t>{3}));
}

DebugEventRecord TensorDebug(int32_t instruction, TensorRecord tensor, bool output = false) {
  DebugEventRecord d;
  d.instruction_id = instruction;
  d.debug_entry.type = ValueType::kTensor;
  d.debug_entry.tensor = std::move(tensor);
  if (output) d.debug_entry.output = true;
  return d;
}

// ETDumpGen::write_tensor_or_return_error returns static_cast<size_t>(-1)
// for a tensor of 0 bytes; the reference's _parse_tensor_value returns an
// empty tensor for any 0-byte tensor without reading the buffer.
TEST(EventBlockBuilderTest, EmptyTensorsAtOffsetMinusOneAreEmptyValues) {
  DebugEventRecord list;
  list.instruction_id = 1;
  list.debug_entry.type = ValueType::kTensorList;
  list.debug_entry.tensor_list = {TensorRecord{ScalarType::kFloat, {2, 0}, {0, 1}, -1},
                                  TensorRecord{ScalarType::kInt, {1}, {1}, 0}};
  auto record = Dump({MakeRun(
      "Execute", {TensorDebug(0, TensorRecord{ScalarType::kFloat, {0}, {1}, -1}),
                  Profile("native_call_a.out", 0, 0, 0, 5), list,
                  Profile("native_call_b.out", 0, 1, 5, 9),
                  TensorDebug(0, TensorRecord{ScalarType::kLong, {3, 0}, {1, 1}, -1}, true)})});
  InspectorOptions options;
  options.debug_buffer = std::vector<uint8_t>{7, 0, 0, 0};
  auto blocks = Blocks(record, options);
  ASSERT_EQ(blocks.size(), 1u);
  const TensorValue& empty = blocks[0].events[0].debug_data.at(0).tensors.at(0);
  ASSERT_TRUE(empty.data.has_value());
  EXPECT_TRUE(empty.data->empty());
  EXPECT_EQ(empty.sizes, (std::vector<int64_t>{0}));
  const auto& tensors = blocks[0].events[1].debug_data.at(0).tensors;
  ASSERT_EQ(tensors.size(), 2u);
  EXPECT_TRUE(tensors[0].data.has_value() && tensors[0].data->empty());
  EXPECT_EQ(TensorElementsAsDouble(tensors[1]), (std::vector<double>{7}));
  ASSERT_EQ(blocks[0].run_output.size(), 1u);
  EXPECT_TRUE(blocks[0].run_output[0].tensors.at(0).data->empty());
  // Without a buffer an empty tensor is as unknown as any other.
  EXPECT_FALSE(Blocks(record)[0].events[0].debug_data.at(0).tensors.at(0).data.has_value());
}

// numel and numel * element_size used to be multiplied unchecked: 2^32 x
// 2^32 bytes wrapped to 0 and passed the bounds check.
TEST(EventBlockBuilderTest, TensorByteSizesThatOverflowAreRejected) {
  const int64_t big = int64_t{1} << 32;
  InspectorOptions options;
  options.debug_buffer = std::vector<uint8_t>(16, 0);
  for (const auto& sizes : std::vector<std::vector<int64_t>>{{big, big}, {big, big / 2, 2}}) {
    auto record = Dump({MakeRun("Execute", {TensorDebug(0, TensorRecord{ScalarType::kByte, sizes,
                                                                         {}, 0}),
                                            Profile("native_call_a.out", 0, 0, 0, 5)})});
    Error e = GroupingError(record, options);
    EXPECT_NE(e.message.find("overflows 64 bits"), std::string::npos) << e.message;
    EXPECT_NE(e.message.find("native_call_a.out"), std::string::npos) << e.message;
  }
  // Element size too: 2^62 FLOATs are 2^64 bytes.
  auto record = Dump({MakeRun("Execute", {TensorDebug(0, TensorRecord{ScalarType::kFloat,
                                                                       {int64_t{1} << 62}, {}, 0}),
                                          Profile("native_call_a.out", 0, 0, 0, 5)})});
  EXPECT_NE(GroupingError(record, options).message.find("overflows"), std::string::npos);
}

// The reference collates an Event with profile_event and debug_event set
// as its profile event, and still collects the debug member as a program
// output when it is flagged as one (_collect_run_outputs).
TEST(EventBlockBuilderTest, EventWithProfileAndDebugMembersIsReadAsTheReferenceDoes) {
  flatbuffers::FlatBufferBuilder fbb;
  auto output_value = fb::CreateValue(fbb, fb::ValueType::Int, 0, 0, fb::CreateInt(fbb, 9), 0, 0,
                                      0, fb::CreateBool(fbb, true));
  auto debug = fb::CreateDebugEvent(fbb, 0, 0, output_value);
  auto profile = fb::CreateProfileEvent(fbb, fbb.CreateString("native_call_a.out"), 0, 0, -1, 0,
                                        0, 100, 150);
  auto allocation = fb::CreateAllocationEvent(fbb, 1, 64);
  std::vector<flatbuffers::Offset<fb::Event>> events = {
      fb::CreateEvent(fbb, profile, allocation, debug)};
  auto allocators = std::vector<flatbuffers::Offset<fb::Allocator>>{
      fb::CreateAllocator(fbb, fbb.CreateString("pool"))};
  auto run = fb::CreateRunData(fbb, fbb.CreateString("Execute"), -1, fbb.CreateVector(allocators),
                               fbb.CreateVector(events));
  fb::FinishSizePrefixedETDumpBuffer(fbb, fb::CreateETDump(fbb, 0, fbb.CreateVector(&run, 1)));
  auto file = EtdumpFile::FromBytes(
      std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()));
  ASSERT_TRUE(file.ok()) << file.error().message;
  EXPECT_EQ(file->warnings().size(), 1u);
  auto blocks = BuildEventBlocks(*file, {});
  ASSERT_TRUE(blocks.ok()) << blocks.error().message;
  ASSERT_EQ((*blocks)[0].events.size(), 1u);
  EXPECT_EQ((*blocks)[0].events[0].name, "native_call_a.out");
  EXPECT_EQ((*blocks)[0].events[0].perf_data->raw[0], 50 / 1e6);
  EXPECT_TRUE((*blocks)[0].events[0].debug_data.empty());
  ASSERT_EQ((*blocks)[0].run_output.size(), 1u);
  EXPECT_EQ((*blocks)[0].run_output[0].int_value, 9);
  EXPECT_TRUE((*blocks)[0].allocations.empty());  // the allocation member is not read
}

}  // namespace
}  // namespace etbench

namespace etbench {
namespace {

void ExpectSameStatistics(const PerfData& got, const PerfData& want, const std::string& what) {
  EXPECT_EQ(got.count, want.count) << what;
  EXPECT_EQ(got.p10, want.p10) << what;
  EXPECT_EQ(got.p50, want.p50) << what;
  EXPECT_EQ(got.p90, want.p90) << what;
  EXPECT_EQ(got.min, want.min) << what;
  EXPECT_EQ(got.max, want.max) << what;
  EXPECT_EQ(got.avg, want.avg) << what;
  EXPECT_EQ(got.stddev, want.stddev) << what;
}

// An event's statistics come from its ticks (a histogram of the elapsed
// ticks, with buckets of one tick or wider): they must be, to the bit, the
// statistics of its durations, for narrow and wide ranges of ticks, one
// huge outlier, ties, a 32-bit wrap, several run counts and time scales.
TEST(EventBlockBuilderTest, StatisticsFromTicksEqualThoseOfTheDurations) {
  std::mt19937_64 rng(3);
  for (std::size_t runs : {1u, 2u, 3u, 7u, 64u, 65u, 200u, 1000u, 9000u}) {
    EtdumpRecord dump;
    for (std::size_t r = 0; r < runs; ++r) {
      RunDataRecord run;
      run.name = "Execute";
      const uint64_t base = 1000000 * (r + 1);
      auto add = [&](const char* name, int ins, uint64_t elapsed) {
        run.events.push_back(Profile(name, 0, ins, base, base + elapsed));
      };
      add("native_call_narrow.out", 0, 500 + rng() % 40);               // buckets of one tick
      add("native_call_wide.out", 1, 500 + rng() % 1000000);            // wider buckets
      add("native_call_outlier.out", 2, r == runs / 2 ? 1u << 30 : 2000 + rng() % 7);
      add("native_call_equal.out", 3, 1234);
      add("native_call_skewed.out", 4, (rng() % 10 == 0) ? 100000 + rng() % 100000 : 10);
      // A 32-bit counter wrap: ends below its start.
      run.events.push_back(Profile("native_call_wrap.out", 0, 5, 0xFFFFFF00u, 0x40 + rng() % 300));
      dump.run_data.push_back(run);
    }
    for (TimeScale source : {TimeScale::kNs, TimeScale::kCycles}) {
      InspectorOptions options;
      options.source_time_scale = source;
      if (source == TimeScale::kNs) options.target_time_scale = TimeScale::kUs;
      const std::vector<EventBlock> blocks = Blocks(dump, options);
      ASSERT_EQ(blocks.size(), 1u);
      for (const Event& e : blocks[0].events) {
        ASSERT_TRUE(e.perf_data.has_value());
        ExpectSameStatistics(*e.perf_data, PerfData::FromRaw(e.perf_data->raw),
                             e.name + " over " + std::to_string(runs) + " runs");
      }
    }
  }
}

}  // namespace
}  // namespace etbench
