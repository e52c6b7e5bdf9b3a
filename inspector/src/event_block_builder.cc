// Grouping of ETDump runs into EventBlocks, following the reference
// Inspector (devtools/inspector/_inspector.py, EventBlock._gen_from_etdump):
//
//  0. Runs without an events vector are skipped (`run.events is None`).
//  1. Within a run, profile and debug events are collated per instruction
//     key (instruction id, chain, delegate int id, delegate str id), in order
//     of first appearance; debug events flagged as outputs are run outputs.
//  2. Each profile event of a collated instruction yields an event
//     signature (instruction id, profile signature, signature of the
//     instruction's first debug event); an instruction without profile
//     events yields one debug-only signature.
//  3. A run's signature is (name, ordered event signatures, bundled input
//     index); runs with equal signatures merge into one EventBlock.
//
// Where etbench deliberately differs (see README): duplicate signatures in
// one run are all kept (numbered by `occurrence`) instead of keeping the
// last; allocation events are accounted instead of rejected; delegated
// durations are computed in integer ticks before scaling; the 32-bit wrap
// is exact.
//
// Everything reads the verified FlatBuffer in place: strings are
// string_views into the file, nothing is copied per event.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <unordered_map>

#include "etbench/inspector/inspector.h"
#include "file_bytes.h"
#include "grouper.h"
#include "perf_data_ticks.h"

