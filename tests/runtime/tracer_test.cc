#include "etbench/runtime/tracer.h"

#include <gtest/gtest.h>

#include "runtime_test_util.h"

namespace etbench::runtime {
namespace {

using testing::DecodeOrFail;

TEST(RuntimeTracerTest, RecordsEventsInCompletionOrderPerBlock) {
  Tracer tracer(TimeSource::kNs);
  const uint32_t block = tracer.Intern("Execute");
  const uint32_t outer = tracer.Intern("OPERATOR_CALL");
  const uint32_t inner = tracer.Intern("native_call_relu.out");
  EXPECT_EQ(tracer.Intern("Execute"), block);  // interned once
  tracer.BeginRun(block);
  {
    ProfileScope op(tracer, outer, 0, 7);
    ProfileScope kernel(tracer, inner, 0, 7);
  }
  tracer.EndRun();
  tracer.BeginRun(block, 3);
  tracer.EndProfiling(inner, 0, 1, tracer.Now());
  tracer.EndRun();

  const EtdumpRecord record = DecodeOrFail(tracer.ToEtdump());
  ASSERT_EQ(record.run_data.size(), 2u);
  const auto& first = record.run_data[0];
  EXPECT_EQ(first.name, "Execute");
  EXPECT_EQ(first.bundled_input_index, -1);
  ASSERT_EQ(first.events.size(), 2u);
  const auto& k = std::get<ProfileEventRecord>(first.events[0]);
  const auto& o = std::get<ProfileEventRecord>(first.events[1]);
  EXPECT_EQ(k.name, "native_call_relu.out");  // inner ends first
  EXPECT_EQ(o.name, "OPERATOR_CALL");
  EXPECT_EQ(o.instruction_id, 7);
  EXPECT_LE(o.start_time, k.start_time);
  EXPECT_LE(k.end_time, o.end_time);
  EXPECT_EQ(record.run_data[1].bundled_input_index, 3);
  EXPECT_EQ(record.run_data[1].events.size(), 1u);
}

TEST(RuntimeTracerTest, DelegateEventsKeepIdsAndMetadata) {
  Tracer tracer(TimeSource::kNs);
  tracer.BeginRun(tracer.Intern("Execute"));
  tracer.LogProfilingDelegate(0, 2, 5, "", {1, 2, 3}, 100, 200);
  tracer.LogProfilingDelegate(0, 2, -1, "conv+relu", {}, 200, 250);
  tracer.EndRun();
  const EtdumpRecord record = DecodeOrFail(tracer.ToEtdump());
  ASSERT_EQ(record.run_data[0].events.size(), 2u);
  const auto& a = std::get<ProfileEventRecord>(record.run_data[0].events[0]);
  const auto& b = std::get<ProfileEventRecord>(record.run_data[0].events[1]);
  EXPECT_EQ(a.name, "");
  EXPECT_EQ(a.delegate_debug_id_int, 5);
  EXPECT_EQ(a.delegate_debug_id_str, "");
  EXPECT_EQ(a.delegate_debug_metadata, (std::vector<uint8_t>{1, 2, 3}));
  EXPECT_EQ(a.instruction_id, 2);
  EXPECT_EQ(a.start_time, 100u);
  EXPECT_EQ(a.end_time, 200u);
  EXPECT_EQ(b.delegate_debug_id_int, -1);
  EXPECT_EQ(b.delegate_debug_id_str, "conv+relu");
  EXPECT_TRUE(b.delegate_debug_metadata.empty());
}

// 1-based, like ETDumpGen::track_allocator (the vector's length after the
// push), restarting in every block.
TEST(RuntimeTracerTest, AllocatorIdsAreOneBasedAndRestartInEveryBlock) {
  Tracer tracer(TimeSource::kNs);
  const uint32_t name = tracer.Intern("Default");
  tracer.BeginRun(name);
  EXPECT_EQ(tracer.TrackAllocator("a"), 1);
  EXPECT_EQ(tracer.TrackAllocator("b"), 2);
  tracer.TrackAllocation(2, 64);
  tracer.EndRun();
  tracer.BeginRun(name);
  EXPECT_EQ(tracer.TrackAllocator("c"), 1);
  tracer.TrackAllocation(1, 128);
  tracer.EndRun();
  const EtdumpRecord record = DecodeOrFail(tracer.ToEtdump());
  EXPECT_EQ(record.run_data[0].allocators, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(record.run_data[1].allocators, (std::vector<std::string>{"c"}));
  const auto& allocation =
      std::get<AllocationEventRecord>(record.run_data[1].events[0]);
  EXPECT_EQ(allocation.allocator_id, 1);
  EXPECT_EQ(allocation.allocation_size, 128u);
}

TEST(RuntimeTracerTest, CycleTimeSourceRecordsIncreasingTicks) {
  if (!CycleCounterAvailable()) GTEST_SKIP() << "no cycle counter";
  Tracer tracer(TimeSource::kCycles);
  const uint64_t a = tracer.Now();
  const uint64_t b = tracer.Now();
  EXPECT_LE(a, b);
  EXPECT_GT(a, 0u);
}

}  // namespace
}  // namespace etbench::runtime
