#include "exec/arena.h"

#include <cstring>
#include <utility>

#include "etbench/runtime/tracer.h"

namespace etbench::runtime {

Arena::Arena(std::string name, std::size_t capacity_bytes)
    : name_(std::move(name)), capacity_(RoundUp(capacity_bytes)) {
  storage_.reset(new uint8_t[capacity_ + kAlignment]);
  const auto address = reinterpret_cast<uintptr_t>(storage_.get());
  base_ = storage_.get() + (kAlignment - address % kAlignment) % kAlignment;
  // Touch the memory once so that first-execution page faults do not land in
  // the first kernel's timing.
  std::memset(base_, 0, capacity_);
}

void* Arena::Allocate(std::size_t bytes) {
  const std::size_t size = RoundUp(bytes == 0 ? 1 : bytes);
  if (size > capacity_ - used_) return nullptr;
  void* memory = base_ + used_;
  used_ += size;
  if (tracer_ != nullptr) tracer_->TrackAllocation(allocator_id_, bytes);
  return memory;
}

}  // namespace etbench::runtime
