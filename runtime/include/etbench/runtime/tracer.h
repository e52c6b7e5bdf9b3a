#pragma once
// The runtime's event tracer: what ExecuTorch's ETDumpGen does, split in two
// so that the hot path stays cheap. While a model runs, events go into a
// preallocated buffer of small POD records (interned name ids, raw ticks), in
// completion order; afterwards WriteTo() replays them into an EtdumpBuilder.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "etbench/inspector/etdump_record.h"
#include "etbench/inspector/etdump_writer.h"
#include "etbench/runtime/clock.h"

namespace etbench::runtime {

/// What one TraceRecord stands for.
enum class TraceKind : uint8_t {
  kRunBegin,         // name_id: run name; b: bundled input index
  kRunEnd,
  kProfile,          // a named profile event: a start, b end
  kDelegateProfile,  // a start, b end; name_id: index of its side data
  kAllocator,        // name_id: allocator name
  kAllocation,       // a: size; b: allocator id
  kDebug,            // b: index of the debug event
};

/// One buffered event. 32 bytes, trivially copyable.
struct TraceRecord {
  uint64_t a;
  uint64_t b;
  int32_t chain_index;
  int32_t instruction_id;
  uint32_t name_id;
  TraceKind kind;
};

/// Buffers trace events of one process run (any number of RunData blocks).
/// Not thread-safe: one tracer per executing thread.
class Tracer {
 public:
  /// `expected_records` preallocates the buffer so that recording does not
  /// allocate in the common case.
  explicit Tracer(TimeSource source, std::size_t expected_records = 4096);

  TimeSource time_source() const { return source_; }
  /// The current tick of this tracer's time source.
  uint64_t Now() const { return ReadTicks(source_); }

  /// Interns a name (event, run or allocator name); returns its id. Not for
  /// the hot path: intern names once, ahead of execution.
  uint32_t Intern(std::string_view name);
  const std::string& NameOf(uint32_t id) const { return names_[id]; }

  /// Opens a RunData block (e.g. "Default", "Execute"). Blocks do not nest.
  void BeginRun(uint32_t name_id, int32_t bundled_input_index = -1);
  void EndRun();

  /// Records a profile event that started at `start` and ends now.
  void EndProfiling(uint32_t name_id, int32_t chain_index,
                    int32_t instruction_id, uint64_t start) {
    const uint64_t end = Now();
    // Field by field into the slot: building a temporary and copying it
    // costs a store-forwarding stall per event.
    TraceRecord* record = Append();
    record->a = start;
    record->b = end;
    record->chain_index = chain_index;
    record->instruction_id = instruction_id;
    record->name_id = name_id;
    record->kind = TraceKind::kProfile;
  }

  /// Records a delegate-internal profile event: no name, an int id (or -1)
  /// and/or a string id (or empty), optional opaque metadata, and times in
  /// the delegate's own unit.
  void LogProfilingDelegate(int32_t chain_index, int32_t instruction_id,
                            int32_t delegate_debug_id_int,
                            std::string_view delegate_debug_id_str,
                            const std::vector<uint8_t>& metadata,
                            uint64_t start, uint64_t end);

  /// Declares an allocator in the current block; returns its allocator id,
  /// 1-based like ETDumpGen::track_allocator (ids restart at 1 in every
  /// block, as RunData.allocators does).
  int32_t TrackAllocator(std::string_view name);
  void TrackAllocation(int32_t allocator_id, uint64_t size);

  /// Records a debug event (intermediate or output value).
  void LogDebugEvent(DebugEventRecord event);

  std::size_t record_count() const { return size_; }
  /// Drops every recorded event (interned names and buffer capacity stay).
  void Clear();

  /// Replays every buffered event into `builder`, block by block.
  void WriteTo(EtdumpBuilder& builder) const;
  /// WriteTo into a fresh builder, then Finish.
  std::vector<uint8_t> ToEtdump(const EtdumpWriteOptions& options = {}) const;

 private:
  struct DelegateEvent {
    int32_t id_int;
    uint32_t id_str;  // name id; the id of "" when unset
    uint32_t metadata_offset;
    uint32_t metadata_size;
  };

  // The next free slot; grows the buffer (rarely: it is preallocated).
  TraceRecord* Append() {
    if (size_ == records_.size()) Grow();
    return &records_[size_++];
  }
  void Grow();
  void Push(const TraceRecord& record) { *Append() = record; }

  TimeSource source_;
  std::vector<TraceRecord> records_;  // [0, size_) are recorded events
  std::size_t size_ = 0;
  std::vector<std::string> names_;
  std::unordered_map<std::string, uint32_t> name_ids_;
  std::vector<DelegateEvent> delegate_events_;
  std::vector<uint8_t> delegate_metadata_;
  std::vector<DebugEventRecord> debug_events_;
  int32_t allocators_in_run_ = 0;
  uint32_t empty_name_;
};

/// RAII profile event: starts on construction, recorded on destruction.
class ProfileScope {
 public:
  ProfileScope(Tracer& tracer, uint32_t name_id, int32_t chain_index,
               int32_t instruction_id)
      : tracer_(tracer),
        name_id_(name_id),
        chain_index_(chain_index),
        instruction_id_(instruction_id),
        start_(tracer.Now()) {}
  ~ProfileScope() {
    tracer_.EndProfiling(name_id_, chain_index_, instruction_id_, start_);
  }
  ProfileScope(const ProfileScope&) = delete;
  ProfileScope& operator=(const ProfileScope&) = delete;

  uint64_t start() const { return start_; }

 private:
  Tracer& tracer_;
  uint32_t name_id_;
  int32_t chain_index_;
  int32_t instruction_id_;
  uint64_t start_;
};

}  // namespace etbench::runtime
