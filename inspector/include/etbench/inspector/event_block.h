#pragma once
// The Inspector's data model: EventBlocks made of Events with PerfData,
// grouped from an ETDump exactly as the reference Inspector groups them.

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "etbench/inspector/debug_value.h"
#include "etbench/inspector/event_role.h"
#include "etbench/inspector/perf_data.h"
#include "etbench/inspector/time_scale.h"

namespace etbench {

/// A delegate debug identifier: none, an int, or a string.
using DelegateDebugId = std::variant<std::monostate, int32_t, std::string>;

/// "" for none, else the int or the string (how the reference names
/// delegated events).
std::string DelegateDebugIdToString(const DelegateDebugId& id);

/// One node of a module hierarchy (nn_module_stack entry), outermost first.
struct ModuleFrame {
  std::string key;          // e.g. "L__self___conv1"
  std::string path;         // e.g. "conv1"
  std::string module_type;  // e.g. "torch.nn.modules.conv.Conv2d"
};

struct Event {
  std::string name;
  /// Instruction id from the signature; nullopt when the file said -1.
  std::optional<int32_t> instruction_id;
  /// Chain of the events that formed this Event (first run).
  int64_t chain_index = 0;
  DelegateDebugId delegate_debug_identifier;
  bool is_delegated_op = false;
  /// What the event is (kernel call, delegate call, ...): decided once, by
  /// EventRoleOf(name, is_delegated_op), where the event is built; every
  /// consumer reads it instead of looking at the name. Code that builds an
  /// Event by hand sets it the same way.
  EventRole role = EventRole::kFrameworkEvent;
  /// etbench extension: the reference keeps only the last of several events
  /// with the same signature in one run; etbench keeps each, numbering them
  /// 0, 1, ... in run order. 0 for the (usual) unique event.
  int32_t occurrence = 0;

  std::optional<PerfData> perf_data;  // absent for debug-only events
  /// Raw start/end ticks per run (etbench extension, for traces and trees).
  std::vector<uint64_t> start_ticks;
  std::vector<uint64_t> end_ticks;
  /// Raw delegate metadata per run; empty when no run carried any.
  std::vector<std::vector<uint8_t>> delegate_debug_metadatas;
  /// Parsed metadata when a parser hook was supplied (one string per key).
  std::map<std::string, std::string> delegate_debug_metadata_parsed;
  std::vector<DebugValue> debug_data;

  // Filled in from an ETRecord (see etrecord.h); empty without one.
  std::optional<std::vector<int64_t>> debug_handles;
  std::vector<std::string> op_types;
  std::map<std::string, std::string> stack_traces;  // node name -> trace
  std::map<std::string, std::vector<ModuleFrame>> module_hierarchy;
  std::optional<std::string> delegate_backend_name;
};

/// Per-allocator totals of one block's AllocationEvents.
struct AllocatorUsage {
  std::string name;
  std::vector<uint64_t> bytes_per_run;   // one entry per run of the block
  std::vector<uint64_t> count_per_run;   // allocations per run
};

struct EventBlock {
  std::string name;
  std::optional<int32_t> bundled_input_index;  // nullopt when -1
  std::size_t run_count = 0;
  /// Indices of the ETDump RunData entries merged into this block.
  std::vector<std::size_t> run_indices;
  TimeScale source_time_scale = TimeScale::kNs;
  TimeScale target_time_scale = TimeScale::kMs;
  std::vector<Event> events;                // in the reference's order
  std::vector<DebugValue> run_output;       // Value.output == true entries
  /// (Method::execute − Σ native_call_* and DELEGATE_CALL) / Method::execute
  /// per run, in percent; absent when the block has no Method::execute.
  std::optional<PerfData> framework_tax;
  std::vector<AllocatorUsage> allocations;  // by first appearance
};

}  // namespace etbench
