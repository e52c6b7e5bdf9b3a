#include "exec/placement.h"

#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <random>
#include <string>
#include <vector>

namespace etbench::runtime {
namespace {

constexpr std::size_t kAlign = 64;
constexpr std::size_t kPage = 4096;

std::size_t PageRound(std::size_t bytes) { return (bytes + kPage - 1) / kPage * kPage; }

int PoolSlots() {
  static const int slots = [] {
    const char* text = std::getenv("ETBENCH_EXP_POOL_SLOTS");
    const int k = text != nullptr ? std::atoi(text) : 8;
    return k > 0 ? k : 8;
  }();
  return slots;
}

void* MapTouched(std::size_t length) {
  void* block = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (block == MAP_FAILED) throw std::bad_alloc();
  std::memset(block, 0, length);
  return block;
}

struct Pool {
  struct Slab {
    void* block = nullptr;
    bool in_use = false;
  };
  std::mutex mutex;
  std::map<std::size_t, std::vector<Slab>> slabs;  // by page-rounded length
  std::map<std::size_t, std::size_t> next;
};

Pool& ThePool() {
  static Pool* pool = new Pool();  // never destroyed: slabs live as long as the process
  return *pool;
}

uint64_t RandomOffsetSlots() {
  static std::mutex mutex;
  static std::mt19937_64 engine{std::random_device{}()};
  std::lock_guard<std::mutex> lock(mutex);
  return engine() % (kPage / kAlign);
}

}  // namespace

PlacedMemory AcquirePlacedMemory(std::size_t bytes, ArenaPlacement placement) {
  PlacedMemory memory;
  memory.placement = placement;
  switch (placement) {
    case ArenaPlacement::kHeap: {
      memory.length = bytes + kAlign;
      memory.block = ::operator new(memory.length);
      const auto address = reinterpret_cast<uintptr_t>(memory.block);
      memory.data = static_cast<uint8_t*>(memory.block) + (kAlign - address % kAlign) % kAlign;
      std::memset(memory.data, 0, bytes);
      return memory;
    }
    case ArenaPlacement::kOffset: {
      memory.length = bytes + kAlign + kPage;
      memory.block = ::operator new(memory.length);
      const auto address = reinterpret_cast<uintptr_t>(memory.block);
      memory.data = static_cast<uint8_t*>(memory.block) + (kAlign - address % kAlign) % kAlign +
                    RandomOffsetSlots() * kAlign;
      std::memset(memory.data, 0, bytes);
      return memory;
    }
    case ArenaPlacement::kFresh: {
      memory.length = PageRound(bytes == 0 ? 1 : bytes);
      memory.block = MapTouched(memory.length);
      memory.data = static_cast<uint8_t*>(memory.block);
      return memory;
    }
    case ArenaPlacement::kPool: {
      memory.length = PageRound(bytes == 0 ? 1 : bytes);
      Pool& pool = ThePool();
      std::lock_guard<std::mutex> lock(pool.mutex);
      std::vector<Pool::Slab>& slabs = pool.slabs[memory.length];
      if (slabs.empty()) slabs.resize(static_cast<std::size_t>(PoolSlots()));
      std::size_t& next = pool.next[memory.length];
      for (std::size_t tried = 0; tried < slabs.size(); ++tried) {
        const std::size_t slot = (next + tried) % slabs.size();
        if (slabs[slot].in_use) continue;
        if (slabs[slot].block == nullptr) slabs[slot].block = MapTouched(memory.length);
        slabs[slot].in_use = true;
        next = slot + 1;
        memory.block = slabs[slot].block;
        memory.pool_slot = static_cast<int>(slot);
        memory.data = static_cast<uint8_t*>(memory.block);
        std::memset(memory.data, 0, bytes);
        return memory;
      }
      // Every slab taken (Methods alive at once): a mapping of its own.
      memory.placement = ArenaPlacement::kFresh;
      memory.block = MapTouched(memory.length);
      memory.data = static_cast<uint8_t*>(memory.block);
      return memory;
    }
  }
  return memory;
}

void ReleasePlacedMemory(PlacedMemory& memory) {
  if (memory.block == nullptr) return;
  switch (memory.placement) {
    case ArenaPlacement::kHeap:
    case ArenaPlacement::kOffset:
      ::operator delete(memory.block);
      break;
    case ArenaPlacement::kFresh:
      munmap(memory.block, memory.length);
      break;
    case ArenaPlacement::kPool: {
      Pool& pool = ThePool();
      std::lock_guard<std::mutex> lock(pool.mutex);
      pool.slabs[memory.length][static_cast<std::size_t>(memory.pool_slot)].in_use = false;
      break;
    }
  }
  memory.block = nullptr;
  memory.data = nullptr;
}

ArenaPlacement PlacementFromEnvironment() {
  static const ArenaPlacement placement = [] {
    const char* text = std::getenv("ETBENCH_EXP_PLACEMENT");
    const std::string name = text != nullptr ? text : "heap";
    if (name == "pool") return ArenaPlacement::kPool;
    if (name == "fresh") return ArenaPlacement::kFresh;
    if (name == "offset") return ArenaPlacement::kOffset;
    return ArenaPlacement::kHeap;
  }();
  return placement;
}

}  // namespace etbench::runtime
