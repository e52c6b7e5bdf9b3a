// Grouping of ETDump runs into EventBlocks, following the reference
// Inspector (devtools/inspector/_inspector.py, EventBlock._gen_from_etdump):
//
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

#include <cstdint>
#include <cstring>
#include <string_view>
#include <unordered_map>

#include "etbench/inspector/inspector.h"

namespace etbench {
namespace {

using flatbuffers::uoffset_t;

std::string_view View(const flatbuffers::String* s) {
  return s ? std::string_view(s->c_str(), s->size()) : std::string_view();
}

inline std::size_t HashMix(std::size_t h, std::size_t v) {
  return h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2));
}

// Debug events store their chain as uint64; profile events as int32. Map
// both onto int64 so equal chains compare equal (values above INT64_MAX
// cannot match any profile event and get a sentinel).
int64_t DebugChain(uint64_t chain) {
  return chain <= static_cast<uint64_t>(INT64_MAX) ? static_cast<int64_t>(chain) : INT64_MIN;
}

struct InstructionKey {
  int32_t instruction_id;
  int64_t chain;
  int32_t delegate_int;
  std::string_view delegate_str;
  bool operator==(const InstructionKey& o) const {
    return instruction_id == o.instruction_id && chain == o.chain &&
           delegate_int == o.delegate_int && delegate_str == o.delegate_str;
  }
};
struct InstructionKeyHash {
  std::size_t operator()(const InstructionKey& k) const {
    std::size_t h = std::hash<int64_t>()(k.chain);
    h = HashMix(h, std::hash<int32_t>()(k.instruction_id));
    h = HashMix(h, std::hash<int32_t>()(k.delegate_int));
    return HashMix(h, std::hash<std::string_view>()(k.delegate_str));
  }
};

// Profile or debug part of an event signature. -1 / "" stand for None.
struct SubSignature {
  bool present = false;
  std::string_view name;
  int32_t instruction_id = -1;
  int32_t delegate_int = -1;
  std::string_view delegate_str;
  bool operator==(const SubSignature& o) const {
    return present == o.present && name == o.name && instruction_id == o.instruction_id &&
           delegate_int == o.delegate_int && delegate_str == o.delegate_str;
  }
};

struct EventSignature {
  int32_t instruction_id = -1;
  SubSignature profile;
  SubSignature debug;
  int32_t occurrence = 0;
  bool operator==(const EventSignature& o) const {
    return instruction_id == o.instruction_id && profile == o.profile && debug == o.debug &&
           occurrence == o.occurrence;
  }
};
struct EventSignatureHash {
  std::size_t Sub(std::size_t h, const SubSignature& s) const {
    if (!s.present) return HashMix(h, 0x51);
    h = HashMix(h, std::hash<std::string_view>()(s.name));
    h = HashMix(h, std::hash<int32_t>()(s.instruction_id));
    h = HashMix(h, std::hash<int32_t>()(s.delegate_int));
    return HashMix(h, std::hash<std::string_view>()(s.delegate_str));
  }
  std::size_t operator()(const EventSignature& s) const {
    std::size_t h = std::hash<int32_t>()(s.instruction_id);
    h = Sub(h, s.profile);
    h = Sub(h, s.debug);
    return HashMix(h, std::hash<int32_t>()(s.occurrence));
  }
};

SubSignature ProfileSignature(const fb::ProfileEvent& e) {
  return SubSignature{true, View(e.name()), e.instruction_id(), e.delegate_debug_id_int(),
                      View(e.delegate_debug_id_str())};
}
SubSignature DebugSignature(const fb::DebugEvent& e) {
  return SubSignature{true, View(e.name()), e.instruction_id(), e.delegate_debug_id_int(),
                      View(e.delegate_debug_id_str())};
}

