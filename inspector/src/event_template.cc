// The template fast path of the grouping (Grouper::AppendLikeTemplate):
// a run that repeats, field for field, its name's last run that took the
// full path goes straight to that run's positions: one compare per event
// instead of collating, signing and matching the run (event_block_builder.cc).

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "grouper.h"

namespace etbench::grouping {

// Events ahead whose column slots the fast path prefetches for writing,
// when it stores straight into the columns (not gathering: a block of more
// than kMaxBatchedPositions positions, or keeping more than ticks): the two
// tick stores of an event go to its position's own columns, a different
// cache line each (perf).
constexpr std::size_t kPrefetchAhead = 8;

namespace {

using flatbuffers::soffset_t;
using flatbuffers::voffset_t;

// A verified table's field slots, as its generated accessors read them
// (Table::GetOptionalFieldOffset; 0: absent), looked up again only when the
// table's vtable is neither of the last two tables' vtables: the tables of
// one run share a few vtables (a builder writes a table type in two layouts
// that alternate with the table's alignment), and the fast path reads every
// event's fields.
template <std::size_t N>
class SlotCache {
 public:
  explicit SlotCache(const voffset_t (&ids)[N]) : ids_(ids) {}
  // The slots of the verified table at `table`.
  const voffset_t* For(const uint8_t* table) {
    const uint8_t* vtable = table - flatbuffers::ReadScalar<soffset_t>(table);
    if (vtable == vtable_[0]) return slots_[0];
    if (vtable == vtable_[1]) return slots_[1];
    // The older entry goes; the newer moves to [1].
    vtable_[1] = vtable_[0];
    std::copy(slots_[0], slots_[0] + N, slots_[1]);
    vtable_[0] = vtable;
    const voffset_t vsize = flatbuffers::ReadScalar<voffset_t>(vtable);
    for (std::size_t i = 0; i < N; ++i) {
      slots_[0][i] = ids_[i] < vsize ? flatbuffers::ReadScalar<voffset_t>(vtable + ids_[i]) : 0;
    }
    return slots_[0];
  }

