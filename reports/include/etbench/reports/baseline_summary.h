#pragma once
// `etbench baseline show`: a baseline file in words.

#include <string>

#include "etbench/compare/baseline_store.h"

namespace etbench::reports {

/// A short human summary of a baseline: name, date, context, and per
/// model/block the metrics with n and p50 (in the unit that fits it,
/// base/units.h). Names from the file pass through TerminalText.
std::string RenderBaselineSummary(const Baseline& baseline);

}  // namespace etbench::reports
