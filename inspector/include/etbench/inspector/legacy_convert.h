#pragma once
// Converts a legacy prof_result.bin profile into an ETDump, so that the rest
// of etbench (inspect, compare, reports) works on it.

#include "etbench/base/result.h"
#include "etbench/inspector/etdump_record.h"
#include "etbench/inspector/legacy_profile.h"

namespace etbench {

/// One RunData per legacy block iteration, in file order, named by the
/// block name. Profile events keep name, chain index, instruction index
/// (as int32) and the raw start/end ticks, and are written in completion
/// order like the runtime does (the order is computed from a block's first
/// iteration and applied to all of them, so iterations keep equal
/// signatures and merge into one EventBlock). Each RunData lists the
/// allocators its allocations use (the block's own table first) and one
/// AllocationEvent per allocation. The ticks keep their unit: inspect the
/// result with the source time scale the legacy file was recorded in.
/// Unfinished entries (LegacyProfileEntry::IsUnfinished) are left out, so
/// an iteration with one gets a signature of its own; UnfinishedScopeWarnings
/// names them. Errors: an entry that ends before it starts (the rule of
/// LegacyElapsedTicks, as ComputeLegacyTables), an allocation whose
/// allocator no block declares. A converted record always reads back
/// (BuildEventBlocks) without error.
Result<EtdumpRecord> ConvertLegacyToEtdump(const LegacyProfile& profile);

}  // namespace etbench