 private:
  const voffset_t (&ids_)[N];
  const uint8_t* vtable_[2] = {nullptr, nullptr};
  voffset_t slots_[2][N] = {};
};

template <typename T>
T FieldOr(const uint8_t* table, voffset_t slot, T absent) {
  return slot != 0 ? flatbuffers::ReadScalar<T>(table + slot) : absent;
}
// What a verified offset field points at (null: absent).
template <typename T>
const T* PointerOf(const uint8_t* table, voffset_t slot) {
  if (slot == 0) return nullptr;
  const uint8_t* p = table + slot;
  return reinterpret_cast<const T*>(p + flatbuffers::ReadScalar<flatbuffers::uoffset_t>(p));
}

constexpr voffset_t kEventSlots[] = {fb::Event::VT_PROFILE_EVENT, fb::Event::VT_ALLOCATION_EVENT,
                                     fb::Event::VT_DEBUG_EVENT};
constexpr voffset_t kProfileSlots[] = {
    fb::ProfileEvent::VT_NAME,           fb::ProfileEvent::VT_CHAIN_INDEX,
    fb::ProfileEvent::VT_INSTRUCTION_ID, fb::ProfileEvent::VT_DELEGATE_DEBUG_ID_INT,
    fb::ProfileEvent::VT_DELEGATE_DEBUG_ID_STR, fb::ProfileEvent::VT_START_TIME,
    fb::ProfileEvent::VT_END_TIME,       fb::ProfileEvent::VT_DELEGATE_DEBUG_METADATA};

}  // namespace

void Grouper::NoteBlockOf(std::string_view name, std::size_t block_index) {
  if (block_index != previous_block_ || !SameText(name, previous_name_)) {
    last_block_by_name_[name] = block_index;
  }
  previous_name_ = name;
  previous_block_ = block_index;
}

void Grouper::RecordTemplate(BlockAccum& block, const fb::RunData& run) {
  block.template_events.clear();
  // The size is read once, like every part of the file here (see Run()).
  const auto* events = run.events();
  const uoffset_t n = events != nullptr ? events->size() : 0;
  if (n == 0 || run_has_allocations_ || !run_debug_.empty() || run_instances_.size() != n) {
    return;
  }
  raw_order_.clear();
  for (uoffset_t j = 0; j < n; ++j) {
    const fb::Event* event = events->Get(j);
    const fb::ProfileEvent* profile = event->profile_event();
    if (profile == nullptr || event->debug_event() != nullptr ||
        event->allocation_event() != nullptr) {
      return;
    }
    raw_order_.emplace_back(profile, j);
  }
  std::sort(raw_order_.begin(), raw_order_.end());
  std::vector<TemplateEvent> recorded(n);
  for (std::size_t p = 0; p < run_instances_.size(); ++p) {
    const fb::ProfileEvent* profile = run_instances_[p].profile;
    auto raw = std::lower_bound(raw_order_.begin(), raw_order_.end(),
                                std::pair<const fb::ProfileEvent*, uint32_t>(profile, 0));
    if (profile == nullptr || raw == raw_order_.end() || raw->first != profile) return;
    TemplateEvent& t = recorded[raw->second];
    t.name = View(profile->name());
    t.delegate_str = View(profile->delegate_debug_id_str());
    t.instruction_id = profile->instruction_id();
    t.chain = profile->chain_index();
    t.delegate_int = profile->delegate_debug_id_int();
    t.position = static_cast<uint32_t>(p);
  }
  block.template_events = std::move(recorded);
}

// The fast path of AddRun: a run of a known name whose events repeat, field
// for field and in the same order, the template run of that name's latest
// block (all profile events alone) collates into the same instructions and
// signs the same way, so it belongs to that block and each event to the
// template's position. False (nothing changed): take the full path.
bool Grouper::AppendLikeTemplate(std::size_t run_index, const fb::RunData& run) {
  const std::string_view name = View(run.name());
  std::size_t index = previous_block_;
  if (index == SIZE_MAX || !SameText(name, previous_name_)) {
    auto it = last_block_by_name_.find(name);
    if (it == last_block_by_name_.end()) return false;
    index = it->second;
  }
  BlockAccum& block = blocks_[index];
  const auto* events = run.events();
  const std::vector<TemplateEvent>& recorded = block.template_events;
  const uoffset_t n = events != nullptr ? events->size() : 0;
  if (recorded.empty() || n != recorded.size() ||
      run.bundled_input_index() != block.bundled_input_index) {
    return false;
  }
  // The block's allocators get a cell for this run too: past the limit the
  // full path refuses the run (AppendRun's CheckAllocatorCells).
  if (!block.allocators.empty() &&
      !AllocatorCellsFit(block.allocators.size(), block.run_indices.size() + 1)) {
    return false;
  }
  run_hits_.resize(n);
  // The events' fields as their accessors read them (profile_event(),
  // instruction_id(), start_time(), ...), each vtable's slots looked up
  // once; everything the second loop stores is read here.
  SlotCache event_slots(kEventSlots);
  SlotCache profile_slots(kProfileSlots);
  bool any_metadata = false;
  for (uoffset_t j = 0; j < n; ++j) {
    const auto* event = reinterpret_cast<const uint8_t*>(events->Get(j));
    const voffset_t* es = event_slots.For(event);
    const auto* p = PointerOf<fb::ProfileEvent>(event, es[0]);
    if (p == nullptr || es[1] != 0 || es[2] != 0) return false;
    const auto* table = reinterpret_cast<const uint8_t*>(p);
    const voffset_t* ps = profile_slots.For(table);
    const TemplateEvent& t = recorded[j];
    if (FieldOr<int32_t>(table, ps[2], -1) != t.instruction_id ||
        FieldOr<int32_t>(table, ps[1], 0) != t.chain ||
        FieldOr<int32_t>(table, ps[3], -1) != t.delegate_int ||
        !SameText(View(PointerOf<flatbuffers::String>(table, ps[4])), t.delegate_str) ||
        !SameText(View(PointerOf<flatbuffers::String>(table, ps[0])), t.name)) {
      return false;
    }
    TemplateHit& hit = run_hits_[j];
    hit.start = FieldOr<uint64_t>(table, ps[5], 0);
    hit.end = FieldOr<uint64_t>(table, ps[6], 0);
    hit.metadata = PointerOf<flatbuffers::Vector<uint8_t>>(table, ps[7]);
    any_metadata |= hit.metadata != nullptr;
  }
  if (index != previous_block_) NoteBlockOf(name, index);  // else: same name, same block
  // What AppendRun does for a run of profile events alone. While no
  // position of the block keeps debug events or metadata and this run has
  // none, that is the two ticks of each position alone: gathered, to be
  // moved into the columns kTickBatch runs at a time (pending_start_), or
  // for a block of many positions stored straight into them (one cache
  // line of the position: PositionAccum).
  const std::size_t run_in_block = block.run_indices.size();
  block.run_indices.push_back(run_index);
  for (auto& [allocator_name, acc] : block.allocators) {
    acc.bytes_per_run.push_back(0);
    acc.count_per_run.push_back(0);
  }
  const auto arena_offset = static_cast<uint32_t>(block.debug_arena.size());
  const bool ticks_only = !block.beyond_ticks && !any_metadata;
  block.beyond_ticks |= any_metadata;
  const std::size_t positions = recorded.size();
  if (ticks_only && positions <= kMaxBatchedPositions) {
    if (pending_runs_ > 0 && pending_block_ != index) FlushPendingTicks();
    if (pending_start_.size() < kTickBatch * positions) {
      pending_start_.resize(kTickBatch * positions);
      pending_end_.resize(kTickBatch * positions);
    }
    pending_block_ = index;
    uint64_t* start = pending_start_.data() + pending_runs_ * positions;
    uint64_t* end = pending_end_.data() + pending_runs_ * positions;
    for (std::size_t j = 0; j < positions; ++j) {
      start[recorded[j].position] = run_hits_[j].start;
      end[recorded[j].position] = run_hits_[j].end;
    }
    if (++pending_runs_ == kTickBatch) FlushPendingTicks();
    return true;
  }
  FlushPendingTicks();  // this block's earlier runs first
  for (std::size_t j = 0; j < recorded.size(); ++j) {
    const TemplateHit& hit = run_hits_[j];
    PositionAccum& pos = block.positions[recorded[j].position];
    if (j + kPrefetchAhead < recorded.size()) {
      const PositionAccum& ahead = block.positions[recorded[j + kPrefetchAhead].position];
      __builtin_prefetch(ahead.start.data() + ahead.start.size(), 1);
      __builtin_prefetch(ahead.end.data() + ahead.end.size(), 1);
    }
    pos.start.push_back(hit.start);
    pos.end.push_back(hit.end);
    if (ticks_only) continue;
    if (!pos.debug.empty()) {
      pos.debug.resize(run_in_block);
      pos.debug.emplace_back(arena_offset, 0);
    }
    if (hit.metadata != nullptr || !pos.metadata.empty()) {
      pos.metadata.resize(run_in_block, nullptr);
      pos.metadata.push_back(hit.metadata);
    }
  }
  return true;
}

void Grouper::FlushPendingTicks() {
  if (pending_runs_ == 0) return;
  BlockAccum& block = blocks_[pending_block_];
  const std::size_t positions = block.positions.size();
  uint64_t values[kTickBatch];
  for (std::size_t p = 0; p < positions; ++p) {
    PositionAccum& pos = block.positions[p];
    for (std::size_t k = 0; k < pending_runs_; ++k) values[k] = pending_start_[k * positions + p];
    pos.start.insert(pos.start.end(), values, values + pending_runs_);
    for (std::size_t k = 0; k < pending_runs_; ++k) values[k] = pending_end_[k * positions + p];
    pos.end.insert(pos.end.end(), values, values + pending_runs_);
  }
  pending_runs_ = 0;
}

}  // namespace etbench::grouping
