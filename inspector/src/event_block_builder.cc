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
#include "event_signature.h"
#include "value_inflation.h"

namespace etbench {
namespace {

using flatbuffers::uoffset_t;
using grouping::View;
using grouping::SameText;
using grouping::HashMix;
using grouping::DebugChain;
using grouping::InstructionKey;
using grouping::InstructionKeyHash;
using grouping::SubSignature;
using grouping::EventSignature;
using grouping::EventSignatureHash;
using grouping::ProfileSignature;
using grouping::DebugSignature;
using grouping::RunKey;
using grouping::RunKeyHash;

// Events read between two releases of a mapped file's pages (about 1-2 MB
// of an ETDump; see EtdumpFile::ReleaseResidentPages).
constexpr std::size_t kEventsPerPageRelease = std::size_t{1} << 15;

// One collated instruction of the current run.
struct Instruction {
  InstructionKey key;
  std::vector<const fb::ProfileEvent*> profile;
  std::vector<const fb::DebugEvent*> debug;
};

// One event of one run, before it is placed into its block.
struct Instance {
  const fb::ProfileEvent* profile = nullptr;
  uint32_t debug_begin = 0;  // into the run's debug event list
  uint32_t debug_count = 0;
  int32_t instruction_id = -1;  // of the collated instruction
};

// What every run of a block recorded at one position (= one Event), stored
// column-wise while the file is read sequentially, in the form the Event
// keeps: the tick columns are moved into it, not copied, and nothing else
// is stored per run unless some run has it (delegate metadata, debug
// events), so a profile event costs 16 bytes per run here.
struct PositionAccum {
  std::vector<uint64_t> start;  // profile ticks; 0/0 for debug-only positions
  std::vector<uint64_t> end;
  // One per run once any run had metadata (earlier runs: nullptr).
  std::vector<const flatbuffers::Vector<uint8_t>*> metadata;
  // (begin into BlockAccum::debug_arena, count) per run once any run had
  // debug events (earlier runs: 0, 0).
  std::vector<std::pair<uint32_t, uint32_t>> debug;
  int64_t chain_index = 0;  // first run's
};

// One raw event of a block's template run (BlockAccum::template_events):
// the fields that decide its collation and signature, and its position.
struct TemplateEvent {
  std::string_view name;
  std::string_view delegate_str;
  int32_t instruction_id = -1;
  int32_t chain = 0;
  int32_t delegate_int = -1;
  uint32_t position = 0;
};

struct AllocatorAccum {
  std::vector<uint64_t> bytes_per_run;
  std::vector<uint64_t> count_per_run;
};

// Everything gathered for one run signature before Events are built.
struct BlockAccum {
  std::string_view name;
  int32_t bundled_input_index = -1;
  std::vector<uint32_t> signature_ids;
  std::vector<std::size_t> run_indices;
  std::vector<PositionAccum> positions;
  std::vector<const fb::DebugEvent*> debug_arena;
  std::vector<const fb::Value*> run_output;  // from the first run
  std::size_t run_output_first_run = 0;
  std::vector<std::pair<std::string_view, AllocatorAccum>> allocators;
  // The raw events, in file order, of the block's last run that took the
  // full path, when each of them was a profile event alone (no debug or
  // allocation member, no debug or allocation events in the run); empty
  // otherwise. A later run of the same name whose events repeat these field
  // for field collates and signs the same way, so its ticks go straight to
  // the recorded positions (Grouper::AppendLikeTemplate).
  std::vector<TemplateEvent> template_events;
};

class Grouper {
 public:
  Grouper(const EtdumpFile& file, const InspectorOptions& options, double factor)
      : file_(file), options_(options), factor_(factor) {}

  Result<std::vector<EventBlock>> Run();

