// Legacy prof_result.bin → ETDump record (see legacy_convert.h).
#include "etbench/inspector/legacy_convert.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <tuple>


namespace etbench {
namespace {

int32_t AsInt32(uint32_t value) {
  int32_t out;
  std::memcpy(&out, &value, sizeof(out));
  return out;
}

// Entry order in which the runtime would have written the events (when
// they end): end ascending; among equal ends the inner event (later start,
// then later begin) first. The legacy profiler lists entries when they
// begin. Each entry's end is taken from the first iteration in which it
// finished, so that all iterations of a block share one order.
Result<std::vector<std::size_t>> CompletionOrder(const LegacyProfile& profile,
                                                 const LegacyBlock& block) {
  const std::vector<LegacyProfileEntry>& first =
      block.iterations.front().entries;
  std::vector<uint64_t> starts(first.size());
  std::vector<uint64_t> ends(first.size());
  std::vector<bool> known(first.size(), false);
  for (std::size_t i = 0; i < block.iterations.size(); ++i) {
    const std::vector<LegacyProfileEntry>& entries =
        block.iterations[i].entries;
    for (std::size_t e = 0; e < entries.size() && e < first.size(); ++e) {
      // Checks every entry: the file is rejected exactly when the legacy
      // tables reject it.
      const Result<std::optional<uint64_t>> elapsed =
          LegacyElapsedTicks(profile, block, i, e);
      if (!elapsed.ok()) return elapsed.error();
      if (known[e] || !elapsed.value()) continue;
      known[e] = true;
      starts[e] = entries[e].start_time;
      ends[e] = entries[e].start_time + *elapsed.value();
    }
  }
  std::vector<std::size_t> order(first.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::make_tuple(ends[a], starts[b], b) <
           std::make_tuple(ends[b], starts[a], a);
  });
  return order;
}

}  // namespace

Result<EtdumpRecord> ConvertLegacyToEtdump(const LegacyProfile& profile) {
  struct Ref {
    std::size_t file_block_index;
    std::size_t block;
    std::size_t iteration;
  };
  std::vector<Ref> refs;
  std::vector<std::vector<std::size_t>> orders(profile.blocks.size());
  for (std::size_t b = 0; b < profile.blocks.size(); ++b) {
    const LegacyBlock& block = profile.blocks[b];
    if (!block.iterations.empty()) {
      Result<std::vector<std::size_t>> order = CompletionOrder(profile, block);
      if (!order.ok()) return order.error();
      orders[b] = std::move(order).value();
    }
    for (std::size_t i = 0; i < block.iterations.size(); ++i) {
      refs.push_back(Ref{block.iterations[i].file_block_index, b, i});
    }
  }
  std::sort(refs.begin(), refs.end(), [](const Ref& a, const Ref& b) {
    return a.file_block_index < b.file_block_index;
  });

  EtdumpRecord record;
  record.version = 0;
  for (const Ref& ref : refs) {
    const LegacyBlock& block = profile.blocks[ref.block];
    const LegacyIteration& iteration = block.iterations[ref.iteration];
    RunDataRecord run;
    run.name = block.name;

    for (std::size_t index : orders[ref.block]) {
      // An inconsistent hand-built profile (parsed files are checked).
      if (index >= iteration.entries.size()) continue;
      const LegacyProfileEntry& entry = iteration.entries[index];
      // An ETDump event cannot be open; statistics leave it out (the run
      // then has its own signature and becomes a block of its own).
      if (entry.IsUnfinished()) continue;
      ProfileEventRecord event;
      event.name = entry.name;
      event.chain_index = entry.chain_index;
      event.instruction_id = AsInt32(entry.instruction_index);
      event.start_time = entry.start_time;
      event.end_time = entry.end_time;
      run.events.emplace_back(std::move(event));
    }

    // Allocators: the iteration's own table, then any other the
    // allocations name (declared by another block).
    std::vector<std::pair<uint64_t, int32_t>> index_of_id;
    auto find = [&](uint64_t id) -> int32_t {
      for (const auto& [known, index] : index_of_id) {
        if (known == id) return index;
      }
      return -1;
    };
    for (const LegacyAllocator& a : iteration.allocators) {
      if (find(a.allocator_id) >= 0) continue;
      index_of_id.emplace_back(a.allocator_id,
                               static_cast<int32_t>(run.allocators.size()));
      run.allocators.push_back(a.name);
    }
    for (std::size_t k = 0; k < iteration.allocations.size(); ++k) {
      const LegacyAllocation& a = iteration.allocations[k];
      int32_t index = find(a.allocator_id);
      if (index < 0) {
        std::optional<std::string> name =
            profile.AllocatorName(block, a.allocator_id);
        if (!name) {
          return InputError(
              profile.source_name + ": block '" + block.name + "' iteration " +
              std::to_string(ref.iteration) + ": memory allocation " +
              std::to_string(k) + " uses allocator " +
              std::to_string(a.allocator_id) + ", which no block declares");
        }
        index = static_cast<int32_t>(run.allocators.size());
        index_of_id.emplace_back(a.allocator_id, index);
        run.allocators.push_back(std::move(*name));
      }
      // ETDump allocator ids are 1-based (ETDumpGen::track_allocator).
      run.events.emplace_back(AllocationEventRecord{index + 1, a.allocation_size});
    }
    record.run_data.push_back(std::move(run));
  }
  return record;
}

}  // namespace etbench
