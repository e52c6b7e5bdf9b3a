#pragma once
// The one renderer of a comparison's warnings (etbench/compare/
// comparison_warning.h): what every report, the CLI's stderr and the
// comparison JSON's "warnings" say. The engines say what they noticed as
// data; the sentences live here only (as row_reason.h for the rows).

#include <string>

#include "etbench/compare/comparison_warning.h"

namespace etbench::reports {

/// The warning in one line, e.g. "different device: 'pixel-7' (baseline) vs
/// 'pixel-8' (candidate)", "WARNING: baseline tick rate 1000000000 Hz
/// differs from this run's 2000000000 Hz". A TextWarning is its text as
/// written. Not escaped for any format: each renderer escapes it.
std::string WarningText(const ComparisonWarning& warning);

}  // namespace etbench::reports