struct RunKey {
  std::string_view name;
  int32_t bundled_input_index;
  std::vector<uint32_t> signature_ids;
  bool operator==(const RunKey& o) const {
    return name == o.name && bundled_input_index == o.bundled_input_index &&
           signature_ids == o.signature_ids;
  }
};
struct RunKeyHash {
  std::size_t operator()(const RunKey& k) const {
    std::size_t h = std::hash<std::string_view>()(k.name);
    h = HashMix(h, std::hash<int32_t>()(k.bundled_input_index));
    for (uint32_t id : k.signature_ids) h = HashMix(h, id);
    return h;
  }
};

// One collated instruction of the current run.
struct Instruction {
  InstructionKey key;
  std::vector<const fb::ProfileEvent*> profile;
  std::vector<const fb::DebugEvent*> debug;
};

// One event instance of one run: its profile event (or null) and the
// instruction's debug events [debug_begin, debug_begin + debug_count) in
// the block's debug arena.
struct Instance {
  const fb::ProfileEvent* profile = nullptr;
  uint32_t debug_begin = 0;
  uint32_t debug_count = 0;
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
  std::vector<Instance> instances;  // run-major: [run][position]
  std::vector<const fb::DebugEvent*> debug_arena;
  std::vector<const fb::Value*> run_output;  // from the first run
  std::size_t run_output_first_run = 0;
  std::vector<double> framework_tax;
  std::vector<std::pair<std::string_view, AllocatorAccum>> allocators;
};

class Grouper {
 public:
  Grouper(const EtdumpFile& file, const InspectorOptions& options, double factor)
      : file_(file), options_(options), factor_(factor) {}

  Result<std::vector<EventBlock>> Run();

 private:
  Status AddRun(std::size_t run_index, const fb::RunData& run);
  void CollateRun(const fb::RunData& run, std::vector<const fb::Value*>* outputs);
  uint32_t InternSignature(const EventSignature& sig);
  Result<Event> BuildEvent(const BlockAccum& block, std::size_t position);
  Result<DebugValue> Inflate(const fb::Value& value, const std::string& what) const;
  Status CheckOutputs(BlockAccum& block, std::size_t run_index,
                      const std::vector<const fb::Value*>& outputs);
  std::string BlockLabel(const BlockAccum& block) const {
    return "block '" + std::string(block.name) + "'";
  }

  const EtdumpFile& file_;
  const InspectorOptions& options_;
  double factor_;

  // Per-run scratch, reused across runs.
  std::vector<Instruction> instructions_;
  std::size_t instruction_count_ = 0;
  std::unordered_map<InstructionKey, std::size_t, InstructionKeyHash> instruction_index_;
  std::vector<uint32_t> occurrences_;  // by base signature id
  std::vector<uint32_t> touched_;

  std::vector<EventSignature> signatures_;
  std::unordered_map<EventSignature, uint32_t, EventSignatureHash> signature_ids_;
  std::vector<BlockAccum> blocks_;
  std::unordered_map<RunKey, std::size_t, RunKeyHash> block_index_;
};

uint32_t Grouper::InternSignature(const EventSignature& sig) {
  auto [it, inserted] = signature_ids_.emplace(sig, static_cast<uint32_t>(signatures_.size()));
  if (inserted) signatures_.push_back(sig);
  return it->second;
}

void Grouper::CollateRun(const fb::RunData& run, std::vector<const fb::Value*>* outputs) {
  instruction_count_ = 0;
  instruction_index_.clear();
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
      continue;  // allocation events are accounted separately
    }
    auto [it, inserted] = instruction_index_.emplace(key, instruction_count_);
    if (inserted) {
      if (instruction_count_ == instructions_.size()) instructions_.emplace_back();
      Instruction& fresh = instructions_[instruction_count_++];
      fresh.key = key;
      fresh.profile.clear();
      fresh.debug.clear();
    }
    Instruction& instruction = instructions_[it->second];
    if (profile != nullptr) {
      instruction.profile.push_back(profile);
    } else {
      const fb::Value* value = debug->debug_entry();
      if (value->output() != nullptr && value->output()->bool_val()) {
        outputs->push_back(value);
      } else {
        instruction.debug.push_back(debug);
      }
    }
  }
}

