#pragma once
// Chrome trace event format (JSON), loadable in Perfetto and
// chrome://tracing: every run of every block as one thread track whose
// complete ("X") events nest as the event tree does (Method::execute ›
// OPERATOR_CALL › native_call_*, DELEGATE_CALL › delegate events).

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "etbench/reports/trace_source.h"

namespace etbench::reports {

struct ChromeTraceOptions {
  /// Only this run of each block (index within the block); all when unset.
  std::optional<std::size_t> run;
  /// Start every run at time 0 (runs side by side) instead of keeping their
  /// real offsets from the first event of the file.
  bool align_runs = false;
};

/// `{"traceEvents": [...], "displayTimeUnit": "ns", "otherData": {...}}`.
/// Each source is a process (pid 1, 2, ...), each (block, run) a thread.
/// Timestamps are microseconds from the source's first event. Delegate
/// events whose clock is not the runtime's (placed under their DELEGATE_CALL
/// by instruction id) are laid out one after another from the call's start,
/// with their own duration, and marked `"placed_by_instruction": true`.
std::string RenderChromeTrace(const std::vector<TraceSource>& sources,
                              const ChromeTraceOptions& options = {});

}  // namespace etbench::reports