 private:
  Status AddRun(std::size_t run_index, const fb::RunData& run);
  bool AppendLikeTemplate(std::size_t run_index, const fb::RunData& run);
  void RecordTemplate(BlockAccum& block, const fb::RunData& run);
  void NoteBlockOf(std::string_view name, std::size_t block_index);
  void CollateRun(const fb::RunData& run, std::vector<const fb::Value*>* outputs);
  uint32_t InternSignature(const EventSignature& sig);
  Result<Event> BuildEvent(BlockAccum& block, std::size_t position);
  Result<DebugValue> Inflate(const fb::Value* value, const std::string& what) const;
  Status CheckOutputs(BlockAccum& block, std::size_t run_index,
                      const std::vector<const fb::Value*>& outputs);
  std::string BlockLabel(const BlockAccum& block) const {
    return "block '" + std::string(block.name) + "'";
  }

  const EtdumpFile& file_;
  const InspectorOptions& options_;
  double factor_;

  std::size_t FindOrAddInstruction(const InstructionKey& key);
  std::optional<std::size_t> MatchPreviousBlock(std::string_view name, int32_t bundled) const;
  void AppendRun(BlockAccum& block, std::size_t run_index, const fb::RunData& run);

  /// The event signature (occurrence 0) of one event of the current run.
  EventSignature SignatureOf(const Instance& inst) const {
    EventSignature sig;
    sig.instruction_id = inst.instruction_id;
    if (inst.debug_count > 0) sig.debug = DebugSignature(*run_debug_[inst.debug_begin]);
    if (inst.profile != nullptr) sig.profile = ProfileSignature(*inst.profile);
    return sig;
  }

  // Per-run scratch, reused across runs.
  std::vector<Instance> run_instances_;
  std::vector<const fb::DebugEvent*> run_debug_;
  // Fast collation for the common key (no delegate id, chain -1 or 0,
  // small instruction id): slot = 2 * instruction_id + (chain == 0), valid
  // when its stamp equals the current run's.
  std::vector<uint32_t> slot_stamp_;
  std::vector<uint32_t> slot_index_;
  uint32_t run_stamp_ = 0;
  std::vector<Instruction> instructions_;
  std::size_t instruction_count_ = 0;
  std::unordered_map<InstructionKey, std::size_t, InstructionKeyHash> instruction_index_;
  std::vector<uint32_t> occurrences_;  // by base signature id
  std::vector<uint32_t> touched_;

  std::vector<EventSignature> signatures_;
  std::unordered_map<EventSignature, uint32_t, EventSignatureHash> signature_ids_;
  std::vector<BlockAccum> blocks_;
  std::unordered_map<RunKey, std::size_t, RunKeyHash> block_index_;
  // Most recent block per (run name, bundled input index): runs of one
  // method usually repeat the previous run's signature exactly.
  std::unordered_map<std::string_view, std::size_t> last_block_by_name_;
  // The previous run's name and block: runs of one method usually follow
  // each other, so most runs find their block without hashing their name.
  std::string_view previous_name_;
  std::size_t previous_block_ = SIZE_MAX;
  // Whether the current run has allocation events (set by CollateRun).
  bool run_has_allocations_ = false;
  // Scratch of AppendLikeTemplate and RecordTemplate, reused across runs.
  std::vector<const fb::ProfileEvent*> run_profiles_;
  std::vector<std::pair<const fb::ProfileEvent*, uint32_t>> raw_order_;
  const std::vector<const fb::Value*> no_outputs_;
  std::size_t run_count_ = 0;  // of the file
};

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
      const std::size_t remaining = run_count_ - run_index;
      for (PositionAccum& pos : block.positions) {
        pos.start.reserve(remaining);
        pos.end.reserve(remaining);
      }
      blocks_.push_back(std::move(block));
    }
    block_index = it->second;
  }
  NoteBlockOf(name, *block_index);
  BlockAccum& block = blocks_[*block_index];
  AppendRun(block, run_index, run);
  if (outputs.empty()) {
    RecordTemplate(block, run);
  } else {
    block.template_events.clear();
  }
  return CheckOutputs(block, run_index, outputs);
}

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
  run_profiles_.resize(n);
  for (uoffset_t j = 0; j < n; ++j) {
    const fb::Event* event = events->Get(j);
    const fb::ProfileEvent* p = event->profile_event();
    if (p == nullptr || event->debug_event() != nullptr || event->allocation_event() != nullptr) {
      return false;
    }
    const TemplateEvent& t = recorded[j];
    if (p->instruction_id() != t.instruction_id || p->chain_index() != t.chain ||
        p->delegate_debug_id_int() != t.delegate_int ||
        !SameText(View(p->delegate_debug_id_str()), t.delegate_str) ||
        !SameText(View(p->name()), t.name)) {
      return false;
    }
    run_profiles_[j] = p;
  }
  if (index != previous_block_) NoteBlockOf(name, index);  // else: same name, same block
  // What AppendRun does for a run of profile events alone.
  const std::size_t run_in_block = block.run_indices.size();
  block.run_indices.push_back(run_index);
  const auto arena_offset = static_cast<uint32_t>(block.debug_arena.size());
  for (std::size_t j = 0; j < recorded.size(); ++j) {
    const fb::ProfileEvent* p = run_profiles_[j];
    PositionAccum& pos = block.positions[recorded[j].position];
    if (!pos.debug.empty()) {
      pos.debug.resize(run_in_block);
      pos.debug.emplace_back(arena_offset, 0);
    }
    pos.start.push_back(p->start_time());
    pos.end.push_back(p->end_time());
    const auto* metadata = p->delegate_debug_metadata();
    if (metadata != nullptr || !pos.metadata.empty()) {
      pos.metadata.resize(run_in_block, nullptr);
      pos.metadata.push_back(metadata);
    }
  }
  for (auto& [allocator_name, acc] : block.allocators) {
    acc.bytes_per_run.push_back(0);
    acc.count_per_run.push_back(0);
  }
  return true;
}