namespace etbench {
namespace grouping {
uint32_t Grouper::InternSignature(const EventSignature& sig) {
  auto [it, inserted] = signature_ids_.emplace(sig, static_cast<uint32_t>(signatures_.size()));
  if (inserted) signatures_.push_back(sig);
  return it->second;
}

std::size_t Grouper::FindOrAddInstruction(const InstructionKey& key) {
  const bool fast = key.delegate_int == -1 && key.delegate_str.empty() &&
                    (key.chain == 0 || key.chain == -1) && key.instruction_id >= 0 &&
                    key.instruction_id < (1 << 20);
  std::size_t slot = 0;
  if (fast) {
    slot = 2 * static_cast<std::size_t>(key.instruction_id) + (key.chain == 0 ? 1 : 0);
    if (slot >= slot_stamp_.size()) {
      slot_stamp_.resize(slot + 1, 0);
      slot_index_.resize(slot + 1, 0);
    }
    if (slot_stamp_[slot] == run_stamp_) return slot_index_[slot];
  } else {
    auto it = instruction_index_.find(key);
    if (it != instruction_index_.end()) return it->second;
  }
  const std::size_t index = instruction_count_++;
  if (index == instructions_.size()) instructions_.emplace_back();
  Instruction& fresh = instructions_[index];
  fresh.key = key;
  fresh.profile.clear();
  fresh.debug.clear();
  if (fast) {
    slot_stamp_[slot] = run_stamp_;
    slot_index_[slot] = static_cast<uint32_t>(index);
  } else {
    instruction_index_.emplace(key, index);
  }
  return index;
}

void Grouper::CollateRun(const fb::RunData& run, std::vector<const fb::Value*>* outputs) {
  instruction_count_ = 0;
  if (!instruction_index_.empty()) instruction_index_.clear();
  run_has_allocations_ = false;
  if (++run_stamp_ == 0) {  // stamps wrapped: forget every slot
    std::fill(slot_stamp_.begin(), slot_stamp_.end(), 0);
    run_stamp_ = 1;
  }
  const auto* events = run.events();
  if (events == nullptr) return;
  for (const fb::Event* event : *events) {
    InstructionKey key;
    const fb::ProfileEvent* profile = event->profile_event();
    const fb::DebugEvent* debug = event->debug_event();
    if (profile != nullptr) {
      key = {profile->instruction_id(), profile->chain_index(), profile->delegate_debug_id_int(),
             View(profile->delegate_debug_id_str())};
    } else if (debug != nullptr) {
      key = {debug->instruction_id(), DebugChain(debug->chain_index()),
             debug->delegate_debug_id_int(), View(debug->delegate_debug_id_str())};
    } else {
      run_has_allocations_ |= event->allocation_event() != nullptr;
      continue;  // allocation events are accounted separately (AppendRun)
    }
    Instruction& instruction = instructions_[FindOrAddInstruction(key)];
    if (profile != nullptr) {
      instruction.profile.push_back(profile);
      // The reference's _collect_run_outputs reads every debug member,
      // even one beside the profile event that the collation used.
      const fb::Value* value = debug != nullptr ? debug->debug_entry() : nullptr;
      if (value != nullptr && value->output() != nullptr && value->output()->bool_val()) {
        outputs->push_back(value);
      }
    } else {
      // Never null in a verified file, but read again: null if the file
      // was truncated meanwhile (truncation_guard.h; reported by the caller).
      const fb::Value* value = debug->debug_entry();
      if (value != nullptr && value->output() != nullptr && value->output()->bool_val()) {
        outputs->push_back(value);
      } else {
        instruction.debug.push_back(debug);
      }
    }
  }
}

std::optional<std::size_t> Grouper::MatchPreviousBlock(std::string_view name,
                                                       int32_t bundled) const {
  std::size_t index = previous_block_;
  if (index == SIZE_MAX || !SameText(name, previous_name_)) {
    auto it = last_block_by_name_.find(name);
    if (it == last_block_by_name_.end()) return std::nullopt;
    index = it->second;
  }
  const BlockAccum& block = blocks_[index];
  if (block.bundled_input_index != bundled ||
      block.signature_ids.size() != run_instances_.size()) {
    return std::nullopt;
  }
  // Equal sequences without occurrence numbers have equal numbering, so
  // comparing the base signatures is enough.
  for (std::size_t i = 0; i < run_instances_.size(); ++i) {
    const EventSignature& known = signatures_[block.signature_ids[i]];
    const EventSignature mine = SignatureOf(run_instances_[i]);
    if (!(known.instruction_id == mine.instruction_id && known.profile == mine.profile &&
          known.debug == mine.debug)) {
      return std::nullopt;
    }
  }
  return index;
}

Status Grouper::AddRun(std::size_t run_index, const fb::RunData& run) {
  if (AppendLikeTemplate(run_index, run)) {
    return CheckOutputs(blocks_[previous_block_], run_index, no_outputs_);
  }
  std::vector<const fb::Value*> outputs;
  CollateRun(run, &outputs);

  // The run's events in signature order: per collated instruction, one per
  // profile event, or one debug-only event.
  run_instances_.clear();
  run_debug_.clear();
  for (std::size_t i = 0; i < instruction_count_; ++i) {
    const Instruction& ins = instructions_[i];
    if (ins.profile.empty() && ins.debug.empty()) continue;  // outputs only
    const uint32_t debug_begin = static_cast<uint32_t>(run_debug_.size());
    run_debug_.insert(run_debug_.end(), ins.debug.begin(), ins.debug.end());
    const uint32_t debug_count = static_cast<uint32_t>(ins.debug.size());
    const int32_t id = ins.key.instruction_id;
    if (ins.profile.empty()) run_instances_.push_back(Instance{nullptr, debug_begin, debug_count, id});
    for (const fb::ProfileEvent* p : ins.profile) {
      run_instances_.push_back(Instance{p, debug_begin, debug_count, id});
    }
  }

  const std::string_view name = View(run.name());
  std::optional<std::size_t> block_index = MatchPreviousBlock(name, run.bundled_input_index());
  if (!block_index) {
    // Full path: number repeated signatures, intern, look the run up.
    RunKey key{name, run.bundled_input_index(), {}};
    key.signature_ids.reserve(run_instances_.size());
    for (const Instance& inst : run_instances_) {
      EventSignature sig = SignatureOf(inst);
      const uint32_t base = InternSignature(sig);
      if (base >= occurrences_.size()) occurrences_.resize(base + 1, 0);
      const uint32_t seen = occurrences_[base]++;
      if (seen == 0) touched_.push_back(base);
      uint32_t id = base;
      if (seen > 0) {
        sig.occurrence = static_cast<int32_t>(seen);
        id = InternSignature(sig);
      }
      key.signature_ids.push_back(id);
    }
    for (uint32_t base : touched_) occurrences_[base] = 0;
    touched_.clear();
    auto [it, inserted] = block_index_.emplace(std::move(key), blocks_.size());
    if (inserted) {
      BlockAccum block;
      block.name = it->first.name;
      block.bundled_input_index = it->first.bundled_input_index;
      block.signature_ids = it->first.signature_ids;
      block.positions.resize(block.signature_ids.size());
      // Reserve for every remaining run: most files repeat one signature.
      // Untouched capacity of large vectors is not resident memory.
      // Only the first blocks: a crafted file of many one-run blocks would
      // otherwise reserve address space for blocks x runs x events.
      const std::size_t remaining = run_count_ - run_index;
      for (PositionAccum& pos : block.positions) {
        if (blocks_.size() >= kReservingBlocks) break;
        pos.start.reserve(remaining);
        pos.end.reserve(remaining);
      }
      blocks_.push_back(std::move(block));
    }
    block_index = it->second;
  }
  NoteBlockOf(name, *block_index);
  BlockAccum& block = blocks_[*block_index];
  FlushPendingTicks();  // the fast path's gathered runs come before this one
  if (Status s = AppendRun(block, run_index, run); !s.ok()) return s;
  if (outputs.empty()) {
    RecordTemplate(block, run);
  } else {
    block.template_events.clear();
  }
  return CheckOutputs(block, run_index, outputs);
}

Status Grouper::CheckAllocatorCells(const BlockAccum& block, std::size_t run_index,
                                   std::size_t names) const {
  // Usage is kept per allocator name and run (16 bytes a cell): a real dump
  // declares its few allocators in every run, so the cells stay under what
  // its allocator tables take; a crafted one naming new allocators in the
  // runs of one block would need names x runs cells.
  const uint64_t runs = block.run_indices.size();
  if (AllocatorCellsFit(names, runs)) return Ok{};
  return InputError(source_name_ + ": " + BlockLabel(block) + ", run_data[" +
                    std::to_string(run_index) + "]: " + std::to_string(names) +
                    " allocator names over " + std::to_string(runs) +
                    " runs are more than a file of " + std::to_string(file_bytes_) +
                    " bytes can declare (a crafted or corrupt ETDump)");
}

Status Grouper::AppendRun(BlockAccum& block, std::size_t run_index, const fb::RunData& run) {
  const std::size_t run_in_block = block.run_indices.size();
  block.run_indices.push_back(run_index);
  const uint32_t arena_offset = static_cast<uint32_t>(block.debug_arena.size());
  block.debug_arena.insert(block.debug_arena.end(), run_debug_.begin(), run_debug_.end());
  for (std::size_t p = 0; p < run_instances_.size(); ++p) {
    const Instance& inst = run_instances_[p];
    PositionAccum& pos = block.positions[p];
    if (inst.debug_count > 0 || !pos.debug.empty()) {
      block.beyond_ticks = true;
      pos.debug.resize(run_in_block);  // no-op once tracked: one entry per earlier run
      pos.debug.emplace_back(inst.debug_begin + arena_offset, inst.debug_count);
    }
    if (inst.profile != nullptr) {
      if (run_in_block == 0) pos.chain_index = inst.profile->chain_index();
      pos.start.push_back(inst.profile->start_time());
      pos.end.push_back(inst.profile->end_time());
      const auto* metadata = inst.profile->delegate_debug_metadata();
      if (metadata != nullptr || !pos.metadata.empty()) {
        block.beyond_ticks = true;
        pos.metadata.resize(run_in_block, nullptr);  // no-op once tracked
        pos.metadata.push_back(metadata);
      }
    } else {
      if (run_in_block == 0 && inst.debug_count > 0) {
        pos.chain_index = DebugChain(run_debug_[inst.debug_begin]->chain_index());
      }
      pos.start.push_back(0);
      pos.end.push_back(0);
      if (!pos.metadata.empty()) pos.metadata.push_back(nullptr);
    }
  }

  // Allocations: bytes and count per allocator name, one slot per run.
  if (Status s = CheckAllocatorCells(block, run_index, block.allocators.size()); !s.ok()) return s;
  for (auto& [allocator_name, acc] : block.allocators) {
    acc.bytes_per_run.push_back(0);
    acc.count_per_run.push_back(0);
  }
  const auto* events = run.events();
  if (events == nullptr || !run_has_allocations_) return Ok{};
  for (const fb::Event* event : *events) {
    const fb::AllocationEvent* a = event->allocation_event();
    // Beside a profile or debug member the allocation is not the member read.
    if (a == nullptr || event->profile_event() != nullptr || event->debug_event() != nullptr) {
      continue;
    }
    // Ids are 1-based (verified by EtdumpFile): id k names allocators[k-1].
    // Checked again: a file truncated meanwhile reads as zeros.
    const auto* allocators = run.allocators();
    if (allocators == nullptr || a->allocator_id() < 1 ||
        static_cast<uoffset_t>(a->allocator_id()) > allocators->size()) {
      continue;
    }
    const std::string_view allocator =
        View(allocators->Get(static_cast<uoffset_t>(a->allocator_id() - 1))->name());
    // By name through a hash map: a linear search per event is quadratic in
    // a run with many allocators.
    auto [index, inserted] = block.allocator_index.emplace(allocator, block.allocators.size());
    if (inserted) {
      Status s = CheckAllocatorCells(block, run_index, block.allocators.size() + 1);
      if (!s.ok()) return s;
      block.allocators.push_back(
          {allocator, AllocatorAccum{std::vector<uint64_t>(run_in_block + 1, 0),
                                     std::vector<uint64_t>(run_in_block + 1, 0)}});
    }
    AllocatorAccum& found = block.allocators[index->second].second;
    found.bytes_per_run.back() += a->allocation_size();
    found.count_per_run.back() += 1;
  }
  return Ok{};
}

Status Grouper::CheckOutputs(BlockAccum& block, std::size_t run_index,
                             const std::vector<const fb::Value*>& outputs) {
  if (block.run_indices.size() == 1) {
    block.run_output = outputs;
    block.run_output_first_run = run_index;
    return Ok{};
  }
  if (outputs.size() != block.run_output.size()) {
    return InputError(source_name_ + ": " + BlockLabel(block) + ": run_data[" +
                      std::to_string(run_index) + "] has " + std::to_string(outputs.size()) +
                      " program outputs but run_data[" +
                      std::to_string(block.run_output_first_run) + "] has " +
                      std::to_string(block.run_output.size()));
  }
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    auto a = Inflate(block.run_output[i], "program output " + std::to_string(i));
    if (!a.ok()) return a.error();
    auto b = Inflate(outputs[i], "program output " + std::to_string(i));
    if (!b.ok()) return b.error();
    if (!(a.value() == b.value())) {
      return InputError(source_name_ + ": " + BlockLabel(block) + ": program output " +
                        std::to_string(i) + " differs between run_data[" +
                        std::to_string(block.run_output_first_run) + "] and run_data[" +
                        std::to_string(run_index) + "]; merged runs must produce equal outputs");
    }
  }
  return Ok{};
}

Result<DebugValue> Grouper::Inflate(const fb::Value* value, const std::string& what) {
  // Null only when the file was truncated while being read (the caller
  // reports that instead).
  if (value == nullptr) return InputError(source_name_ + ": " + what + ": no value");
  return inflater_.Inflate(*value, what);
}

namespace {

// Name, delegate id and is_delegated_op from a signature part, as the
// reference's _populate_event_signature_fields (debug overrides profile).
void ApplySignature(const SubSignature& s, Event* event) {
  if (!s.present) return;
  DelegateDebugId id;
  if (s.delegate_int != -1) {
    id = s.delegate_int;
  } else if (!s.delegate_str.empty()) {
    id = std::string(s.delegate_str);
  }
  const bool delegated = !std::holds_alternative<std::monostate>(id);
  std::string name = delegated ? DelegateDebugIdToString(id) : std::string(s.name);
  if (!name.empty()) event->name = std::move(name);
  event->delegate_debug_identifier = std::move(id);
  event->is_delegated_op = delegated;
  event->role = EventRoleOf(event->name, delegated);
}

}  // namespace

Result<Event> Grouper::BuildEvent(BlockAccum& block, std::size_t position) {
  const EventSignature& sig = signatures_[block.signature_ids[position]];
  PositionAccum& pos = block.positions[position];
  const std::size_t runs = block.run_indices.size();
  Event event;
  if (sig.instruction_id != -1) event.instruction_id = sig.instruction_id;
  event.occurrence = sig.occurrence;
  event.chain_index = pos.chain_index;
  ApplySignature(sig.profile, &event);

  if (sig.profile.present) {
    // Durations from integer ticks by one factor keep the ticks' order, so
    // their order statistics come from the ticks (PerfDataFromTicks); a
    // delegate's converter may not, and goes through PerfData::FromRaw.
    const bool converted = event.is_delegated_op && options_.delegate_time_converter;
    std::vector<double> durations;
    durations.reserve(runs);
    elapsed_.resize(runs);
    uint64_t min_tick = UINT64_MAX;
    uint64_t max_tick = 0;
    for (std::size_t r = 0; r < runs; ++r) {
      const uint64_t start = pos.start[r];
      const uint64_t end = pos.end[r];
      // The common case inline; ElapsedTicks decides the wrap-around.
      const std::optional<uint64_t> elapsed =
          end >= start ? std::optional<uint64_t>(end - start) : ElapsedTicks(start, end);
      if (!elapsed) {
        return InputError(source_name_ + ": " + BlockLabel(block) + ", run_data[" +
                          std::to_string(block.run_indices[r]) + "]: event '" + event.name +
                          "' ends at " + std::to_string(end) + " before it starts at " +
                          std::to_string(start) +
                          " (not a 32-bit counter wrap: a timestamp exceeds 32 bits)");
      }
      if (converted) {
        durations.push_back(options_.delegate_time_converter(event.name, *elapsed));
      } else {
        durations.push_back(static_cast<double>(*elapsed) / factor_);
        elapsed_[r] = *elapsed;
        min_tick = std::min(min_tick, *elapsed);
        max_tick = std::max(max_tick, *elapsed);
      }
    }
    event.perf_data = converted ? PerfData::FromRaw(std::move(durations))
                                : PerfDataFromTicks(std::move(durations), elapsed_.data(),
                                                    min_tick, max_tick, factor_);
    event.start_ticks = std::move(pos.start);
    event.end_ticks = std::move(pos.end);
    bool any_metadata = false;
    for (const auto* md : pos.metadata) any_metadata |= md != nullptr && md->size() > 0;
    if (any_metadata) {
      event.delegate_debug_metadatas.reserve(runs);
      for (const auto* md : pos.metadata) {
        event.delegate_debug_metadatas.emplace_back();
        if (md != nullptr) event.delegate_debug_metadatas.back().assign(md->begin(), md->end());
      }
    }
  }
  std::vector<uint64_t>().swap(pos.start);  // debug-only positions: freed unused
  std::vector<uint64_t>().swap(pos.end);

  ApplySignature(sig.debug, &event);

  // Debug data: taken from the first run, checked against the others.
  std::size_t first_run_with_debug = runs;
  for (std::size_t r = 0; r < pos.debug.size(); ++r) {
    const auto [begin, count] = pos.debug[r];
    if (count == 0) continue;
    const std::string what_prefix = BlockLabel(block) + ", event '" + event.name + "'";
    if (first_run_with_debug == runs) {
      first_run_with_debug = r;
      for (uint32_t k = 0; k < count; ++k) {
        auto v = Inflate(block.debug_arena[begin + k]->debug_entry(),
                         what_prefix + " debug value " + std::to_string(k));
        if (!v.ok()) return v.error();
        event.debug_data.push_back(std::move(v).value());
      }
      continue;
    }
    // Like the reference, entries are compared pairwise up to the shorter list.
    const std::size_t n = std::min<std::size_t>(count, event.debug_data.size());
    for (std::size_t k = 0; k < n; ++k) {
      auto v = Inflate(block.debug_arena[begin + k]->debug_entry(),
                       what_prefix + " debug value " + std::to_string(k));
      if (!v.ok()) return v.error();
      if (!(v.value() == event.debug_data[k])) {
        return InputError(source_name_ + ": " + what_prefix +
                          (event.instruction_id
                               ? " (instruction " + std::to_string(*event.instruction_id) + ")"
                               : std::string()) +
                          ": debug value " + std::to_string(k) + " differs between run_data[" +
                          std::to_string(block.run_indices[first_run_with_debug]) +
                          "] and run_data[" + std::to_string(block.run_indices[r]) +
                          "]; merged runs must record the same intermediate values");
      }
    }
  }

  if (event.is_delegated_op && options_.delegate_metadata_parser &&
      !event.delegate_debug_metadatas.empty()) {
    event.delegate_debug_metadata_parsed =
        options_.delegate_metadata_parser(event.delegate_debug_metadatas);
  }
  return event;
}

Result<std::vector<EventBlock>> Grouper::Finish() {
  FlushPendingTicks();
  std::vector<uint64_t>().swap(pending_start_);
  std::vector<uint64_t>().swap(pending_end_);
  const TimeScale target = *options_.target_time_scale;
  std::vector<EventBlock> out;
  out.reserve(blocks_.size());
  for (BlockAccum& acc : blocks_) {
    EventBlock block;
    block.name = std::string(acc.name);
    if (acc.bundled_input_index != -1) block.bundled_input_index = acc.bundled_input_index;
    block.run_count = acc.run_indices.size();
    block.source_time_scale = options_.source_time_scale;
    block.target_time_scale = target;
    block.events.reserve(acc.signature_ids.size());
    for (std::size_t p = 0; p < acc.signature_ids.size(); ++p) {
      auto event = BuildEvent(acc, p);
      if (!event.ok()) return event.error();
      block.events.push_back(std::move(event).value());
    }
    for (std::size_t i = 0; i < acc.run_output.size(); ++i) {
      auto v = Inflate(acc.run_output[i], BlockLabel(acc) + " program output " +
                                               std::to_string(i));
      if (!v.ok()) return v.error();
      block.run_output.push_back(std::move(v).value());
    }
    // Moved, not copied, once the events' error messages no longer need them.
    block.run_indices = std::move(acc.run_indices);
    block.framework_tax = FrameworkTaxOfBlock(block);
    for (auto& [name, usage] : acc.allocators) {
      block.allocations.push_back(AllocatorUsage{
          std::string(name), std::move(usage.bytes_per_run), std::move(usage.count_per_run)});
    }
    out.push_back(std::move(block));
  }
  return out;
}

Result<double> ResolveTimeScales(InspectorOptions* options) {
  if (!options->target_time_scale) {
    options->target_time_scale = DefaultTargetTimeScale(options->source_time_scale);
  }
  return TimeScaleFactor(options->source_time_scale, *options->target_time_scale);
}

Result<std::vector<EventBlock>> GroupFile(const EtdumpFile& file, const InspectorOptions& options,
                                          double factor) {
  // Pointers and sizes read once: a file truncated while mapped reads as
  // zeros from then on (truncation_guard.h), so what was checked non-null
  // is not read again.
  const auto* runs = file.root().run_data();
  const uoffset_t run_count = runs != nullptr ? runs->size() : 0;
  Grouper grouper(file.source_name(), file.size_bytes(), run_count, options, factor);
  std::size_t events_since_release = 0;
  for (uoffset_t r = 0; r < run_count; ++r) {
    const fb::RunData& run = *runs->Get(r);
    const auto* events = run.events();
    if (events == nullptr) continue;
    if (Status s = grouper.Add(r, run); !s.ok()) return s.error();
    // Read once, in order: the pages behind can leave the resident set
    // (what later steps read again, names and debug values, faults back in).
    // (The whole mapping: EtdumpFile has no view of the runs' spans. The
    // one-pass reader, EventBlockReader, releases spans: RunPageRelease.)
    events_since_release += events->size();
    if (events_since_release >= kEventsPerPageRelease) {
      file.ReleaseResidentPages();
      events_since_release = 0;
    }
  }
  return grouper.Finish();
}

}  // namespace grouping

