#include "etbench/harness/etdump_processing.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "etbench/inspector/etdump_writer.h"
#include "harness_test_util.h"

namespace etbench::harness {
namespace {

using etbench::testing::MakeExecuteEtdump;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

const results::EventResult& FindEvent(const results::BlockResult& block, const std::string& name) {
  for (const results::EventResult& e : block.events) {
    if (e.name == name) return e;
  }
  ADD_FAILURE() << "no event " << name;
  static const results::EventResult kNone;
  return kNone;
}

const results::BlockResult& FindBlock(const std::vector<results::BlockResult>& blocks, const std::string& name) {
  for (const results::BlockResult& b : blocks) {
    if (b.name == name) return b;
  }
  ADD_FAILURE() << "no block " << name;
  static const results::BlockResult kNone;
  return kNone;
}

TEST(HarnessEtdumpProcessingTest, WarmupRunsAreDroppedBeforeStatistics) {
  EtdumpProcessOptions options;
  options.warmup_runs = 2;
  options.expected_execute_runs = 5;
  auto p =
      ProcessEtdump(MakeExecuteEtdump({9000000, 8000000, 1000000, 2000000, 3000000}), "x", options);
  ASSERT_TRUE(p.ok()) << p.error().message;
  FinalizeBlockStats(&p->blocks);
  EXPECT_EQ(p->execute_runs, 5u);
  EXPECT_EQ(p->warmup_runs_dropped, 2u);
  const results::BlockResult& execute = FindBlock(p->blocks, "Execute");
  EXPECT_EQ(execute.run_count, 3u);
  const results::EventResult& e = FindEvent(execute, "Method::execute");
  EXPECT_THAT(e.perf_data.raw, ElementsAre(1.0, 2.0, 3.0));  // ms
  EXPECT_EQ(e.perf_data.max, 3.0);
  EXPECT_EQ(e.perf_data.count, 3u);
  ASSERT_TRUE(execute.framework_tax.has_value());
  EXPECT_EQ(execute.framework_tax->count, 3u);
  EXPECT_NEAR(execute.framework_tax->p50, 50.0, 0.1);
  // The Default block is not an Execute run and stays.
  EXPECT_EQ(FindBlock(p->blocks, "Default").run_count, 1u);
}

// ETDumpGen writes no events vector for a block in which nothing was
// logged; such a run is no execution (the reference makes no block of it).
TEST(HarnessEtdumpProcessingTest, ExecuteRunsWithoutAnEventsVectorAreNotCounted) {
  EtdumpBuilder b;
  b.BeginRun("Execute");  // nothing logged
  for (uint64_t r = 0; r < 3; ++r) {
    b.BeginRun("Execute");
    b.AddProfileEvent("Method::execute", -1, 0, 100 * r, 100 * r + 50);
  }
  EtdumpProcessOptions options;
  options.warmup_runs = 1;
  options.expected_execute_runs = 3;
  auto p = ProcessEtdump(b.Finish(), "gen.etdp", options);
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(p->execute_runs, 3u);
  ASSERT_EQ(p->blocks.size(), 1u);
  EXPECT_EQ(p->blocks[0].run_count, 2u);  // the first real run was the warm-up
}

TEST(HarnessEtdumpProcessingTest, RunCountsAreChecked) {
  EtdumpProcessOptions options;
  options.warmup_runs = 1;
  options.expected_execute_runs = 4;
  auto p = ProcessEtdump(MakeExecuteEtdump({1, 2, 3}), "dump.etdp", options);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().message,
            "dump.etdp: the ETDump has 3 Execute runs, expected 4 (1 warm-up + 3 iterations)");
  options.expected_execute_runs.reset();
  options.warmup_runs = 3;
  p = ProcessEtdump(MakeExecuteEtdump({1, 2, 3}), "dump.etdp", options);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().message,
            "dump.etdp: the ETDump has 3 Execute runs; more than the 3 warm-up runs are needed");
}

TEST(HarnessEtdumpProcessingTest, EmptyAndGarbageBytesAreClearErrors) {
  auto p = ProcessEtdump({}, "e.etdp", {});
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().message, "e.etdp: the ETDump is empty");
  p = ProcessEtdump(std::vector<uint8_t>(100, 0xab), "g.etdp", {});
  ASSERT_FALSE(p.ok());
  EXPECT_THAT(p.error().message, HasSubstr("invalid ETDump: g.etdp"));
}

TEST(HarnessEtdumpProcessingTest, CyclesBecomeTimeWithTheTickRate) {
  EtdumpProcessOptions options;
  options.time_source = "cycles";
  options.tick_rate_hz = 2e9;
  options.unit = "us";
  auto p = ProcessEtdump(MakeExecuteEtdump({2000000, 4000000}), "c", options);
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_THAT(FindEvent(FindBlock(p->blocks, "Execute"), "Method::execute").perf_data.raw,
              ElementsAre(1000.0, 2000.0));
  options.unit = "cycles";
  p = ProcessEtdump(MakeExecuteEtdump({2000000}), "c", options);
  ASSERT_TRUE(p.ok());
  EXPECT_THAT(FindEvent(FindBlock(p->blocks, "Execute"), "Method::execute").perf_data.raw,
              ElementsAre(2000000.0));
  options.time_source = "ns";
  p = ProcessEtdump(MakeExecuteEtdump({2000000}), "c", options);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().message, "c: unit cycles needs time source cycles, the run used ns");
}

