#include "etbench/inspector/legacy_convert.h"

#include <gtest/gtest.h>

#include "etbench/inspector/etdump_file.h"
#include "etbench/inspector/etdump_writer.h"
#include "etbench/inspector/inspector.h"
#include "etbench/inspector/legacy_tables.h"
#include "inspector/analysis/legacy_profile_writer.h"

namespace etbench {
namespace {

using testing::SampleLegacyBlocks;
using testing::WriteLegacyProfile;

LegacyProfile Sample() {
  Result<LegacyProfile> profile = ParseLegacyProfile(
      WriteLegacyProfile(SampleLegacyBlocks()), "prof_result.bin");
  EXPECT_TRUE(profile.ok()) << profile.error().message;
  return std::move(profile).value();
}

const ProfileEventRecord& ProfileAt(const RunDataRecord& run, std::size_t i) {
  return std::get<ProfileEventRecord>(run.events.at(i));
}

TEST(LegacyConvertTest, OneRunDataPerIterationInCompletionOrder) {
  const Result<EtdumpRecord> record = ConvertLegacyToEtdump(Sample());
  ASSERT_TRUE(record.ok()) << record.error().message;
  ASSERT_EQ(record->run_data.size(), 4u);
  EXPECT_EQ(record->run_data[0].name, "default");
  EXPECT_EQ(record->run_data[3].name, "Execute");

  const RunDataRecord& run = record->run_data[1];
  ASSERT_EQ(run.events.size(), 6u);
  // The runtime writes events when they end: kernels before their
  // OPERATOR_CALL, Method::execute last.
  const std::vector<std::string> names{
      "native_call_add.out", "OPERATOR_CALL",    "native_call_mul.out",
      "OPERATOR_CALL",       "delegate_execute", "Method::execute"};
  for (std::size_t i = 0; i < names.size(); ++i)
    EXPECT_EQ(ProfileAt(run, i).name, names[i]);
  const ProfileEventRecord& execute = ProfileAt(run, 5);
  EXPECT_EQ(execute.chain_index, -1);
  EXPECT_EQ(execute.instruction_id, 0);
  EXPECT_EQ(execute.start_time, 10000000u);
  EXPECT_EQ(execute.end_time, 11000000u);
  EXPECT_EQ(ProfileAt(run, 2).instruction_id, 1);
  // Iteration 2 has a zero-length delegate_execute; the order stays that of
  // the first iteration so that all iterations keep one signature.
  EXPECT_EQ(ProfileAt(record->run_data[3], 4).name, "delegate_execute");
}

TEST(LegacyConvertTest, AllocatorsAndAllocationsBecomeAllocationEvents) {
  const Result<EtdumpRecord> record = ConvertLegacyToEtdump(Sample());
  ASSERT_TRUE(record.ok());
  const RunDataRecord& init = record->run_data[0];
  EXPECT_EQ(init.allocators, (std::vector<std::string>{"planned", "runtime"}));
  ASSERT_EQ(init.events.size(), 4u);
  const auto& third = std::get<AllocationEventRecord>(init.events[3]);
  EXPECT_EQ(third.allocator_id, 1);  // ETDump allocator ids are 1-based
  EXPECT_EQ(third.allocation_size, 512u);
}

TEST(LegacyConvertTest, AllocatorsDeclaredElsewhereAreCopiedIn) {
  std::vector<testing::LegacyBlockSpec> blocks = SampleLegacyBlocks();
  for (std::size_t b = 1; b < blocks.size(); ++b)
    blocks[b].allocations = {{1, 32}};
  Result<LegacyProfile> profile =
      ParseLegacyProfile(WriteLegacyProfile(blocks));
  ASSERT_TRUE(profile.ok()) << profile.error().message;
  const Result<EtdumpRecord> record = ConvertLegacyToEtdump(profile.value());
  ASSERT_TRUE(record.ok());
  EXPECT_EQ(record->run_data[2].allocators,
            (std::vector<std::string>{"runtime"}));
  EXPECT_EQ(std::get<AllocationEventRecord>(record->run_data[2].events.back())
                .allocator_id,
            1);
}

TEST(LegacyConvertTest, RoundTripsThroughAnEtdumpFile) {
  const Result<EtdumpRecord> record = ConvertLegacyToEtdump(Sample());
  ASSERT_TRUE(record.ok());
  Result<EtdumpFile> file =
      EtdumpFile::FromBytes(WriteEtdump(record.value()), "converted.etdp");
  ASSERT_TRUE(file.ok()) << file.error().message;
  EXPECT_EQ(DecodeEtdump(file.value()), record.value());

  // The inspector sees one block per legacy block, one run per iteration,
  // with the legacy durations (unrounded) and framework tax.
  const Result<std::vector<EventBlock>> blocks =
      BuildEventBlocks(file.value(), {});
  ASSERT_TRUE(blocks.ok()) << blocks.error().message;
  ASSERT_EQ(blocks->size(), 2u);
  const EventBlock& execute = (*blocks)[1];
  EXPECT_EQ(execute.name, "Execute");
  EXPECT_EQ(execute.run_count, 3u);
  const Result<LegacyTables> tables =
      ComputeLegacyTables(Sample(), TimeScale::kNs);
  ASSERT_TRUE(tables.ok());
  for (const LegacyEventDurations& legacy : tables->blocks[1].events) {
    SCOPED_TRACE(legacy.name + " " + std::to_string(legacy.instruction_index));
    const Event* match = nullptr;
    for (const Event& e : execute.events) {
      if (e.name == legacy.name &&
          e.instruction_id == static_cast<int32_t>(legacy.instruction_index)) {
        match = &e;
      }
    }
    ASSERT_NE(match, nullptr);
    ASSERT_TRUE(match->perf_data.has_value());
    for (std::size_t i = 0; i < 3; ++i) {
      EXPECT_EQ(match->end_ticks[i] - match->start_ticks[i],
                legacy.elapsed_ticks[i]);
      EXPECT_NEAR(match->perf_data->raw[i], legacy.durations[i], 0.00005);
    }
  }
  ASSERT_TRUE(execute.framework_tax.has_value());
  EXPECT_NEAR(execute.framework_tax->raw[1],
              tables->blocks[1].framework_tax->framework_tax_percent[1], 0.01);
  ASSERT_EQ((*blocks)[0].allocations.size(), 2u);
  EXPECT_EQ((*blocks)[0].allocations[0].name, "planned");
  EXPECT_EQ((*blocks)[0].allocations[0].bytes_per_run,
            (std::vector<uint64_t>{1536}));
}

}  // namespace
}  // namespace etbench
