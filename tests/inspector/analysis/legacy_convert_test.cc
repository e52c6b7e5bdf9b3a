#include "etbench/inspector/legacy_convert.h"

#include <gtest/gtest.h>

#include <cmath>

#include "etbench/inspector/etdump_file.h"
#include "etbench/inspector/etdump_writer.h"
#include "etbench/inspector/inspector.h"
#include "etbench/inspector/legacy_tables.h"
#include "inspector/analysis/legacy_profile_writer.h"

namespace etbench {
namespace {

using testing::ConvertAndRead;
using testing::SampleLegacyBlocks;
using testing::WriteLegacyProfile;

LegacyProfile Sample() { return testing::SampleLegacyProfile(); }

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
                legacy.elapsed_ticks[i].value());
      EXPECT_NEAR(match->perf_data->raw[i], legacy.durations[i], 0.00005);
    }
  }
  // One tax: the converted file's is the legacy tables' tick-exact one.
  ASSERT_TRUE(execute.framework_tax.has_value());
  EXPECT_EQ(execute.framework_tax->raw,
            tables->blocks[1].framework_tax->framework_tax_percent);
  ASSERT_EQ((*blocks)[0].allocations.size(), 2u);
  EXPECT_EQ((*blocks)[0].allocations[0].name, "planned");
  EXPECT_EQ((*blocks)[0].allocations[0].bytes_per_run,
            (std::vector<uint64_t>{1536}));
}

TEST(LegacyConvertTest, NestedDelegateScopesGiveTheLegacyTax) {
  // DELEGATE_CALL ⊃ delegate_execute: counted once in both paths (not the
  // −85% of counting both).
  Result<LegacyProfile> profile = ParseLegacyProfile(WriteLegacyProfile(
      {testing::DelegateIteration(0, 1000000, 900000, 50000),
       testing::DelegateIteration(2000000, 2000000, 1800000, 100000)}));
  ASSERT_TRUE(profile.ok()) << profile.error().message;
  const Result<std::vector<EventBlock>> blocks = ConvertAndRead(profile.value());
  ASSERT_TRUE(blocks.ok()) << blocks.error().message;
  ASSERT_EQ(blocks->size(), 1u);
  ASSERT_TRUE((*blocks)[0].framework_tax.has_value());
  const Result<LegacyTables> tables = ComputeLegacyTables(profile.value());
  ASSERT_TRUE(tables.ok());
  EXPECT_EQ((*blocks)[0].framework_tax->raw,
            tables->blocks[0].framework_tax->framework_tax_percent);
  EXPECT_DOUBLE_EQ((*blocks)[0].framework_tax->raw[0], 4.6);
}

TEST(LegacyConvertTest, UnfinishedScopesAreLeftOut) {
  // A scope around the dump, still open (end_time 0) in the last iteration,
  // started after 2^32 ns: not an error, not a 4.29 s wrap.
  std::vector<testing::LegacyBlockSpec> blocks = SampleLegacyBlocks();
  for (std::size_t b = 1; b < blocks.size(); ++b) {
    blocks[b].entries.insert(blocks[b].entries.begin(),
                             testing::Entry("run model", -1, 0, 5000000 * b,
                                            5000000 * b + 4000000));
  }
  blocks[3].entries[0] =
      testing::Entry("run model", -1, 0, 0x100000000ull + 5, 0);
  Result<LegacyProfile> profile =
      ParseLegacyProfile(WriteLegacyProfile(blocks), "prof_result.bin");
  ASSERT_TRUE(profile.ok()) << profile.error().message;
  const Result<EtdumpRecord> record = ConvertLegacyToEtdump(profile.value());
  ASSERT_TRUE(record.ok()) << record.error().message;
  EXPECT_EQ(record->run_data[2].events.size(), 7u);
  ASSERT_EQ(record->run_data[3].events.size(), 6u);  // "run model" left out
  for (const auto& event : record->run_data[3].events) {
    EXPECT_NE(std::get<ProfileEventRecord>(event).name, "run model");
  }
  const Result<std::vector<EventBlock>> read = ConvertAndRead(profile.value());
  ASSERT_TRUE(read.ok()) << read.error().message;
  // The iteration without "run model" has a signature of its own.
  ASSERT_EQ(read->size(), 3u);
  EXPECT_EQ((*read)[1].run_count, 2u);
  EXPECT_EQ((*read)[2].name, "Execute");
  EXPECT_EQ((*read)[2].run_count, 1u);
  for (const EventBlock& block : *read) {
    for (const Event& e : block.events) {
      if (e.perf_data) {
        EXPECT_LT(e.perf_data->max, 5.0) << e.name;  // ms
      }
    }
  }
}

