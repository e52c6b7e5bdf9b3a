#pragma once
// Whether two metric sets may be compared at all.

#include <string>
#include <vector>

#include "etbench/base/result.h"
#include "etbench/compare/metrics.h"

namespace etbench {

/// Errors (refuses to compare): different `time_source` or `unit`
/// contexts, or a metric present on both sides with different units. Warnings (appended to
/// `warnings`): different device, cpu, tick_rate_hz, suite, or
/// model_sha256:<model>; a context key present on one side only is not a
/// difference.
Status CheckComparable(const MetricSet& baseline, const MetricSet& candidate,
                       std::vector<std::string>& warnings);

}  // namespace etbench
