// The legacy profiler's tables (see legacy_tables.h): computation.
#include "etbench/inspector/legacy_tables.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>

#include "etbench/inspector/event_role.h"
#include "etbench/inspector/format_units.h"
#include "framework_tax.h"

namespace etbench {
namespace {

bool Contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

// The reference's framework tax (profile_aggregate_framework_tax), over
// the rounded durations; unfinished (NaN) kernel durations are left out.
void ReferenceFrameworkTax(const std::vector<LegacyEventDurations>& events,
                           LegacyFrameworkTax* tax) {
  std::vector<double>
      execute;  // Python: execute_max = max(execute_max, d.duration)
  std::vector<double> kernels;
  for (const LegacyEventDurations& e : events) {
    // The reference matches parts of names here, not roles.
    if (Contains(e.name, kMethodExecuteEventName) &&
        std::lexicographical_compare(execute.begin(), execute.end(),
                                     e.durations.begin(), e.durations.end())) {
      execute = e.durations;
    }
    if (Contains(e.name, "native_call") ||
        Contains(e.name, "delegate_execute")) {
      for (std::size_t i = 0; i < e.durations.size(); ++i) {
        const double d = std::isnan(e.durations[i]) ? 0 : e.durations[i];
        if (i < kernels.size()) {
          kernels[i] += d;
        } else {
          kernels.push_back(d);
        }
      }
    }
  }
  if (execute.empty() || kernels.empty()) return;
  const std::size_t n =
      std::min(execute.size(), kernels.size());  // Python's zip
  tax->reference_execution_time.assign(
      execute.begin(), execute.begin() + static_cast<std::ptrdiff_t>(n));
  tax->reference_kernel_and_delegate_time.assign(
      kernels.begin(), kernels.begin() + static_cast<std::ptrdiff_t>(n));
  for (std::size_t i = 0; i < n; ++i) {
    const double e = execute[i];
    tax->reference_framework_tax_percent.push_back(
        e == 0 || std::isnan(e) ? std::numeric_limits<double>::quiet_NaN()
                                : PythonRound((e - kernels[i]) / e, 4) * 100);
  }
}

// The tick-exact tax per iteration, by the same rule as the ETDump path
// (FrameworkTaxOfBlock) so that a converted file reports the same value.
std::vector<double> TickExactFrameworkTax(const LegacyBlock& block,
                                          const LegacyBlockTables& tables) {
  const bool has_execute =
      std::any_of(tables.events.begin(), tables.events.end(),
                  [](const LegacyEventDurations& e) {
                    return EventRoleOf(e.name, /*is_delegated_op=*/false) ==
                           EventRole::kMethodExecute;
                  });
  std::vector<double> percent;
  if (!has_execute) return percent;
  std::vector<internal::TaxScope> scopes;
  for (std::size_t i = 0; i < block.iterations.size(); ++i) {
    scopes.clear();
    const std::vector<LegacyProfileEntry>& entries =
        block.iterations[i].entries;
    for (std::size_t e = 0;
         e < entries.size() && e < tables.events.size(); ++e) {
      if (i >= tables.events[e].elapsed_ticks.size()) continue;
      const std::optional<uint64_t>& elapsed =
          tables.events[e].elapsed_ticks[i];
      if (!elapsed) continue;  // unfinished
      internal::TaxScope scope;
      // A legacy profile has no delegate debug ids: its delegate call is
      // delegate_execute, a role EventRoleOf knows.
      scope.role = EventRoleOf(entries[e].name, /*is_delegated_op=*/false);
      scope.chain = entries[e].chain_index;
      scope.instruction = entries[e].instruction_index;
      scope.start = entries[e].start_time;
      scope.end = entries[e].start_time + *elapsed;
      scopes.push_back(scope);
    }
    percent.push_back(internal::TaxPercent(internal::SumTaxTicks(scopes)));
  }
  return percent;
}

}  // namespace

Result<LegacyTables> ComputeLegacyTables(const LegacyProfile& profile,
                                         TimeScale time_scale) {
  double divisor = 1;
  switch (time_scale) {
    case TimeScale::kNs:
      divisor = 1000000;
      break;
    case TimeScale::kUs:
      divisor = 1000;
      break;
    case TimeScale::kMs:
    case TimeScale::kCycles:
      divisor = 1;
      break;
    case TimeScale::kS:
      return UsageError(
          "legacy profiles take --time-scale ns, us, ms or cycles (got s)");
  }
  LegacyTables tables;
  tables.source_name = profile.source_name;
  tables.time_scale = time_scale;
  tables.unit =
      time_scale == TimeScale::kCycles ? TimeScale::kCycles : TimeScale::kMs;

  for (const LegacyBlock& block : profile.blocks) {
    LegacyBlockTables out;
    out.name = block.name;
    out.iterations = block.iterations.size();
    if (block.iterations.empty()) {
      tables.blocks.push_back(std::move(out));
      continue;
    }
    const LegacyIteration& first = block.iterations.front();
    for (std::size_t e = 0; e < first.entries.size(); ++e) {
      LegacyEventDurations durations;
      durations.name = first.entries[e].name;
      durations.chain_index = first.entries[e].chain_index;
      durations.instruction_index = first.entries[e].instruction_index;
      for (std::size_t i = 0; i < block.iterations.size(); ++i) {
        const std::vector<LegacyProfileEntry>& entries =
            block.iterations[i].entries;
        if (e >= entries.size()) break;  // inconsistent hand-built profile
        const Result<std::optional<uint64_t>> elapsed =
            LegacyElapsedTicks(profile, block, i, e);
        if (!elapsed.ok()) return elapsed.error();
        durations.elapsed_ticks.push_back(elapsed.value());
        if (!elapsed.value()) {
          durations.durations.push_back(
              std::numeric_limits<double>::quiet_NaN());
          continue;
        }
        const double ticks = static_cast<double>(*elapsed.value());
        durations.durations.push_back(
            divisor == 1 ? ticks : PythonRound(ticks / divisor, 4));
      }
      out.events.push_back(std::move(durations));
    }
    LegacyFrameworkTax tax;
    tax.framework_tax_percent = TickExactFrameworkTax(block, out);
    ReferenceFrameworkTax(out.events, &tax);
    if (!tax.framework_tax_percent.empty() ||
        !tax.reference_framework_tax_percent.empty()) {
      out.framework_tax = std::move(tax);
    }

    // Memory: one iteration's allocations (all are equal) per allocator.
    for (const LegacyAllocation& a : first.allocations) {
      auto found = std::find_if(out.memory.begin(), out.memory.end(),
                                [&](const LegacyMemoryUsage& m) {
                                  return m.allocator_id == a.allocator_id;
                                });
      if (found == out.memory.end()) {
        LegacyMemoryUsage usage;
        usage.allocator_id = a.allocator_id;
        usage.allocator_name =
            profile.AllocatorName(block, a.allocator_id)
                .value_or("allocator " + std::to_string(a.allocator_id));
        out.memory.push_back(std::move(usage));
        found = out.memory.end() - 1;
      }
      found->total_bytes += a.allocation_size;
    }
    tables.blocks.push_back(std::move(out));
  }
  tables.warnings = UnfinishedScopeWarnings(profile);
  return tables;
}

}  // namespace etbench