Status Grouper::AddRun(std::size_t run_index, const fb::RunData& run) {
  std::vector<const fb::Value*> outputs;
  CollateRun(run, &outputs);

  // Event signatures of this run, in order, with their instances.
  RunKey key{View(run.name()), run.bundled_input_index(), {}};
  std::vector<Instance> instances;
  std::vector<const fb::DebugEvent*> debug_events;
  for (std::size_t i = 0; i < instruction_count_; ++i) {
    const Instruction& ins = instructions_[i];
    if (ins.profile.empty() && ins.debug.empty()) continue;  // outputs only
    EventSignature sig;
    sig.instruction_id = ins.key.instruction_id;
    if (!ins.debug.empty()) sig.debug = DebugSignature(*ins.debug.front());
    const uint32_t debug_begin = static_cast<uint32_t>(debug_events.size());
    debug_events.insert(debug_events.end(), ins.debug.begin(), ins.debug.end());
    const uint32_t debug_count = static_cast<uint32_t>(ins.debug.size());

    auto add = [&](const fb::ProfileEvent* profile) {
      sig.profile = profile ? ProfileSignature(*profile) : SubSignature{};
      sig.occurrence = 0;
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
      instances.push_back(Instance{profile, debug_begin, debug_count});
    };
    if (ins.profile.empty()) {
      add(nullptr);
    } else {
      for (const fb::ProfileEvent* p : ins.profile) add(p);
    }
  }
  for (uint32_t base : touched_) occurrences_[base] = 0;
  touched_.clear();

  auto [it, inserted] = block_index_.emplace(std::move(key), blocks_.size());
  if (inserted) {
    BlockAccum block;
    block.name = it->first.name;
    block.bundled_input_index = it->first.bundled_input_index;
    block.signature_ids = it->first.signature_ids;
    blocks_.push_back(std::move(block));
  }
  BlockAccum& block = blocks_[it->second];
  const std::size_t run_in_block = block.run_indices.size();
  block.run_indices.push_back(run_index);
  const uint32_t arena_offset = static_cast<uint32_t>(block.debug_arena.size());
  block.debug_arena.insert(block.debug_arena.end(), debug_events.begin(), debug_events.end());
  for (Instance& inst : instances) inst.debug_begin += arena_offset;
  block.instances.insert(block.instances.end(), instances.begin(), instances.end());

  if (std::optional<double> tax = FrameworkTaxOfRun(run)) block.framework_tax.push_back(*tax);

  // Allocations: bytes and count per allocator name, one slot per run.
  for (auto& [name, acc] : block.allocators) {
    acc.bytes_per_run.push_back(0);
    acc.count_per_run.push_back(0);
  }
  if (run.events() != nullptr) {
    for (const fb::Event* event : *run.events()) {
      const fb::AllocationEvent* a = event->allocation_event();
      if (a == nullptr) continue;
      const std::string_view allocator =
          View(run.allocators()->Get(static_cast<uoffset_t>(a->allocator_id()))->name());
      auto found = std::find_if(block.allocators.begin(), block.allocators.end(),
                                [&](const auto& entry) { return entry.first == allocator; });
      if (found == block.allocators.end()) {
        block.allocators.push_back({allocator, AllocatorAccum{
                                                   std::vector<uint64_t>(run_in_block + 1, 0),
                                                   std::vector<uint64_t>(run_in_block + 1, 0)}});
        found = block.allocators.end() - 1;
      }
      found->second.bytes_per_run.back() += a->allocation_size();
      found->second.count_per_run.back() += 1;
    }
  }
  return CheckOutputs(block, run_index, outputs);
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
    auto a = Inflate(*block.run_output[i], "program output " + std::to_string(i));
    if (!a.ok()) return a.error();
    auto b = Inflate(*outputs[i], "program output " + std::to_string(i));
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

Result<DebugValue> Grouper::Inflate(const fb::Value& value, const std::string& what) const {
  DebugValue out;
  out.type = static_cast<ValueType>(value.val());
  auto tensor = [&](const fb::Tensor& t) -> Result<TensorValue> {
    TensorValue tv;
    tv.scalar_type = static_cast<ScalarType>(t.scalar_type());
    if (t.sizes()) tv.sizes.assign(t.sizes()->begin(), t.sizes()->end());
    if (!options_.debug_buffer) return tv;
    const std::size_t element = ScalarTypeSize(tv.scalar_type);
    if (element == 0) return tv;  // packed types: bytes not decoded
    uint64_t numel = 1;
    for (int64_t s : tv.sizes) {
      if (s < 0) return InputError(file_.source_name() + ": " + what + ": negative tensor size");
      numel *= static_cast<uint64_t>(s);
    }
    const uint64_t bytes = numel * element;
    const std::vector<uint8_t>& buffer = *options_.debug_buffer;
    if (t.offset() < 0 || static_cast<uint64_t>(t.offset()) > buffer.size() ||
        bytes > buffer.size() - static_cast<uint64_t>(t.offset())) {
      return InputError(file_.source_name() + ": " + what + ": tensor of " +
                        std::to_string(bytes) + " bytes at offset " +
                        std::to_string(t.offset()) + " lies outside the debug buffer (" +
                        std::to_string(buffer.size()) + " bytes)");
    }
    tv.data.emplace(buffer.begin() + t.offset(), buffer.begin() + t.offset() + bytes);
    return tv;
  };
  switch (value.val()) {
    case fb::ValueType::Int: out.int_value = value.int_value()->int_val(); break;
    case fb::ValueType::Bool: out.bool_value = value.bool_value()->bool_val(); break;
    case fb::ValueType::Float: out.float_value = value.float_value()->float_val(); break;
    case fb::ValueType::Double: out.float_value = value.double_value()->double_val(); break;
    case fb::ValueType::Tensor: {
      auto t = tensor(*value.tensor());
      if (!t.ok()) return t.error();
      out.tensors.push_back(std::move(t).value());
      break;
    }
    case fb::ValueType::TensorList:
      if (const auto* ts = value.tensor_list()->tensors()) {
        for (const fb::Tensor* ft : *ts) {
          auto t = tensor(*ft);
          if (!t.ok()) return t.error();
          out.tensors.push_back(std::move(t).value());
        }
      }
      break;
    default: break;
  }
  return out;
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
}

Result<Event> Grouper::BuildEvent(const BlockAccum& block, std::size_t position) {
  const EventSignature& sig = signatures_[block.signature_ids[position]];
  const std::size_t positions = block.signature_ids.size();
  const std::size_t runs = block.run_indices.size();
  Event event;
  if (sig.instruction_id != -1) event.instruction_id = sig.instruction_id;
  event.occurrence = sig.occurrence;
  ApplySignature(sig.profile, &event);

  if (sig.profile.present) {
    std::vector<double> durations;
    durations.reserve(runs);
    event.start_ticks.reserve(runs);
    event.end_ticks.reserve(runs);
    bool any_metadata = false;
    std::vector<std::vector<uint8_t>> metadatas;
    for (std::size_t r = 0; r < runs; ++r) {
      const fb::ProfileEvent* p = block.instances[r * positions + position].profile;
      if (r == 0) event.chain_index = p->chain_index();
      const std::optional<uint64_t> elapsed = ElapsedTicks(p->start_time(), p->end_time());
      if (!elapsed) {
        return InputError(file_.source_name() + ": " + BlockLabel(block) + ", run_data[" +
                          std::to_string(block.run_indices[r]) + "]: event '" + event.name +
                          "' ends at " + std::to_string(p->end_time()) + " before it starts at " +
                          std::to_string(p->start_time()) +
                          " (not a 32-bit counter wrap: a timestamp exceeds 32 bits)");
      }
      double scaled;
      if (event.is_delegated_op && options_.delegate_time_converter) {
        scaled = options_.delegate_time_converter(event.name, *elapsed);
      } else {
        scaled = static_cast<double>(*elapsed) / factor_;
      }
      durations.push_back(scaled);
      event.start_ticks.push_back(p->start_time());
      event.end_ticks.push_back(p->end_time());
      const auto* md = p->delegate_debug_metadata();
      if (md != nullptr && md->size() > 0) {
        any_metadata = true;
        metadatas.emplace_back(md->begin(), md->end());
      } else {
        metadatas.emplace_back();
      }
    }
    event.perf_data = PerfData::FromRaw(std::move(durations));
    if (any_metadata) event.delegate_debug_metadatas = std::move(metadatas);
  }

  ApplySignature(sig.debug, &event);
  if (!sig.profile.present && sig.debug.present) {
    const Instance& first = block.instances[position];
    if (first.debug_count > 0) {
      event.chain_index = DebugChain(block.debug_arena[first.debug_begin]->chain_index());
    }
  }

  // Debug data: taken from the first run, checked against the others.
  std::size_t first_run_with_debug = runs;
  for (std::size_t r = 0; r < runs; ++r) {
    const Instance& inst = block.instances[r * positions + position];
    if (inst.debug_count == 0) continue;
    const std::string what_prefix = BlockLabel(block) + ", event '" + event.name + "'";
    if (first_run_with_debug == runs) {
      first_run_with_debug = r;
      for (uint32_t k = 0; k < inst.debug_count; ++k) {
        auto v = Inflate(*block.debug_arena[inst.debug_begin + k]->debug_entry(),
                         what_prefix + " debug value " + std::to_string(k));
        if (!v.ok()) return v.error();
        event.debug_data.push_back(std::move(v).value());
      }
      continue;
    }
    // Like the reference, entries are compared pairwise up to the shorter list.
    const std::size_t n = std::min<std::size_t>(inst.debug_count, event.debug_data.size());
    for (std::size_t k = 0; k < n; ++k) {
      auto v = Inflate(*block.debug_arena[inst.debug_begin + k]->debug_entry(),
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
  const fb::ETDump& root = file_.root();
  if (root.run_data() != nullptr) {
    for (uoffset_t r = 0; r < root.run_data()->size(); ++r) {
      Status s = AddRun(r, *root.run_data()->Get(r));
      if (!s.ok()) return s.error();
    }
  }
  const TimeScale target = *options_.target_time_scale;
  std::vector<EventBlock> out;
  out.reserve(blocks_.size());
  for (const BlockAccum& acc : blocks_) {
    EventBlock block;
    block.name = std::string(acc.name);
    if (acc.bundled_input_index != -1) block.bundled_input_index = acc.bundled_input_index;
    block.run_count = acc.run_indices.size();
    block.run_indices = acc.run_indices;
    block.source_time_scale = options_.source_time_scale;
    block.target_time_scale = target;
    block.events.reserve(acc.signature_ids.size());
    for (std::size_t p = 0; p < acc.signature_ids.size(); ++p) {
      auto event = BuildEvent(acc, p);
      if (!event.ok()) return event.error();
      block.events.push_back(std::move(event).value());
    }
    for (std::size_t i = 0; i < acc.run_output.size(); ++i) {
      auto v = Inflate(*acc.run_output[i], BlockLabel(acc) + " program output " +
                                               std::to_string(i));
      if (!v.ok()) return v.error();
      block.run_output.push_back(std::move(v).value());
    }
    if (!acc.framework_tax.empty()) block.framework_tax = PerfData::FromRaw(acc.framework_tax);
    for (const auto& [name, usage] : acc.allocators) {
      block.allocations.push_back(
          AllocatorUsage{std::string(name), usage.bytes_per_run, usage.count_per_run});
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
  return grouper.Run();
}

}  // namespace etbench
