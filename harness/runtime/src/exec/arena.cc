#include "exec/arena.h"

#include <cstring>
#include <utility>

#include "etbench/runtime/tracer.h"

namespace etbench::runtime {

Arena::Arena(std::string name, std::size_t capacity_bytes)
    : name_(std::move(name)), capacity_(RoundUp(capacity_bytes)) {
  // The memory comes touched, so that first-execution page faults do not
  // land in the first kernel's timing.
  storage_ = AcquirePlacedMemory(capacity_, PlacementFromEnvironment());
  base_ = storage_.data;
}

Arena::~Arena() { ReleasePlacedMemory(storage_); }

void* Arena::Allocate(std::size_t bytes) {
  const std::size_t size = RoundUp(bytes == 0 ? 1 : bytes);
  if (size > capacity_ - used_) return nullptr;
  void* memory = base_ + used_;
  used_ += size;
  if (tracer_ != nullptr) tracer_->TrackAllocation(allocator_id_, bytes);
  return memory;
}

}  // namespace etbench::runtime
