// Parser of the legacy profiler dump, prof_result.bin (see legacy_profile.h).
#include "etbench/inspector/legacy_profile.h"

#include <cstring>
#include <unordered_map>

#include "etbench/base/utf8.h"
#include "etbench/inspector/etdump_file.h"
#include "etbench/inspector/inspector.h"

namespace etbench {
namespace {

// Little-endian reads at offsets the caller has bounds-checked.
uint32_t U32At(const std::vector<uint8_t>& b, std::size_t at) {
  return static_cast<uint32_t>(b[at]) | static_cast<uint32_t>(b[at + 1]) << 8 |
         static_cast<uint32_t>(b[at + 2]) << 16 |
         static_cast<uint32_t>(b[at + 3]) << 24;
}
uint64_t U64At(const std::vector<uint8_t>& b, std::size_t at) {
  return static_cast<uint64_t>(U32At(b, at)) |
         static_cast<uint64_t>(U32At(b, at + 4)) << 32;
}
int32_t I32At(const std::vector<uint8_t>& b, std::size_t at) {
  const uint32_t u = U32At(b, at);
  int32_t i;
  std::memcpy(&i, &u, sizeof(i));
  return i;
}

// A NUL-padded name field: up to the first NUL, all bytes when none.
std::string NameAt(const std::vector<uint8_t>& b, std::size_t at) {
  const char* p = reinterpret_cast<const char*>(b.data() + at);
  std::size_t n = 0;
  while (n < kLegacyNameSize && p[n] != '\0') ++n;
  return SanitizeUtf8(std::string_view(p, n));
}

std::string Quoted(const std::string& s) { return "'" + s + "'"; }

Status CheckIterations(const std::string& source, const LegacyBlock& block) {
  const std::string where = source + ": block " + Quoted(block.name) + ": ";
  for (std::size_t i = 0; i + 1 < block.iterations.size(); ++i) {
    const LegacyIteration& base = block.iterations[i];
    const LegacyIteration& next = block.iterations[i + 1];
    const std::string base_it = "iteration " + std::to_string(i);
    const std::string next_it = "iteration " + std::to_string(i + 1) +
                                " (offset " + std::to_string(next.file_offset) +
                                ")";
    if (base.entries.size() != next.entries.size()) {
      return InputError(where + next_it + " has " +
                        std::to_string(next.entries.size()) +
                        " profile entries but " + base_it + " has " +
                        std::to_string(base.entries.size()) +
                        "; iterations of a block must list the same entries");
    }
    for (std::size_t e = 0; e < base.entries.size(); ++e) {
      if (base.entries[e].name != next.entries[e].name) {
        return InputError(where + "profile entry " + std::to_string(e) +
                          " is " + Quoted(next.entries[e].name) + " in " +
                          next_it + " but " + Quoted(base.entries[e].name) +
                          " in " + base_it +
                          "; corresponding entries in different iterations of "
                          "a block must match");
      }
    }
    if (base.allocations.size() != next.allocations.size()) {
      return InputError(
          where + next_it + " has " + std::to_string(next.allocations.size()) +
          " memory allocations but " + base_it + " has " +
          std::to_string(base.allocations.size()) +
          "; iterations of a block must make the same allocations");
    }
    for (std::size_t a = 0; a < base.allocations.size(); ++a) {
      const LegacyAllocation& x = base.allocations[a];
      const LegacyAllocation& y = next.allocations[a];
      if (x.allocator_id != y.allocator_id) {
        return InputError(
            where + "memory allocation " + std::to_string(a) +
            " uses allocator " + std::to_string(y.allocator_id) + " in " +
            next_it + " but allocator " + std::to_string(x.allocator_id) +
            " in " + base_it +
            "; corresponding allocations must use the same allocator");
      }
      if (x.allocation_size != y.allocation_size) {
        return InputError(
            where + "memory allocation " + std::to_string(a) + " is " +
            std::to_string(y.allocation_size) + " bytes in " + next_it +
            " but " + std::to_string(x.allocation_size) + " bytes in " +
            base_it + "; corresponding allocations must have the same size");
      }
    }
  }
  return Ok{};
}

}  // namespace

std::optional<std::string> LegacyProfile::AllocatorName(
    const LegacyBlock& block, uint64_t allocator_id) const {
  if (!block.iterations.empty()) {
    for (const LegacyAllocator& a : block.iterations.front().allocators) {
      if (a.allocator_id == allocator_id) return a.name;
    }
  }
  // File-wide: the last declaration in file order wins.
  std::optional<std::string> name;
  std::size_t best_block = 0;
  for (const LegacyBlock& b : blocks) {
    for (const LegacyIteration& it : b.iterations) {
      for (const LegacyAllocator& a : it.allocators) {
        if (a.allocator_id != allocator_id) continue;
        if (!name || it.file_block_index >= best_block) {
          name = a.name;
          best_block = it.file_block_index;
        }
      }
    }
  }
  return name;
}

Result<LegacyProfile> ParseLegacyProfile(const std::vector<uint8_t>& bytes,
                                         const std::string& source_name) {
  LegacyProfile profile;
  profile.source_name = source_name;
  if (bytes.empty()) {
    return InputError(source_name +
                      ": empty file (no profiling blocks); expected a legacy "
                      "profiler dump (prof_result.bin)");
  }
  std::unordered_map<std::string, std::size_t> block_of_name;
  std::size_t offset = 0;
  while (offset < bytes.size()) {
    const std::size_t remain = bytes.size() - offset;
    const std::size_t index = profile.file_block_count;
    const std::string at = source_name + ": block " + std::to_string(index) +
                           " at offset " + std::to_string(offset);
    if (remain < kLegacyHeaderSize) {
      return InputError(at + ": truncated header (" +
                        std::to_string(kLegacyHeaderSize) + " bytes needed, " +
                        std::to_string(remain) + " remain)");
    }
    const std::string name = NameAt(bytes, offset);
    const uint32_t version = U32At(bytes, offset + 32);
    const uint32_t max_profile = U32At(bytes, offset + 36);
    const uint32_t used_profile = U32At(bytes, offset + 40);
    const uint32_t max_allocators = U32At(bytes, offset + 44);
    const uint32_t used_allocators = U32At(bytes, offset + 48);
    const uint32_t max_memory = U32At(bytes, offset + 52);
    const uint32_t used_memory = U32At(bytes, offset + 56);
    const std::string named = at + " (" + Quoted(name) + ")";
    if (version != kLegacyProfilerVersion) {
      return InputError(named + ": profiler version " +
                        std::to_string(version) + ", expected " +
                        std::to_string(kLegacyProfilerVersion) +
                        " (mismatch in version between profile dump and "
                        "post-processing tool)");
    }
    auto check_used = [&](uint32_t used, uint32_t max,
                          const char* what) -> Status {
      if (used <= max) return Ok{};
      return InputError(named + ": " + std::to_string(used) + " " + what +
                        " entries used but the block has room for " +
                        std::to_string(max));
    };
    if (Status s = check_used(used_profile, max_profile, "profile"); !s.ok()) {
      return s.error();
    }
    if (Status s = check_used(used_allocators, max_allocators, "allocator");
        !s.ok()) {
      return s.error();
    }
    if (Status s = check_used(used_memory, max_memory, "memory"); !s.ok()) {
      return s.error();
    }
    // 64-bit arithmetic: at most 2^32 * 56 per table, no overflow.
    const uint64_t profile_bytes =
        uint64_t{max_profile} * kLegacyProfileEntrySize;
    const uint64_t allocator_bytes =
        uint64_t{max_allocators} * kLegacyAllocatorEntrySize;
    const uint64_t memory_bytes =
        uint64_t{max_memory} * kLegacyAllocationEntrySize;
    const uint64_t block_bytes =
        kLegacyHeaderSize + profile_bytes + allocator_bytes + memory_bytes;
    if (block_bytes > remain) {
      return InputError(named +
                        ": truncated block: " + std::to_string(max_profile) +
                        " profile, " + std::to_string(max_allocators) +
                        " allocator and " + std::to_string(max_memory) +
                        " memory entries need " + std::to_string(block_bytes) +
                        " bytes, " + std::to_string(remain) + " remain");
    }

    LegacyIteration iteration;
    iteration.file_block_index = index;
    iteration.file_offset = offset;
    std::size_t at_entry = offset + kLegacyHeaderSize;
    iteration.entries.reserve(used_profile);
    for (uint32_t i = 0; i < used_profile;
         ++i, at_entry += kLegacyProfileEntrySize) {
      LegacyProfileEntry entry;
      entry.name = NameAt(bytes, at_entry);
      entry.chain_index = I32At(bytes, at_entry + 32);
      entry.instruction_index = U32At(bytes, at_entry + 36);
      entry.start_time = U64At(bytes, at_entry + 40);
      entry.end_time = U64At(bytes, at_entry + 48);
      iteration.entries.push_back(std::move(entry));
    }
    std::size_t at_allocator =
        offset + kLegacyHeaderSize + static_cast<std::size_t>(profile_bytes);
    for (uint32_t i = 0; i < used_allocators;
         ++i, at_allocator += kLegacyAllocatorEntrySize) {
      iteration.allocators.push_back(LegacyAllocator{
          NameAt(bytes, at_allocator), U64At(bytes, at_allocator + 32)});
    }
    std::size_t at_memory = offset + kLegacyHeaderSize +
                            static_cast<std::size_t>(profile_bytes) +
                            static_cast<std::size_t>(allocator_bytes);
    for (uint32_t i = 0; i < used_memory;
         ++i, at_memory += kLegacyAllocationEntrySize) {
      iteration.allocations.push_back(LegacyAllocation{
          U32At(bytes, at_memory), U32At(bytes, at_memory + 4)});
    }

    auto [it, inserted] = block_of_name.emplace(name, profile.blocks.size());
    if (inserted) profile.blocks.push_back(LegacyBlock{name, {}});
    profile.blocks[it->second].iterations.push_back(std::move(iteration));
    ++profile.file_block_count;
    offset += static_cast<std::size_t>(block_bytes);
  }

  for (const LegacyBlock& block : profile.blocks) {
    if (Status s = CheckIterations(source_name, block); !s.ok()) {
      return s.error();
    }
  }
  // Every allocation must name an allocator some block declares (the
  // reference fails with a KeyError otherwise).
  for (const LegacyBlock& block : profile.blocks) {
    const LegacyIteration& first = block.iterations.front();
    for (std::size_t a = 0; a < first.allocations.size(); ++a) {
      if (!profile.AllocatorName(block, first.allocations[a].allocator_id)) {
        return InputError(source_name + ": block " + Quoted(block.name) +
                          ": memory allocation " + std::to_string(a) +
                          " uses allocator " +
                          std::to_string(first.allocations[a].allocator_id) +
                          ", which no block declares");
      }
    }
  }
  return profile;
}

Result<LegacyProfile> ReadLegacyProfile(const std::string& path) {
  Result<std::vector<uint8_t>> bytes = ReadFileBytes(path);
  if (!bytes.ok()) return bytes.error();
  return ParseLegacyProfile(bytes.value(), path);
}

Result<std::optional<uint64_t>> LegacyElapsedTicks(const LegacyProfile& profile,
                                                   const LegacyBlock& block,
                                                   std::size_t iteration,
                                                   std::size_t entry) {
  const LegacyProfileEntry& e = block.iterations.at(iteration).entries.at(entry);
  if (e.IsUnfinished()) return std::optional<uint64_t>();
  const std::optional<uint64_t> elapsed = ElapsedTicks(e.start_time, e.end_time);
  if (!elapsed) {
    return InputError(profile.source_name + ": block " + Quoted(block.name) +
                      " iteration " + std::to_string(iteration) +
                      ", profile entry " + std::to_string(entry) + " " +
                      Quoted(e.name) + ": ends at " +
                      std::to_string(e.end_time) + " before it starts at " +
                      std::to_string(e.start_time) +
                      " (not a 32-bit counter wrap)");
  }
  return elapsed;
}

std::vector<std::string> UnfinishedScopeWarnings(const LegacyProfile& profile) {
  std::vector<std::string> warnings;
  for (const LegacyBlock& block : profile.blocks) {
    if (block.iterations.empty()) continue;
    const std::size_t n = block.iterations.front().entries.size();
    for (std::size_t e = 0; e < n; ++e) {
      std::vector<std::size_t> open;
      for (std::size_t i = 0; i < block.iterations.size(); ++i) {
        const std::vector<LegacyProfileEntry>& entries =
            block.iterations[i].entries;
        if (e < entries.size() && entries[e].IsUnfinished()) open.push_back(i);
      }
      if (open.empty()) continue;
      std::string which;
      if (open.size() == 1) {
        which = "iteration " + std::to_string(open.front());
      } else if (open.size() == block.iterations.size()) {
        which = "every iteration";
      } else {
        which = std::to_string(open.size()) + " iterations (first " +
                std::to_string(open.front()) + ", last " +
                std::to_string(open.back()) + ")";
      }
      warnings.push_back(
          profile.source_name + ": block " + Quoted(block.name) +
          ", profile entry " + std::to_string(e) + " " +
          Quoted(block.iterations.front().entries[e].name) + ": unfinished in " +
          which + " of " + std::to_string(block.iterations.size()) +
          " (end_time 0: the scope was still open when the profile was "
          "dumped); left out of durations and framework tax");
    }
  }
  return warnings;
}

}  // namespace etbench
