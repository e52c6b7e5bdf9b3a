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
  /// the elapsed ticks themselves.
  std::vector<double> durations;
  std::vector<uint64_t> elapsed_ticks;  // per iteration, raw
};

struct LegacyFrameworkTax {
  /// Per iteration: the Method::execute duration (of the entry whose
  /// duration list is the largest, as the reference's max() picks it), the
  /// sum of the native_call / delegate_execute durations, and
  /// round((execute − kernels) / execute, 4) × 100 (NaN when execute is 0).
  std::vector<double> execution_time;
  std::vector<double> kernel_and_delegate_time;
  std::vector<double> framework_tax_percent;
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
  /// Absent when the block has no Method::execute or no kernel/delegate
  /// entries (the reference then prints no table).
  std::optional<LegacyFrameworkTax> framework_tax;
  std::vector<LegacyMemoryUsage> memory;  // by first use of the allocator
};

struct LegacyTables {
  std::string source_name;
  TimeScale time_scale = TimeScale::kNs;  // unit of the file's ticks
  TimeScale unit = TimeScale::kMs;        // of every duration: ms or cycles
  std::vector<LegacyBlockTables> blocks;
};

/// Computes the tables. `time_scale` is the unit of the file's ticks, as
/// the reference's TimeScale argument: ns, us, ms (durations reported in
/// ms) or cycles (reported in cycles). Errors: time scale s; an entry that
/// ends before it starts (other than a 32-bit counter wrap).
Result<LegacyTables> ComputeLegacyTables(const LegacyProfile& profile,
                                         TimeScale time_scale = TimeScale::kNs);

}  // namespace etbench
