#pragma once
// The legacy ExecuTorch profiler dump (`prof_result.bin`, profiler/profiler.h
// before ETDump): a little-endian sequence of fixed-size blocks. Blocks with
// the same name are iterations of the same code. Semantics follow the
// reference parser, profiler/parse_profiler_results.py.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "etbench/base/result.h"

namespace etbench {

/// Record sizes in the file (C struct sizes, rounded up to 8 bytes).
inline constexpr std::size_t kLegacyHeaderSize = 64;
inline constexpr std::size_t kLegacyProfileEntrySize = 56;
inline constexpr std::size_t kLegacyAllocatorEntrySize = 40;
inline constexpr std::size_t kLegacyAllocationEntrySize = 8;
inline constexpr std::size_t kLegacyNameSize = 32;
inline constexpr uint32_t kLegacyProfilerVersion = 1;

struct LegacyProfileEntry {
  std::string name;  // up to the first NUL (all 32 bytes when none)
  int32_t chain_index = -1;
  uint32_t instruction_index = 0;
  uint64_t start_time = 0;
  uint64_t end_time = 0;  // 0: unfinished (see IsUnfinished)

  /// A scope still open when the profile was dumped: upstream's
  /// begin_profiling sets end_time to 0 and only end_profiling sets it.
  bool IsUnfinished() const { return end_time == 0; }
};

struct LegacyAllocator {
  std::string name;
  uint64_t allocator_id = 0;
};

struct LegacyAllocation {
  uint32_t allocator_id = 0;
  uint32_t allocation_size = 0;
};

/// One block of the file: one iteration of a named code block.
struct LegacyIteration {
  std::size_t file_block_index = 0;  // position among all blocks of the file
  std::size_t file_offset = 0;       // of the block header
  std::vector<LegacyProfileEntry> entries;    // the used entries, in order
  std::vector<LegacyAllocator> allocators;    // the used allocator entries
  std::vector<LegacyAllocation> allocations;  // the used memory entries
};

struct LegacyBlock {
  std::string name;
  std::vector<LegacyIteration> iterations;  // in file order
};

struct LegacyProfile {
  std::string source_name;
  std::vector<LegacyBlock> blocks;  // grouped by name, by first appearance
  std::size_t file_block_count = 0;

  /// Name of an allocator id as seen from `block`: the block's own
  /// allocator table (first iteration) first, else the last declaration of
  /// that id anywhere in the file (the reference keeps one file-wide map
  /// where the last declaration wins). nullopt when no block declares it.
  std::optional<std::string> AllocatorName(const LegacyBlock& block,
                                           uint64_t allocator_id) const;
};

/// Parses a prof_result.bin image. Every read is bounds-checked. Errors
/// (naming `source_name`, the block and the byte offset): an empty or
/// truncated file, a version other than 1, used counts above the block's
/// maximum, iterations of a block that do not list the same profile entries
/// (count and names, as the reference checks) or the same allocations
/// (allocator id and size), an allocation whose allocator no block declares.
/// Names are NUL-padded 32-byte fields: cut at the first NUL, all 32 bytes
/// when there is none; bytes that are not UTF-8 become U+FFFD.
Result<LegacyProfile> ParseLegacyProfile(
    const std::vector<uint8_t>& bytes,
    const std::string& source_name = "<memory>");

/// Reads and parses a file; errors name the path.
Result<LegacyProfile> ReadLegacyProfile(const std::string& path);

/// Elapsed ticks of profile entry `entry` of iteration `iteration` of
/// `block`: nullopt when the entry is unfinished; a 32-bit counter wrap is
/// unwrapped (ElapsedTicks). Error (naming the source, block, iteration and
/// entry) when it ends before it starts otherwise. The one timing rule of
/// the legacy tables and of the conversion to ETDump.
Result<std::optional<uint64_t>> LegacyElapsedTicks(const LegacyProfile& profile,
                                                   const LegacyBlock& block,
                                                   std::size_t iteration,
                                                   std::size_t entry);

/// One warning per profile entry of a block that is unfinished in some
/// iteration, naming the source, block, entry and iterations, e.g.
/// `prof_result.bin: block 'Execute', profile entry 0 'run model': unfinished
/// in iteration 2 of 3 (end_time 0: the scope was still open when the
/// profile was dumped); left out of durations and framework tax`.
std::vector<std::string> UnfinishedScopeWarnings(const LegacyProfile& profile);

}  // namespace etbench