void Grouper::AppendRun(BlockAccum& block, std::size_t run_index, const fb::RunData& run) {
  const std::size_t run_in_block = block.run_indices.size();
  block.run_indices.push_back(run_index);
  const uint32_t arena_offset = static_cast<uint32_t>(block.debug_arena.size());
  block.debug_arena.insert(block.debug_arena.end(), run_debug_.begin(), run_debug_.end());
  for (std::size_t p = 0; p < run_instances_.size(); ++p) {
    const Instance& inst = run_instances_[p];
    PositionAccum& pos = block.positions[p];
    if (inst.debug_count > 0 || !pos.debug.empty()) {
      pos.debug.resize(run_in_block);  // no-op once tracked: one entry per earlier run
      pos.debug.emplace_back(inst.debug_begin + arena_offset, inst.debug_count);
    }
    if (inst.profile != nullptr) {
      if (run_in_block == 0) pos.chain_index = inst.profile->chain_index();
      pos.start.push_back(inst.profile->start_time());
      pos.end.push_back(inst.profile->end_time());
      const auto* metadata = inst.profile->delegate_debug_metadata();
      if (metadata != nullptr || !pos.metadata.empty()) {
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
  for (auto& [allocator_name, acc] : block.allocators) {
    acc.bytes_per_run.push_back(0);
    acc.count_per_run.push_back(0);
  }
  const auto* events = run.events();
  if (events == nullptr || !run_has_allocations_) return;
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
    auto found = std::find_if(block.allocators.begin(), block.allocators.end(),
                              [&](const auto& entry) { return entry.first == allocator; });
    if (found == block.allocators.end()) {
      block.allocators.push_back(
          {allocator, AllocatorAccum{std::vector<uint64_t>(run_in_block + 1, 0),
                                     std::vector<uint64_t>(run_in_block + 1, 0)}});
      found = block.allocators.end() - 1;
    }
    found->second.bytes_per_run.back() += a->allocation_size();
    found->second.count_per_run.back() += 1;
  }
}

Status Grouper::CheckOutputs(BlockAccum& block, std::size_t run_index,
                             const std::vector<const fb::Value*>& outputs) {
  if (block.run_indices.size() == 1) {
    block.run_output = outputs;
    block.run_output_first_run = run_index;
    return Ok{};
  }
  if (outputs.size() != block.run_output.size()) {
    return InputError(file_.source_name() + ": " + BlockLabel(block) + ": run_data[" +
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
      return InputError(file_.source_name() + ": " + BlockLabel(block) + ": program output " +
                        std::to_string(i) + " differs between run_data[" +
                        std::to_string(block.run_output_first_run) + "] and run_data[" +
                        std::to_string(run_index) + "]; merged runs must produce equal outputs");
    }
  }
  return Ok{};
}

Result<DebugValue> Grouper::Inflate(const fb::Value* value, const std::string& what) const {
  // Null only when the file was truncated while being read (the caller
  // reports that instead).
  if (value == nullptr) return InputError(file_.source_name() + ": " + what + ": no value");
  return InflateValue(*value, options_.debug_buffer ? &*options_.debug_buffer : nullptr,
                      file_.source_name() + ": " + what);
}

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
    std::vector<double> durations;
    durations.reserve(runs);
    for (std::size_t r = 0; r < runs; ++r) {
      const uint64_t start = pos.start[r];
      const uint64_t end = pos.end[r];
      // The common case inline; ElapsedTicks decides the wrap-around.
      const std::optional<uint64_t> elapsed =
          end >= start ? std::optional<uint64_t>(end - start) : ElapsedTicks(start, end);
      if (!elapsed) {
        return InputError(file_.source_name() + ": " + BlockLabel(block) + ", run_data[" +
                          std::to_string(block.run_indices[r]) + "]: event '" + event.name +
                          "' ends at " + std::to_string(end) + " before it starts at " +
                          std::to_string(start) +
                          " (not a 32-bit counter wrap: a timestamp exceeds 32 bits)");
      }
      if (event.is_delegated_op && options_.delegate_time_converter) {
        durations.push_back(options_.delegate_time_converter(event.name, *elapsed));
      } else {
        durations.push_back(static_cast<double>(*elapsed) / factor_);
      }
    }
    event.perf_data = PerfData::FromRaw(std::move(durations));
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
        return InputError(file_.source_name() + ": " + what_prefix +
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

Result<std::vector<EventBlock>> Grouper::Run() {
  // Pointers and sizes read once: a file truncated while mapped reads as
  // zeros from then on (truncation_guard.h), so what was checked non-null
  // is not read again.
  const auto* runs = file_.root().run_data();
  run_count_ = runs != nullptr ? runs->size() : 0;
  if (runs != nullptr) {
    std::size_t events_since_release = 0;
    for (uoffset_t r = 0; r < run_count_; ++r) {
      // ETDumpGen writes no events vector for a block in which nothing was
      // logged; the reference makes no EventBlock of it. An explicitly
      // empty vector does form a (0-event) block.
      const fb::RunData& run = *runs->Get(r);
      const auto* events = run.events();
      if (events == nullptr) continue;
      Status s = AddRun(r, run);
      if (!s.ok()) return s.error();
      // Read once, in order: the pages behind can leave the resident set
      // (what later steps read again, names and debug values, faults back in).
      events_since_release += events->size();
      if (events_since_release >= kEventsPerPageRelease) {
        file_.ReleaseResidentPages();
        events_since_release = 0;
      }
    }
  }
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

}  // namespace

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
  if (!resolved.target_time_scale) {
    resolved.target_time_scale = DefaultTargetTimeScale(resolved.source_time_scale);
  }
  Result<double> factor =
      TimeScaleFactor(resolved.source_time_scale, *resolved.target_time_scale);
  if (!factor.ok()) return factor.error();
  Grouper grouper(file, resolved, factor.value());
  Result<std::vector<EventBlock>> blocks = grouper.Run();
  // Bytes read from a file truncated meanwhile were zeros: whatever came of
  // them (blocks or another error), the truncation is the error.
  if (file.truncated()) return file.TruncationError();
  return blocks;
}

}  // namespace etbench
