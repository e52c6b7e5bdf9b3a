#pragma once
// Collapsed stacks ("folded" format of flamegraph.pl, speedscope, inferno):
// one line per distinct stack, `frame;frame;frame <self time>`.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "etbench/reports/trace_source.h"

namespace etbench::reports {

struct CollapsedStacksOptions {
  /// Only this run of each block; all runs (summed) when unset.
  std::optional<std::size_t> run;
  /// Prepend the source's name / the block's name as root frames.
  bool prefix_source = false;
  bool prefix_block = false;
};

/// `Method::execute;OPERATOR_CALL;native_call_convolution.out 1032476`:
/// frames from the tree root to the event, value = the event's self time
/// summed over the selected runs, rounded to whole nanoseconds (cycles for
/// cycle counters). Lines are sorted by stack; stacks whose rounded self
/// time is not positive are left out. ';' in names becomes ':', control
/// characters become spaces.
std::string RenderCollapsedStacks(const std::vector<TraceSource>& sources,
                                  const CollapsedStacksOptions& options = {});

}  // namespace etbench::reports
