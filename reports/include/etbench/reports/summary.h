#pragma once
// The console summary after a run: per model the p50/p90 of
// Method::execute, the framework tax and the slowest operators (or the
// benchmarks of a Google Benchmark suite). Renders finished data only.

#include <string>

#include "etbench/results/results.h"

namespace etbench::reports {

/// A plain-text table, one row per model, then failures with their errors.
std::string RenderSummaryTable(const results::RunResults& results, const std::string& results_path);

/// The same as JSON: {"suite", "results_path", "interrupted", "models": [{"name",
/// "status", "error", "unit", "execute_p50", "execute_p90",
/// "framework_tax_p50", "slowest_ops": [{"name", "instruction_id", "p50"}],
/// "benchmarks": [{"name", "p50"}]}]}.
std::string RenderSummaryJson(const results::RunResults& results, const std::string& results_path);

}  // namespace etbench::reports
