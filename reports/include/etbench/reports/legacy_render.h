#pragma once
// The legacy profiler's three tables (etbench/inspector/legacy_tables.h) as
// boxed text like profiler/parse_profiler_results.py prints them, as JSON and
// as long-format CSV.

#include <string>

#include "etbench/inspector/legacy_tables.h"

namespace etbench {

/// The three tables as boxed text: per block the profiling table (Name,
/// Chain, Instr, Iteration i…), then the framework tax tables (tick-exact
/// first, then the reference's rows labelled "Reference:"), then the
/// memory tables. Durations print as the reference prints them (Python
/// float repr, integers for ms/cycles), unfinished ones as `unfinished`;
/// percentages with two decimals (`n/a` for NaN); memory as bytes and
/// B/KB/MB/GB.
std::string RenderLegacyTables(const LegacyTables& tables);

/// {"source", "time_scale", "unit", "warnings": [...], "blocks": [{"name",
/// "iterations", "events": [{"name", "chain", "instruction", "durations":
/// [...], "elapsed_ticks": [...]}], "framework_tax": {"framework_tax_percent":
/// [...], "reference_execution_time": [...],
/// "reference_kernel_and_delegate_time": [...],
/// "reference_framework_tax_percent": [...]} | null, "memory": [{"allocator",
/// "allocator_id", "total_bytes"}]}]}
/// NaN values (unfinished durations, n/a percentages) are null.
std::string LegacyTablesToJson(const LegacyTables& tables);

/// Long format, one value per line, header
/// `table,block,name,chain,instruction,iteration,value,unit` with table one
/// of profile / framework_tax / memory (framework_tax names the metric in
/// `name`; memory rows leave chain, instruction, iteration empty). NaN
/// values (unfinished, n/a) leave `value` empty.
std::string LegacyTablesToCsv(const LegacyTables& tables);

}  // namespace etbench
