#include "etbench/inspector/legacy_profile.h"

#include <gtest/gtest.h>

#include "etbench/inspector/legacy_convert.h"
#include "etbench/inspector/legacy_tables.h"
#include "etbench/reports/legacy_render.h"
#include "inspector/analysis/legacy_profile_writer.h"
#include "support/test_support.h"

namespace etbench {
namespace {

using testing::Entry;
using testing::ExecuteIteration;
using testing::LegacyBlockSpec;
using testing::SampleLegacyBlocks;
using testing::WriteLegacyProfile;

std::string ErrorOf(const std::vector<uint8_t>& bytes) {
  const Result<LegacyProfile> profile =
      ParseLegacyProfile(bytes, "prof_result.bin");
  EXPECT_FALSE(profile.ok());
  return profile.ok() ? std::string() : profile.error().message;
}

// Size of one sample block with `entries` profile entries and default slack.
std::size_t BlockSize(std::size_t entries, std::size_t allocators,
                      std::size_t allocations) {
  return kLegacyHeaderSize +
         (entries + testing::kSlack) * kLegacyProfileEntrySize +
         (allocators + testing::kSlack) * kLegacyAllocatorEntrySize +
         (allocations + testing::kSlack) * kLegacyAllocationEntrySize;
}

TEST(LegacyProfileTest, GroupsBlocksByNameIntoIterations) {
  const Result<LegacyProfile> profile = ParseLegacyProfile(
      WriteLegacyProfile(SampleLegacyBlocks()), "prof_result.bin");
  ASSERT_TRUE(profile.ok()) << profile.error().message;
  EXPECT_EQ(profile->file_block_count, 4u);
  ASSERT_EQ(profile->blocks.size(), 2u);
  const LegacyBlock& init = profile->blocks[0];
  EXPECT_EQ(init.name, "default");
  ASSERT_EQ(init.iterations.size(), 1u);
  ASSERT_EQ(init.iterations[0].entries.size(), 1u);
  EXPECT_EQ(init.iterations[0].entries[0].name, "Method::init");
  EXPECT_EQ(init.iterations[0].entries[0].chain_index, -1);
  EXPECT_EQ(init.iterations[0].entries[0].start_time, 1000u);
  EXPECT_EQ(init.iterations[0].entries[0].end_time, 251000u);
  ASSERT_EQ(init.iterations[0].allocators.size(), 2u);
  EXPECT_EQ(init.iterations[0].allocators[1].name, "runtime");
  EXPECT_EQ(init.iterations[0].allocators[1].allocator_id, 1u);
  ASSERT_EQ(init.iterations[0].allocations.size(), 3u);
  EXPECT_EQ(init.iterations[0].allocations[2].allocator_id, 0u);
  EXPECT_EQ(init.iterations[0].allocations[2].allocation_size, 512u);

  const LegacyBlock& execute = profile->blocks[1];
  EXPECT_EQ(execute.name, "Execute");
  ASSERT_EQ(execute.iterations.size(), 3u);
  EXPECT_EQ(execute.iterations[1].file_block_index, 2u);
  const std::size_t init_size = BlockSize(1, 2, 3);
  const std::size_t execute_size = BlockSize(6, 0, 0);
  EXPECT_EQ(execute.iterations[0].file_offset, init_size);
  EXPECT_EQ(execute.iterations[2].file_offset, init_size + 2 * execute_size);
  const LegacyProfileEntry& mul = execute.iterations[1].entries[4];
  EXPECT_EQ(mul.name, "native_call_mul.out");
  EXPECT_EQ(mul.chain_index, 0);
  EXPECT_EQ(mul.instruction_index, 1u);
  EXPECT_EQ(mul.end_time - mul.start_time, 222222u);
}

TEST(LegacyProfileTest, InterleavedBlocksStillGroupByName) {
  std::vector<LegacyBlockSpec> blocks = SampleLegacyBlocks();
  std::swap(blocks[0], blocks[2]);  // Execute, Execute, default, Execute
  const Result<LegacyProfile> profile =
      ParseLegacyProfile(WriteLegacyProfile(blocks));
  ASSERT_TRUE(profile.ok()) << profile.error().message;
  ASSERT_EQ(profile->blocks.size(), 2u);
  EXPECT_EQ(profile->blocks[0].name, "Execute");
  ASSERT_EQ(profile->blocks[0].iterations.size(), 3u);
  EXPECT_EQ(profile->blocks[0].iterations[2].file_block_index, 3u);
  EXPECT_EQ(profile->blocks[1].name, "default");
}

TEST(LegacyProfileTest, NamesUseAllThirtyTwoBytesWithoutNul) {
  LegacyBlockSpec block;
  block.name = std::string(32, 'b');
  const std::string long_name =
      "native_call_convolution_backward.out";  // 36 bytes
  block.entries = {Entry(long_name, 0, 0, 0, 1)};
  const Result<LegacyProfile> profile =
      ParseLegacyProfile(WriteLegacyProfile({block}));
  ASSERT_TRUE(profile.ok()) << profile.error().message;
  EXPECT_EQ(profile->blocks[0].name, std::string(32, 'b'));
  EXPECT_EQ(profile->blocks[0].iterations[0].entries[0].name,
            long_name.substr(0, 32));
}

TEST(LegacyProfileTest, NamesStopAtTheFirstNulAndToleratePoorUtf8) {
  LegacyBlockSpec block;
  block.name = std::string("Exe\0junk", 8);
  block.entries = {Entry("op\xFF\xFE", 0, 0, 0, 1)};
  const Result<LegacyProfile> profile =
      ParseLegacyProfile(WriteLegacyProfile({block}));
  ASSERT_TRUE(profile.ok()) << profile.error().message;
  EXPECT_EQ(profile->blocks[0].name, "Exe");
  EXPECT_EQ(profile->blocks[0].iterations[0].entries[0].name,
            "op\xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST(LegacyProfileTest, RejectsAnEmptyFile) {
  EXPECT_NE(ErrorOf({}).find("prof_result.bin: empty file"), std::string::npos);
}

TEST(LegacyProfileTest, RejectsATruncatedHeader) {
  std::vector<uint8_t> bytes = WriteLegacyProfile(SampleLegacyBlocks());
  const std::size_t second = BlockSize(1, 2, 3);
  bytes.resize(second + 30);
  EXPECT_EQ(ErrorOf(bytes),
            "prof_result.bin: block 1 at offset " + std::to_string(second) +
                ": truncated header (64 bytes needed, 30 remain)");
}

TEST(LegacyProfileTest, RejectsATruncatedBlock) {
  std::vector<uint8_t> bytes = WriteLegacyProfile(SampleLegacyBlocks());
  bytes.pop_back();  // the last block's last (unused) memory slot
  const std::string error = ErrorOf(bytes);
  EXPECT_NE(error.find("block 3 at offset"), std::string::npos) << error;
  const std::size_t execute_size = BlockSize(6, 0, 0);
  EXPECT_NE(
      error.find(
          "('Execute'): truncated block: 8 profile, 2 allocator and 2 memory "
          "entries need " +
          std::to_string(execute_size) + " bytes, " +
          std::to_string(execute_size - 1) + " remain"),
      std::string::npos)
      << error;
  // Every prefix fails cleanly (never a crash, never a read past the end).
  const std::vector<uint8_t> full = WriteLegacyProfile(SampleLegacyBlocks());
  for (std::size_t n = 1; n < full.size(); n += 7) {
    const std::vector<uint8_t> prefix(
        full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n));
    const std::size_t init_size = BlockSize(1, 2, 3);
    const bool at_block_end = n == init_size || n == init_size + execute_size ||
                              n == init_size + 2 * execute_size;
    EXPECT_EQ(ParseLegacyProfile(prefix).ok(), at_block_end) << n;
  }
}

TEST(LegacyProfileTest, RejectsAVersionMismatch) {
  std::vector<LegacyBlockSpec> blocks = SampleLegacyBlocks();
  blocks[1].version = 2;
  EXPECT_EQ(ErrorOf(WriteLegacyProfile(blocks)),
            "prof_result.bin: block 1 at offset " +
                std::to_string(BlockSize(1, 2, 3)) +
                " ('Execute'): profiler version 2, expected 1 (mismatch in "
                "version between "
                "profile dump and post-processing tool)");
}

TEST(LegacyProfileTest, RejectsMoreUsedEntriesThanTheBlockHolds) {
  LegacyBlockSpec block = ExecuteIteration(0, 100, 10, 10, 10);
  block.max_entries = 6;
  block.used_entries = 7;
  EXPECT_EQ(ErrorOf(WriteLegacyProfile({block})),
            "prof_result.bin: block 0 at offset 0 ('Execute'): 7 profile "
            "entries used but the "
            "block has room for 6");
}

TEST(LegacyProfileTest, RejectsIterationsWithDifferentEntryCounts) {
  std::vector<LegacyBlockSpec> blocks = SampleLegacyBlocks();
  blocks[3].entries.pop_back();
  const std::string error = ErrorOf(WriteLegacyProfile(blocks));
  EXPECT_NE(
      error.find("prof_result.bin: block 'Execute': iteration 2 (offset "),
      std::string::npos)
      << error;
  EXPECT_NE(error.find(") has 5 profile entries but iteration 1 has 6; "
                       "iterations of a block "
                       "must list the same entries"),
            std::string::npos)
      << error;
}

TEST(LegacyProfileTest, RejectsIterationsWithDifferentEntryNames) {
  std::vector<LegacyBlockSpec> blocks = SampleLegacyBlocks();
  blocks[2].entries[4].name = "native_call_div.out";
  const std::string error = ErrorOf(WriteLegacyProfile(blocks));
  EXPECT_NE(
      error.find("block 'Execute': profile entry 4 is 'native_call_div.out' in "
                 "iteration 1 (offset "),
      std::string::npos)
      << error;
  EXPECT_NE(
      error.find(
          "but 'native_call_mul.out' in iteration 0; corresponding entries in "
          "different iterations of a block must match"),
      std::string::npos)
      << error;
}

TEST(LegacyProfileTest, RejectsIterationsWithDifferentAllocations) {
  std::vector<LegacyBlockSpec> blocks = SampleLegacyBlocks();
  blocks.push_back(blocks[0]);  // a second "default" iteration
  blocks.back().allocations[1].allocation_size = 65;
  std::string error = ErrorOf(WriteLegacyProfile(blocks));
  EXPECT_NE(
      error.find(
          "block 'default': memory allocation 1 is 65 bytes in iteration 1"),
      std::string::npos)
      << error;
  EXPECT_NE(error.find("but 64 bytes in iteration 0"), std::string::npos)
      << error;

  blocks.back().allocations[1] = {0, 64};
  error = ErrorOf(WriteLegacyProfile(blocks));
  EXPECT_NE(error.find("memory allocation 1 uses allocator 0 in iteration 1"),
            std::string::npos)
      << error;

  blocks.back().allocations.pop_back();
  error = ErrorOf(WriteLegacyProfile(blocks));
  EXPECT_NE(error.find("has 2 memory allocations but iteration 0 has 3"),
            std::string::npos)
      << error;
}

TEST(LegacyProfileTest, ResolvesAllocatorsFromOtherBlocks) {
  std::vector<LegacyBlockSpec> blocks = SampleLegacyBlocks();
  blocks[1].allocations = {{1, 32}};  // declared by "default" only
  blocks[2].allocations = {{1, 32}};
  blocks[3].allocations = {{1, 32}};
  const Result<LegacyProfile> profile =
      ParseLegacyProfile(WriteLegacyProfile(blocks));
  ASSERT_TRUE(profile.ok()) << profile.error().message;
  EXPECT_EQ(profile->AllocatorName(profile->blocks[1], 1), "runtime");
  EXPECT_FALSE(profile->AllocatorName(profile->blocks[1], 9).has_value());

  blocks[1].allocations = blocks[2].allocations =
      blocks[3].allocations = {{9, 32}};
  EXPECT_EQ(ErrorOf(WriteLegacyProfile(blocks)),
            "prof_result.bin: block 'Execute': memory allocation 0 uses "
            "allocator 9, which no "
            "block declares");
}

TEST(LegacyProfileTest, MutatedFilesNeverCrashAnyStage) {
  // Deterministic byte mutations of the sample; every stage must either
  // succeed or return an error (run under ASan/UBSan in CI).
  const std::vector<uint8_t> sample = WriteLegacyProfile(SampleLegacyBlocks());
  testing::XorShift random(0x2545F4914F6CDD1Dull);
  auto next = [&random] { return random.Next(); };
  int parsed = 0;
  for (int round = 0; round < 600; ++round) {
    std::vector<uint8_t> bytes = sample;
    const int flips = 1 + static_cast<int>(next() % 4);
    for (int f = 0; f < flips; ++f) {
      bytes[next() % bytes.size()] = static_cast<uint8_t>(next());
    }
    if (next() % 8 == 0) bytes.resize(next() % bytes.size());
    const Result<LegacyProfile> profile = ParseLegacyProfile(bytes, "fuzz");
    if (!profile.ok()) {
      EXPECT_EQ(profile.error().message.rfind("fuzz: ", 0), 0u)
          << profile.error().message;
      continue;
    }
    ++parsed;
    for (TimeScale scale : {TimeScale::kNs, TimeScale::kCycles}) {
      const Result<LegacyTables> tables =
          ComputeLegacyTables(profile.value(), scale);
      if (!tables.ok()) continue;
      EXPECT_FALSE(RenderLegacyTables(tables.value()).empty());
      EXPECT_FALSE(LegacyTablesToJson(tables.value()).empty());
      EXPECT_FALSE(LegacyTablesToCsv(tables.value()).empty());
    }
    // convert applies the tables' rule, and what it writes reads back.
    const Result<EtdumpRecord> record = ConvertLegacyToEtdump(profile.value());
    EXPECT_EQ(record.ok(), ComputeLegacyTables(profile.value()).ok());
    if (!record.ok()) continue;
    const Result<std::vector<EventBlock>> blocks =
        testing::ConvertAndRead(profile.value());
    EXPECT_TRUE(blocks.ok()) << blocks.error().message;
  }
  EXPECT_GT(parsed, 30);  // mutations of times and names still parse
}

TEST(LegacyProfileTest, ElapsedTicksOfFinishedWrappedAndUnfinishedEntries) {
  LegacyBlockSpec block;
  block.name = "Execute";
  block.entries = {Entry("done", 0, 0, 100, 250),
                   Entry("wrapped", 0, 1, 0xFFFFFF00u, 0x100u),
                   Entry("open", 0, 2, 0x100000000ull, 0),
                   Entry("broken", 0, 3, 0x100000000ull, 5)};
  const Result<LegacyProfile> profile =
      ParseLegacyProfile(WriteLegacyProfile({block}), "p.bin");
  ASSERT_TRUE(profile.ok()) << profile.error().message;
  const LegacyBlock& b = profile->blocks[0];
  EXPECT_EQ(LegacyElapsedTicks(profile.value(), b, 0, 0).value(), 150u);
  EXPECT_EQ(LegacyElapsedTicks(profile.value(), b, 0, 1).value(), 0x200u);
  EXPECT_TRUE(b.iterations[0].entries[2].IsUnfinished());
  EXPECT_EQ(LegacyElapsedTicks(profile.value(), b, 0, 2).value(), std::nullopt);
  const Result<std::optional<uint64_t>> broken =
      LegacyElapsedTicks(profile.value(), b, 0, 3);
  ASSERT_FALSE(broken.ok());
  EXPECT_EQ(broken.error().message,
            "p.bin: block 'Execute' iteration 0, profile entry 3 'broken': "
            "ends at 5 before it starts at 4294967296 (not a 32-bit counter "
            "wrap)");
}

TEST(LegacyProfileTest, WarnsOncePerUnfinishedEntry) {
  std::vector<LegacyBlockSpec> blocks = SampleLegacyBlocks();
  for (std::size_t b = 1; b < blocks.size(); ++b) {
    blocks[b].entries[0].end_time = 0;  // Method::execute in every iteration
  }
  blocks[1].entries[5].end_time = 0;  // delegate_execute in iteration 0
  blocks[3].entries[5].end_time = 0;  // and 2
  const Result<LegacyProfile> profile =
      ParseLegacyProfile(WriteLegacyProfile(blocks), "prof_result.bin");
  ASSERT_TRUE(profile.ok()) << profile.error().message;
  const std::vector<std::string> warnings =
      UnfinishedScopeWarnings(profile.value());
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0].rfind(
                "prof_result.bin: block 'Execute', profile entry 0 "
                "'Method::execute': unfinished in every iteration of 3 "
                "(end_time 0",
                0),
            0u)
      << warnings[0];
  EXPECT_NE(warnings[1].find("profile entry 5 'delegate_execute': unfinished "
                             "in 2 iterations (first 0, last 2) of 3"),
            std::string::npos)
      << warnings[1];
  EXPECT_TRUE(UnfinishedScopeWarnings(
                  ParseLegacyProfile(WriteLegacyProfile(SampleLegacyBlocks()))
                      .value())
                  .empty());
}

TEST(LegacyProfileTest, ReadsFilesAndNamesMissingOnes) {
  etbench::testing::TempDir dir;
  etbench::testing::WriteBinaryFile(dir.File("prof_result.bin"),
                                    WriteLegacyProfile(SampleLegacyBlocks()));
  const Result<LegacyProfile> profile =
      ReadLegacyProfile(dir.File("prof_result.bin"));
  ASSERT_TRUE(profile.ok()) << profile.error().message;
  EXPECT_EQ(profile->source_name, dir.File("prof_result.bin"));
  const Result<LegacyProfile> missing = ReadLegacyProfile(dir.File("nope.bin"));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("nope.bin"), std::string::npos);
}

}  // namespace
}  // namespace etbench
