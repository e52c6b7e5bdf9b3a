#pragma once
// A bump allocator over one preallocated buffer, like ExecuTorch's
// MemoryAllocator: the method allocator, the planned-memory arena and the
// per-kernel temp allocator are all Arenas. Optionally reports every
// allocation to the tracer as an AllocationEvent.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace etbench::runtime {

class Tracer;

class Arena {
 public:
  static constexpr std::size_t kAlignment = 64;

  Arena(std::string name, std::size_t capacity_bytes);

  const std::string& name() const { return name_; }
  std::size_t used() const { return used_; }
  std::size_t capacity() const { return capacity_; }

  /// Reports allocations to `tracer` under `allocator_id` (null: stop).
  void SetTracer(Tracer* tracer, int32_t allocator_id) {
    tracer_ = tracer;
    allocator_id_ = allocator_id;
  }

  /// 64-byte aligned memory, or null when the arena is full (a planning
  /// bug: capacities are computed before execution).
  void* Allocate(std::size_t bytes);
  float* AllocateFloats(int64_t count) {
    return static_cast<float*>(Allocate(static_cast<std::size_t>(count) * 4));
  }
  /// Forgets every allocation (the memory stays owned by the arena).
  void Reset() { used_ = 0; }

  /// Bytes an allocation of `bytes` consumes (rounded up to the alignment).
  static std::size_t RoundUp(std::size_t bytes) {
    return (bytes + kAlignment - 1) / kAlignment * kAlignment;
  }

 private:
  std::string name_;
  std::unique_ptr<uint8_t[]> storage_;
  uint8_t* base_ = nullptr;
  std::size_t capacity_ = 0;
  std::size_t used_ = 0;
  Tracer* tracer_ = nullptr;
  int32_t allocator_id_ = -1;
};

}  // namespace etbench::runtime
