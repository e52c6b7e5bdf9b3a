#pragma once
// The three tables of the legacy profiler's post-processing tool
// (profiler/parse_profiler_results.py): per-iteration durations, framework
// tax per iteration, and memory allocated per allocator (rendered by
// etbench/reports/legacy_render.h).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "etbench/base/result.h"
#include "etbench/inspector/legacy_profile.h"
#include "etbench/inspector/time_scale.h"

namespace etbench {

struct LegacyEventDurations {
  std::string name;
  int32_t chain_index = -1;
  uint32_t instruction_index = 0;
  /// Per iteration, in LegacyTables::unit: for ns and us ticks
  /// round(elapsed / 1e6 or 1e3, 4) like the reference; for ms and cycles
  /// the elapsed ticks themselves. NaN for an unfinished entry
  /// (LegacyProfileEntry::IsUnfinished), which statistics leave out.
  std::vector<double> durations;
  /// Per iteration, raw; nullopt when unfinished.
  std::vector<std::optional<uint64_t>> elapsed_ticks;
};

struct LegacyFrameworkTax {
  /// Per iteration, tick-exact: (Σ Method::execute − Σ outermost kernel or
  /// delegate scope per instruction) / Σ Method::execute × 100 from the raw
  /// ticks, exactly the value FrameworkTaxOfBlock gives the converted
  /// ETDump. Unfinished entries are left out; NaN when the iteration has no
  /// finished Method::execute or it lasted 0 ticks. Empty when the block
  /// has no entry named Method::execute.
  std::vector<double> framework_tax_percent;
  /// The reference's figures (profile_aggregate_framework_tax), kept for
  /// compatibility; empty when the reference prints no table (no entry
  /// containing Method::execute, or none containing native_call /
  /// delegate_execute). Per iteration: the Method::execute duration (of the
  /// entry whose duration list is the largest, as the reference's max()
  /// picks it), the sum of the native_call / delegate_execute durations
  /// (rounded durations, nested ones included), and
  /// round((execute − kernels) / execute, 4) × 100 (NaN when execute is 0
  /// or unfinished).
  std::vector<double> reference_execution_time;
  std::vector<double> reference_kernel_and_delegate_time;
  std::vector<double> reference_framework_tax_percent;
};

struct LegacyMemoryUsage {
  std::string allocator_name;
  uint64_t allocator_id = 0;
  uint64_t total_bytes = 0;  // Σ allocation sizes of one iteration
};

struct LegacyBlockTables {
  std::string name;
  std::size_t iterations = 0;
  std::vector<LegacyEventDurations> events;  // in entry order
  /// Absent when neither the tick-exact nor the reference's tax exists.
  std::optional<LegacyFrameworkTax> framework_tax;
  std::vector<LegacyMemoryUsage> memory;  // by first use of the allocator
};

struct LegacyTables {
  std::string source_name;
  TimeScale time_scale = TimeScale::kNs;  // unit of the file's ticks
  TimeScale unit = TimeScale::kMs;        // of every duration: ms or cycles
  std::vector<LegacyBlockTables> blocks;
  /// One line per entry left out as unfinished (UnfinishedScopeWarnings).
  std::vector<std::string> warnings;
};

/// Computes the tables. `time_scale` is the unit of the file's ticks, as
/// the reference's TimeScale argument: ns, us, ms (durations reported in
/// ms) or cycles (reported in cycles). Unfinished entries are left out of
/// every statistic and named in `warnings`. Errors: time scale s; an entry
/// that ends before it starts (other than a 32-bit counter wrap or an
/// unfinished entry, see LegacyElapsedTicks).
Result<LegacyTables> ComputeLegacyTables(const LegacyProfile& profile,
                                         TimeScale time_scale = TimeScale::kNs);

}  // namespace etbench