TEST(LegacyConvertTest, RejectsWhatTheTablesReject) {
  std::vector<testing::LegacyBlockSpec> blocks = SampleLegacyBlocks();
  blocks[2].entries[3].start_time = 0x100000000ull;  // ends before it starts
  Result<LegacyProfile> profile =
      ParseLegacyProfile(WriteLegacyProfile(blocks), "p.bin");
  ASSERT_TRUE(profile.ok()) << profile.error().message;
  const Result<LegacyTables> tables = ComputeLegacyTables(profile.value());
  const Result<EtdumpRecord> record = ConvertLegacyToEtdump(profile.value());
  ASSERT_FALSE(tables.ok());
  ASSERT_FALSE(record.ok());
  EXPECT_EQ(record.error().message, tables.error().message);
  EXPECT_EQ(record.error().message,
            "p.bin: block 'Execute' iteration 1, profile entry 3 "
            "'OPERATOR_CALL': ends at 20595555 before it starts at 4294967296 "
            "(not a 32-bit counter wrap)");
}

TEST(LegacyConvertTest, EveryConvertedProfileReadsBack) {
  // Seeded random profiles with every kind of timestamp pair: finished,
  // zero-length, 32-bit wraps, unfinished (end 0) below and above 2^32,
  // backwards. convert fails exactly when the tables do, and whatever it
  // writes the inspector reads, with the tables' tick-exact tax.
  testing::XorShift random(0x9E3779B97F4A7C15ull);
  auto next = [&random] { return random.Next(); };
  const std::vector<std::string> names{
      "Method::execute", "DELEGATE_CALL", "delegate_execute", "OPERATOR_CALL",
      "native_call_add.out", "run model"};
  int converted = 0;
  for (int round = 0; round < 400; ++round) {
    std::vector<testing::LegacyBlockSpec> blocks;
    const std::size_t entries = 1 + next() % 6;
    const std::size_t iterations = 1 + next() % 3;
    std::vector<std::string> entry_names;
    std::vector<uint32_t> instructions;
    for (std::size_t e = 0; e < entries; ++e) {
      entry_names.push_back(names[next() % names.size()]);
      instructions.push_back(static_cast<uint32_t>(next() % 3));
    }
    for (std::size_t i = 0; i < iterations; ++i) {
      testing::LegacyBlockSpec b;
      b.name = "Execute";
      for (std::size_t e = 0; e < entries; ++e) {
        uint64_t start = next() % 1000000;
        uint64_t end = start + next() % 1000000;
        switch (next() % 8) {
          case 0: end = 0; break;                                   // open
          case 1: start += 0x100000000ull; end = 0; break;          // open
          case 2: start = 0xFFFFF000u; end = next() % 0x1000; break;  // wrap
          case 3: if (next() % 4 == 0) start += 0x100000000ull; break;
          default: break;
        }
        b.entries.push_back(
            testing::Entry(entry_names[e], 0, instructions[e], start, end));
      }
      blocks.push_back(std::move(b));
    }
    Result<LegacyProfile> profile = ParseLegacyProfile(WriteLegacyProfile(blocks));
    ASSERT_TRUE(profile.ok()) << profile.error().message;
    const Result<LegacyTables> tables = ComputeLegacyTables(profile.value());
    const Result<std::vector<EventBlock>> read = ConvertAndRead(profile.value());
    ASSERT_EQ(read.ok(), tables.ok())
        << "round " << round << ": "
        << (read.ok() ? tables.error().message : read.error().message);
    if (!read.ok()) continue;
    ++converted;
    for (const EventBlock& block : *read) {
      for (const Event& e : block.events) {
        for (std::size_t r = 0; r < block.run_count; ++r) {
          ASSERT_TRUE(ElapsedTicks(e.start_ticks[r], e.end_ticks[r]).has_value());
        }
      }
    }
    // A block whose iterations all finished every entry keeps them merged
    // and has the tables' tax.
    if (tables->warnings.empty() && tables->blocks[0].framework_tax &&
        !tables->blocks[0].framework_tax->framework_tax_percent.empty()) {
      ASSERT_EQ(read->size(), 1u);
      std::vector<double> expected;
      for (double p : tables->blocks[0].framework_tax->framework_tax_percent) {
        if (!std::isnan(p)) expected.push_back(p);
      }
      if (expected.empty()) {
        EXPECT_FALSE((*read)[0].framework_tax.has_value());
      } else {
        ASSERT_TRUE((*read)[0].framework_tax.has_value()) << "round " << round;
        EXPECT_EQ((*read)[0].framework_tax->raw, expected) << "round " << round;
      }
    }
  }
  EXPECT_GT(converted, 100);
}

}  // namespace
}  // namespace etbench