std::string DelegateDebugIdToString(const DelegateDebugId& id) {
  if (const auto* i = std::get_if<int32_t>(&id)) return std::to_string(*i);
  if (const auto* s = std::get_if<std::string>(&id)) return *s;
  return "";
}

std::optional<uint64_t> ElapsedTicks(uint64_t start, uint64_t end) {
  if (end >= start) return end - start;
  constexpr uint64_t kMax32 = 0xFFFFFFFFull;
  if (start <= kMax32 && end <= kMax32) {
    // A 32-bit counter wrapped between start and end. The reference uses
    // (2^32 - 1 - start) + end, one tick short; the true distance is this.
    return (kMax32 + 1 - start) + end;
  }
  return std::nullopt;
}

Result<std::vector<EventBlock>> BuildEventBlocks(const EtdumpFile& file,
                                                 const InspectorOptions& options) {
  InspectorOptions resolved = options;
  Result<double> factor = grouping::ResolveTimeScales(&resolved);
  if (!factor.ok()) return factor.error();
  Result<std::vector<EventBlock>> blocks = grouping::GroupFile(file, resolved, factor.value());
  // Bytes read from a file truncated meanwhile were zeros: whatever came of
  // them (blocks or another error), the truncation is the error.
  if (file.truncated()) return file.TruncationError();
  return blocks;
}

}  // namespace etbench
