#pragma once
// Whether two metric sets may be compared at all.

#include <string>
#include <vector>

#include "etbench/base/result.h"
#include "etbench/compare/comparison_warning.h"
#include "etbench/compare/metrics.h"

namespace etbench {

/// Errors (refuses to compare): either side unusable (CheckMetricSetUsable),
/// different `time_source` or `unit` contexts, or a metric present on both
/// sides with different units. Warnings (appended to `warnings`):
/// implausible values on either side, different suite, device or cpu,
/// tick rate (SameTickRate) or model file (RunContext's sha256); what one
/// side does not say is not a difference.
Status CheckComparable(const MetricSet& baseline, const MetricSet& candidate,
                       std::vector<ComparisonWarning>& warnings);

/// Errors when `set` (called `role` in the message: "baseline", "candidate")
/// cannot be compared or stored: no metrics at all ("the candidate has no
/// metrics: every model failed or none ran"), a sample that is NaN or
/// infinite, a negative sample of a duration, size or benchmark time, or a
/// repetition group of 0 samples. Comparing such a set would report PASS
/// with nothing compared, or never finish (NaN has no rank).
Status CheckMetricSetUsable(const MetricSet& set, const std::string& role);

}  // namespace etbench
