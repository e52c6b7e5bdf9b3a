#include "etbench/runtime/tracer.h"

#include <algorithm>
#include <utility>

namespace etbench::runtime {

Tracer::Tracer(TimeSource source, std::size_t expected_records)
    : source_(source) {
  records_.resize(std::max<std::size_t>(expected_records, 16));
  empty_name_ = Intern("");
}

void Tracer::Grow() { records_.resize(records_.size() * 2); }

uint32_t Tracer::Intern(std::string_view name) {
  auto it = name_ids_.find(std::string(name));
  if (it != name_ids_.end()) return it->second;
  const auto id = static_cast<uint32_t>(names_.size());
  names_.emplace_back(name);
  name_ids_.emplace(std::string(name), id);
  return id;
}

void Tracer::Clear() {
  size_ = 0;
  delegate_events_.clear();
  delegate_metadata_.clear();
  debug_events_.clear();
  allocators_in_run_ = 0;
}

void Tracer::BeginRun(uint32_t name_id, int32_t bundled_input_index) {
  allocators_in_run_ = 0;
  Push(TraceRecord{0, static_cast<uint64_t>(int64_t{bundled_input_index}), 0,
                   0, name_id, TraceKind::kRunBegin});
}

void Tracer::EndRun() {
  Push(TraceRecord{0, 0, 0, 0, 0, TraceKind::kRunEnd});
}

void Tracer::LogProfilingDelegate(int32_t chain_index, int32_t instruction_id,
                                  int32_t delegate_debug_id_int,
                                  std::string_view delegate_debug_id_str,
                                  const std::vector<uint8_t>& metadata,
                                  uint64_t start, uint64_t end) {
  DelegateEvent event;
  event.id_int = delegate_debug_id_int;
  event.id_str = delegate_debug_id_str.empty() ? empty_name_
                                               : Intern(delegate_debug_id_str);
  event.metadata_offset = static_cast<uint32_t>(delegate_metadata_.size());
  event.metadata_size = static_cast<uint32_t>(metadata.size());
  delegate_metadata_.insert(delegate_metadata_.end(), metadata.begin(),
                            metadata.end());
  const auto index = static_cast<uint32_t>(delegate_events_.size());
  delegate_events_.push_back(event);
  Push(TraceRecord{start, end, chain_index, instruction_id, index,
                   TraceKind::kDelegateProfile});
}

int32_t Tracer::TrackAllocator(std::string_view name) {
  Push(TraceRecord{0, 0, 0, 0, Intern(name), TraceKind::kAllocator});
  return ++allocators_in_run_;
}

void Tracer::TrackAllocation(int32_t allocator_id, uint64_t size) {
  Push(TraceRecord{size, static_cast<uint64_t>(allocator_id), 0, 0, 0,
                   TraceKind::kAllocation});
}

void Tracer::LogDebugEvent(DebugEventRecord event) {
  const auto index = static_cast<uint32_t>(debug_events_.size());
  debug_events_.push_back(std::move(event));
  Push(TraceRecord{0, index, 0, 0, 0, TraceKind::kDebug});
}

void Tracer::WriteTo(EtdumpBuilder& builder) const {
  for (std::size_t i = 0; i < size_; ++i) {
    const TraceRecord& record = records_[i];
    switch (record.kind) {
      case TraceKind::kRunBegin:
        builder.BeginRun(names_[record.name_id],
                         static_cast<int32_t>(static_cast<int64_t>(record.b)));
        break;
      case TraceKind::kRunEnd:
        builder.EndRun();
        break;
      case TraceKind::kProfile:
        builder.AddProfileEvent(names_[record.name_id], record.chain_index,
                                record.instruction_id, record.a, record.b);
        break;
      case TraceKind::kDelegateProfile: {
        const DelegateEvent& event = delegate_events_[record.name_id];
        ProfileEventRecord profile;
        profile.chain_index = record.chain_index;
        profile.instruction_id = record.instruction_id;
        profile.delegate_debug_id_int = event.id_int;
        profile.delegate_debug_id_str = names_[event.id_str];
        const auto begin = delegate_metadata_.begin() + event.metadata_offset;
        profile.delegate_debug_metadata.assign(begin,
                                               begin + event.metadata_size);
        profile.start_time = record.a;
        profile.end_time = record.b;
        builder.AddProfileEvent(profile);
        break;
      }
      case TraceKind::kAllocator:
        builder.AddAllocator(names_[record.name_id]);
        break;
      case TraceKind::kAllocation:
        builder.AddAllocationEvent(static_cast<int32_t>(record.b), record.a);
        break;
      case TraceKind::kDebug:
        builder.AddDebugEvent(debug_events_[record.b]);
        break;
    }
  }
}

std::vector<uint8_t> Tracer::ToEtdump(const EtdumpWriteOptions& options) const {
  EtdumpBuilder builder;
  WriteTo(builder);
  return builder.Finish(options);
}

}  // namespace etbench::runtime
