#pragma once
// Shared by `compare`, `gate` and `ab`: printing a comparison with the
// requested reports.

#include <ostream>
#include <string>
#include <vector>

#include "etbench/base/disk.h"
#include "etbench/base/environment.h"
#include "etbench/base/result.h"
#include "etbench/compare/comparison.h"
#include "etbench/compare/metrics.h"

namespace etbench {

struct ComparisonOutput {
  std::vector<std::string> report_specs;  // --report FORMAT[=FILE]
  std::string color = "auto";             // --color auto|always|never
  std::string title;
  bool fail_on_inconclusive = false;
};

/// Prints warnings to `err`, the terminal report to `out` (unless a report
/// request already targets stdout), writes the requested reports, and
/// returns the gate's exit code (0 pass, 1 regression, 3 inconclusive when
/// asked, 2 when a report cannot be written). Report files go to `disk`.
int EmitComparison(const std::string& command, const Comparison& comparison,
                   const MetricSet& baseline, const MetricSet& candidate,
                   const ComparisonOutput& output, const Environment& env, Disk& disk,
                   std::ostream& out, std::ostream& err);

}  // namespace etbench
