#pragma once
// Linking runtime Events to the model graph through an ETRecord, with the
// reference Inspector's rules (EventBlock._gen_resolve_debug_handles and
// Event._associate_with_op_graph_nodes), and per-event helpers.

#include <string>
#include <vector>

#include "etbench/inspector/etrecord.h"
#include "etbench/inspector/event_block.h"

namespace etbench {

/// Fills debug_handles, op_types, stack_traces, module_hierarchy and
/// delegate_backend_name of every Event (clearing earlier values, so calling
/// it twice is harmless). Returns warnings, one line each, deduplicated.
///
/// For an Event whose instruction id debug_handle_map lists:
/// - not delegated: handles = debug_handle_map[id]; a DELEGATE_CALL also gets
///   the backend name from delegate_map[id];
/// - delegated without delegate_map[id]: handles = debug_handle_map[id] and
///   the warning "No delegate mapping found for delegate with instruction id
///   N";
/// - delegated: backend name = delegate_map[id].name; handles = the entry of
///   the delegate debug identifier (an int as its decimal string), else of
///   the last key (file order) that is a substring of the identifier (the
///   reference's fallback); none -> a warning, handles stay unset.
/// Then each handle's operator nodes add op_types (one per node and handle),
/// stack_traces[node] and module_hierarchy[node] (only when non-empty).
///
/// Differences from the reference, on purpose: reserved framework events
/// (Method::execute, ...) get no handles (the reference gives them those of
/// instruction 0); an exact identifier match is never overridden by a
/// substring match; several nodes may share a handle.
std::vector<std::string> Symbolicate(const Etrecord& etrecord,
                                     std::vector<EventBlock>& blocks);

/// The reference's find_total_for_module: Σ perf_data.avg over every Event
/// of every block, except OPERATOR_CALL, that has a module hierarchy with a
/// frame whose key contains `module_name` (substring), each Event once.
/// In the blocks' target time scale.
double FindTotalForModule(const std::vector<EventBlock>& blocks,
                          const std::string& module_name);

/// Distinct dotted module paths (innermost frame per linked node) of an
/// Event, in node-name order; empty without module information.
std::vector<std::string> EventModulePaths(const Event& event);

/// Distinct op types of an Event in first-seen order, joined by `separator`
/// ("" when it has none).
std::string JoinedOpTypes(const Event& event,
                          const std::string& separator = " + ");

}  // namespace etbench
