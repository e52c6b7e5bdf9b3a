#pragma once
// Where an Arena's bytes live. One fresh process draws one set of physical
// pages for the runtime's arenas and keeps it for every repetition (glibc
// hands a freed block straight back), so a placement that happens to conflict
// in the physically indexed caches slows every repetition of that process
// alike. The placements below vary it per Method instead.

#include <cstddef>
#include <cstdint>

namespace etbench::runtime {

enum class ArenaPlacement {
  /// One heap block per arena (operator new): what the process's allocator
  /// returns, usually the same pages for every Method of a process.
  kHeap,
  /// A process-wide pool of kPoolSlots separately mapped slabs per arena
  /// size, handed out in rotation: consecutive Methods use different pages.
  kPool,
  /// A new anonymous mapping per arena, unmapped when the arena goes.
  kFresh,
  /// A heap block with a random 64-byte-multiple offset below 4 KiB: moves
  /// the cache sets and 4K aliasing within a page, not the pages.
  kOffset,
};

/// Memory of at least `bytes` bytes, 64-byte aligned, every page touched
/// (written) before it is returned, so page faults never land in a timed
/// execution. Release with ReleasePlacedMemory.
struct PlacedMemory {
  uint8_t* data = nullptr;
  void* block = nullptr;      // what to free or unmap
  std::size_t length = 0;     // of `block`
  ArenaPlacement placement = ArenaPlacement::kHeap;
  int pool_slot = -1;         // kPool: the slot to give back
};

PlacedMemory AcquirePlacedMemory(std::size_t bytes, ArenaPlacement placement);
void ReleasePlacedMemory(PlacedMemory& memory);

/// Experiment hook: ETBENCH_EXP_PLACEMENT = heap | pool | fresh | offset
/// (default heap); ETBENCH_EXP_POOL_SLOTS = K.
ArenaPlacement PlacementFromEnvironment();

}  // namespace etbench::runtime
