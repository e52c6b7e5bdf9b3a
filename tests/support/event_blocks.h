#pragma once
// Hand-built Events and EventBlocks, as the inspector's builder makes them
// (the role decided from name and delegate id): single events with given
// durations, and events with per-run [start, end) ticks.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "etbench/inspector/event_block.h"
#include "etbench/inspector/event_role.h"
#include "etbench/inspector/perf_data.h"

namespace etbench::testing {

/// An Event with perf data from `raw` (no perf data when `raw` is empty).
inline Event MakeEvent(const std::string& name, std::optional<int32_t> instruction,
                       DelegateDebugId delegate_id = std::monostate{},
                       std::vector<double> raw = {1.0}) {
  Event event;
  event.name = name;
  event.instruction_id = instruction;
  event.is_delegated_op = !std::holds_alternative<std::monostate>(delegate_id);
  event.delegate_debug_identifier = std::move(delegate_id);
  event.role = EventRoleOf(event.name, event.is_delegated_op);
  if (!raw.empty()) event.perf_data = PerfData::FromRaw(std::move(raw));
  return event;
}

/// A block of one run holding `events`.
inline EventBlock MakeBlock(const std::string& name, std::vector<Event> events) {
  EventBlock block;
  block.name = name;
  block.run_count = 1;
  block.events = std::move(events);
  return block;
}

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
inline EventBlock MakeTimedBlock(const std::string& name,
                                 const std::vector<TimedEvent>& events,
                                 TimeScale target = TimeScale::kNs,
                                 double divisor = 1) {
  std::vector<Event> built;
  for (const TimedEvent& t : events) {
    std::vector<double> raw;
    for (const auto& [start, end] : t.runs) raw.push_back(static_cast<double>(end - start) / divisor);
    const bool delegated = !std::holds_alternative<std::monostate>(t.delegate_id);
    Event e = MakeEvent(delegated ? DelegateDebugIdToString(t.delegate_id) : t.name,
                        t.instruction, t.delegate_id, {});
    e.chain_index = t.chain;
    for (const auto& [start, end] : t.runs) {
      e.start_ticks.push_back(start);
      e.end_ticks.push_back(end);
    }
    e.perf_data = PerfData::FromRaw(std::move(raw));
    built.push_back(std::move(e));
  }
  EventBlock block = MakeBlock(name, std::move(built));
  block.source_time_scale = TimeScale::kNs;
  block.target_time_scale = target;
  block.run_count = events.empty() ? 0 : events.front().runs.size();
  for (std::size_t r = 0; r < block.run_count; ++r) block.run_indices.push_back(r);
  return block;
}

}  // namespace etbench::testing