TEST(HarnessEtdumpProcessingTest, DelegateCyclesAreConvertedWithTheirOwnRate) {
  EtdumpBuilder builder;
  builder.BeginRun("Execute");
  ProfileEventRecord delegate;
  delegate.chain_index = 0;
  delegate.instruction_id = 0;
  delegate.delegate_debug_id_int = 7;
  delegate.start_time = 0;
  delegate.end_time = 3000;  // cycles at 3 GHz: 1 µs
  builder.AddProfileEvent(delegate);
  builder.AddProfileEvent("DELEGATE_CALL", 0, 0, 100, 1100);
  builder.AddProfileEvent("Method::execute", -1, 0, 0, 2000);
  builder.EndRun();
  EtdumpProcessOptions options;
  options.unit = "us";
  options.delegate_time_sources = {"cycles"};
  options.delegate_cycles_hz = 3e9;
  auto p = ProcessEtdump(builder.Finish(), "d", options);
  ASSERT_TRUE(p.ok()) << p.error().message;
  const results::BlockResult& block = FindBlock(p->blocks, "Execute");
  EXPECT_THAT(FindEvent(block, "7").perf_data.raw, ElementsAre(1.0));
  EXPECT_THAT(FindEvent(block, "Method::execute").perf_data.raw, ElementsAre(2.0));
  options.delegate_cycles_hz.reset();
  EXPECT_FALSE(ProcessEtdump(MakeExecuteEtdump({1}), "d", options).ok());
}

TEST(HarnessEtdumpProcessingTest, RepetitionsConcatenateInRunOrder) {
  EtdumpProcessOptions options;
  auto a = ProcessEtdump(MakeExecuteEtdump({1000000, 2000000}), "a", options);
  auto b = ProcessEtdump(MakeExecuteEtdump({3000000}), "b", options);
  ASSERT_TRUE(a.ok() && b.ok());
  std::vector<results::BlockResult> model;
  AppendRepetitionBlocks(&model, std::move(a->blocks));
  AppendRepetitionBlocks(&model, std::move(b->blocks));
  FinalizeBlockStats(&model);
  ASSERT_EQ(model.size(), 2u);
  const results::BlockResult& execute = FindBlock(model, "Execute");
  EXPECT_EQ(execute.run_count, 3u);
  const results::EventResult& e = FindEvent(execute, "Method::execute");
  EXPECT_THAT(e.perf_data.raw, ElementsAre(1.0, 2.0, 3.0));
  EXPECT_EQ(e.perf_data.count, 3u);
  EXPECT_EQ(e.perf_data.p50, 2.0);
  EXPECT_EQ(execute.framework_tax->count, 3u);
  EXPECT_EQ(FindBlock(model, "Default").run_count, 2u);
  EXPECT_EQ(FindEvent(FindBlock(model, "Default"), "Method::init").perf_data.count, 2u);
}

TEST(HarnessEtdumpProcessingTest, BlocksWithDifferentEventsStaySeparate) {
  auto a = ProcessEtdump(MakeExecuteEtdump({1000000}, 2), "a", {});
  auto b = ProcessEtdump(MakeExecuteEtdump({1000000}, 3), "b", {});
  ASSERT_TRUE(a.ok() && b.ok());
  std::vector<results::BlockResult> model;
  AppendRepetitionBlocks(&model, std::move(a->blocks));
  AppendRepetitionBlocks(&model, std::move(b->blocks));
  FinalizeBlockStats(&model);
  ASSERT_EQ(model.size(), 3u);  // Default (merged), Execute x2
  EXPECT_EQ(model[1].name, "Execute");
  EXPECT_EQ(model[2].name, "Execute");
  EXPECT_EQ(model[1].events.size() + 2, model[2].events.size());
}

TEST(HarnessEtdumpProcessingTest, WarmupRunsThatDifferFromTheRestLeaveNoBlock) {
  // The first (warm-up) run has an extra instruction: its own block, dropped.
  EtdumpBuilder builder;
  for (int run = 0; run < 3; ++run) {
    builder.BeginRun("Execute");
    const uint64_t t = static_cast<uint64_t>(run) * 100000;
    if (run == 0) builder.AddProfileEvent("native_call_first_time.out", 0, 5, t + 1, t + 2);
    builder.AddProfileEvent("Method::execute", -1, 0, t, t + 1000);
    builder.EndRun();
  }
  EtdumpProcessOptions options;
  options.warmup_runs = 1;
  auto p = ProcessEtdump(builder.Finish(), "w", options);
  ASSERT_TRUE(p.ok()) << p.error().message;
  ASSERT_EQ(p->blocks.size(), 1u);
  EXPECT_EQ(p->blocks[0].run_count, 2u);
  EXPECT_EQ(p->blocks[0].events.size(), 1u);
}

}  // namespace
}  // namespace etbench::harness
