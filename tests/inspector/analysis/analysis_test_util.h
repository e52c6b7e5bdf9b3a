#pragma once
// Hand-made EventBlocks for the analysis tests: events with per-run
// [start, end) ticks, durations in the block's target scale.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "etbench/inspector/event_block.h"
#include "etbench/inspector/perf_data.h"

namespace etbench::testing {

struct TimedEvent {
  TimedEvent(std::string name_, std::optional<int32_t> instruction_,
             std::vector<std::pair<uint64_t, uint64_t>> runs_,
             DelegateDebugId delegate_id_ = {}, int64_t chain_ = 0)
      : name(std::move(name_)),
        instruction(instruction_),
        runs(std::move(runs_)),
        delegate_id(std::move(delegate_id_)),
        chain(chain_) {}

  std::string name;
  std::optional<int32_t> instruction;
  std::vector<std::pair<uint64_t, uint64_t>> runs;  // [start, end) per run
  DelegateDebugId delegate_id;                      // set for delegated events
  int64_t chain = 0;
};

/// A block whose durations are the ticks divided by `divisor` (1: ticks are
/// the target unit). Delegated events are named by their delegate id.
inline EventBlock MakeBlock(const std::string& name,
                            const std::vector<TimedEvent>& events,
                            TimeScale target = TimeScale::kNs,
                            double divisor = 1) {
  EventBlock block;
  block.name = name;
  block.source_time_scale = TimeScale::kNs;
  block.target_time_scale = target;
  block.run_count = events.empty() ? 0 : events.front().runs.size();
  for (std::size_t r = 0; r < block.run_count; ++r)
    block.run_indices.push_back(r);
  for (const TimedEvent& t : events) {
    Event e;
    e.name = t.name;
    e.instruction_id = t.instruction;
    e.chain_index = t.chain;
    e.delegate_debug_identifier = t.delegate_id;
    e.is_delegated_op = !std::holds_alternative<std::monostate>(t.delegate_id);
    if (e.is_delegated_op) e.name = DelegateDebugIdToString(t.delegate_id);
    e.role = EventRoleOf(e.name, e.is_delegated_op);
    std::vector<double> raw;
    for (const auto& [start, end] : t.runs) {
      e.start_ticks.push_back(start);
      e.end_ticks.push_back(end);
      raw.push_back(static_cast<double>(end - start) / divisor);
    }
    e.perf_data = PerfData::FromRaw(std::move(raw));
    block.events.push_back(std::move(e));
  }
  return block;
}

}  // namespace etbench::testing
