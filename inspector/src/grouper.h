#pragma once
// The grouping's state (event_block_builder.cc): what one run collates into
// and what every block gathers before its Events are built. The fast path
// for runs that repeat their block's template run is in event_template.cc.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "etbench/inspector/inspector.h"
#include "event_signature.h"
#include "value_inflater.h"

namespace etbench::grouping {

using flatbuffers::uoffset_t;

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
//
// Aligned to a cache line, with the tick columns first: the template fast
// path touches only their ends, one line per event, for the blocks whose
// positions keep nothing else (BlockAccum::beyond_ticks).
struct alignas(64) PositionAccum {
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
  // Whether some position's metadata or debug column is kept (then every
  // run appends to it): false lets the fast path store the ticks alone.
  bool beyond_ticks = false;
  std::vector<const fb::DebugEvent*> debug_arena;
  std::vector<const fb::Value*> run_output;  // from the first run
  std::size_t run_output_first_run = 0;
  std::vector<std::pair<std::string_view, AllocatorAccum>> allocators;
  std::unordered_map<std::string_view, std::size_t> allocator_index;  // into allocators
  // The raw events, in file order, of the block's last run that took the
  // full path, when each of them was a profile event alone (no debug or
  // allocation member, no debug or allocation events in the run); empty
  // otherwise. A later run of the same name whose events repeat these field
  // for field collates and signs the same way, so its ticks go straight to
  // the recorded positions (Grouper::AppendLikeTemplate).
  std::vector<TemplateEvent> template_events;
};

// Blocks that reserve their columns for every remaining run (AddRun).
constexpr std::size_t kReservingBlocks = 4;
// Runs of one block whose ticks the template fast path gathers before
// moving them into the positions' columns, and the most positions a block
// may have for that (the gathering buffer holds kTickBatch runs of them:
// at most 1 MB; freed at Finish). 32 rather than 16: each move into a
// column is a call, and at 16 their cost ate the gain at 200 runs
// (docs/inspector-performance.md).
constexpr std::size_t kTickBatch = 32;
constexpr std::size_t kMaxBatchedPositions = 2048;
// Allocator usage cells (allocator names x runs) a block may hold beyond
// one per 8 bytes of the file (AppendRun).
constexpr uint64_t kAllocatorCellsFloor = uint64_t{1} << 16;

// Groups the runs of one verified ETDump into EventBlocks, run by run in
// file order (event_block_builder.cc; the template fast path in
// event_template.cc): from the verified file (BuildEventBlocks) or from the
// verifier as it checks each run (EventBlockReader).
class Grouper {
 public:
  /// `source_name` names the ETDump in errors; `file_bytes` is its size
  /// (EtdumpFile::size_bytes()), which bounds what a crafted file may make
  /// the grouping hold; `run_count` its runs (run_data's size).
  Grouper(std::string source_name, std::size_t file_bytes, std::size_t run_count,
          const InspectorOptions& options, double factor)
      : source_name_(std::move(source_name)), file_bytes_(file_bytes), run_count_(run_count),
        options_(options), factor_(factor),
        inflater_(source_name_, file_bytes,
                  options.debug_buffer ? &*options.debug_buffer : nullptr) {}

  /// Groups run `run_index` of the verified file; runs come in file order.
  /// A run without an events vector makes no block (ETDumpGen writes none
  /// for a block in which nothing was logged; the reference skips it). An
  /// error ends the grouping: no further run may be added.
  Status Add(std::size_t run_index, const fb::RunData& run) {
    if (run.events() == nullptr) return Ok{};
    return AddRun(run_index, run);
  }
  /// The blocks of every run added, with their statistics. Once.
  Result<std::vector<EventBlock>> Finish();

 private:
  Status AddRun(std::size_t run_index, const fb::RunData& run);
  bool AppendLikeTemplate(std::size_t run_index, const fb::RunData& run);
  // Moves the gathered ticks (pending_start_, pending_end_) into their
  // block's columns; before anything else appends to any column, and at
  // Finish.
  void FlushPendingTicks();
  void RecordTemplate(BlockAccum& block, const fb::RunData& run);
  void NoteBlockOf(std::string_view name, std::size_t block_index);
  void CollateRun(const fb::RunData& run, std::vector<const fb::Value*>* outputs);
  uint32_t InternSignature(const EventSignature& sig);
  Result<Event> BuildEvent(BlockAccum& block, std::size_t position);
  // Through inflater_ (its budget on debug-buffer copies); `value` is null
  // only when the file was truncated while being read.
  Result<DebugValue> Inflate(const fb::Value* value, const std::string& what);
  Status CheckOutputs(BlockAccum& block, std::size_t run_index,
                      const std::vector<const fb::Value*>& outputs);
  std::string BlockLabel(const BlockAccum& block) const {
    return "block '" + std::string(block.name) + "'";
  }

  std::string source_name_;
  std::size_t file_bytes_;
  std::size_t run_count_;
  const InspectorOptions& options_;
  double factor_;
  ValueInflater inflater_;

  std::size_t FindOrAddInstruction(const InstructionKey& key);
  std::optional<std::size_t> MatchPreviousBlock(std::string_view name, int32_t bundled) const;
  Status AppendRun(BlockAccum& block, std::size_t run_index, const fb::RunData& run);
  // Errors when `names` allocators over the block's runs (this one included)
  // would take more cells than the file can describe (kAllocatorCellsFloor).
  Status CheckAllocatorCells(const BlockAccum& block, std::size_t run_index,
                             std::size_t names) const;
  bool AllocatorCellsFit(uint64_t names, uint64_t runs) const {
    return names * runs <= file_bytes_ / 8 + kAllocatorCellsFloor;
  }

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
  // What AppendLikeTemplate stores of each event of the run, read in its
  // first loop (which stores nothing until every event matched).
  struct TemplateHit {
    uint64_t start = 0;
    uint64_t end = 0;
    const flatbuffers::Vector<uint8_t>* metadata = nullptr;
  };
  std::vector<TemplateHit> run_hits_;
  // Ticks of the fast path's last pending_runs_ runs of block
  // pending_block_ (each run with every position one profile event), not
  // yet in the positions' columns: run-major, run k's ticks at
  // [k * positions, (k + 1) * positions). Moved kTickBatch runs at a time,
  // so that each column receives consecutive values at once: stored
  // straight into 2,002 columns of a 10 M-event dump, each store went to
  // a page of its own, and the stores (their prefetch) were half of the
  // fast path's time there, against a quarter at 200 k events (perf; a
  // page walk per store, most likely: docs/inspector-performance.md).
  std::vector<uint64_t> pending_start_;
  std::vector<uint64_t> pending_end_;
  std::size_t pending_block_ = SIZE_MAX;
  std::size_t pending_runs_ = 0;
  std::vector<std::pair<const fb::ProfileEvent*, uint32_t>> raw_order_;
  const std::vector<const fb::Value*> no_outputs_;
  // BuildEvent's elapsed ticks of one event, reused across events.
  std::vector<uint64_t> elapsed_;
};

/// Fills in options->target_time_scale when absent (the source's default)
/// and returns the factor from source ticks to target units; errors for a
/// pair of scales that cannot be converted.
Result<double> ResolveTimeScales(InspectorOptions* options);

/// Groups every run of a verified file, in order (BuildEventBlocks without
/// its truncation check). `options` resolved by ResolveTimeScales.
Result<std::vector<EventBlock>> GroupFile(const EtdumpFile& file, const InspectorOptions& options,
                                          double factor);

}  // namespace etbench::grouping
