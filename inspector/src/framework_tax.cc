// Framework tax of one Execute run.
#include "framework_tax.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <utility>

#include "etbench/inspector/event_role.h"
#include "etbench/inspector/inspector.h"

namespace etbench {
namespace internal {

TaxTicks SumTaxTicks(const std::vector<TaxScope>& scopes) {
  TaxTicks out;
  std::vector<TaxScope> kernels;
  for (const TaxScope& s : scopes) {
    if (s.role == EventRole::kMethodExecute) {
      out.has_execute = true;
      out.execute += s.end - s.start;
    } else if (IsKernelOrDelegateCall(s.role)) {
      kernels.push_back(s);
    }
  }
  // Per instruction, by start and then longest first: a scope that ends
  // within the current outermost one is nested in it and not counted again.
  std::sort(kernels.begin(), kernels.end(), [](const TaxScope& a, const TaxScope& b) {
    return std::make_tuple(a.chain, a.instruction, a.start, b.end) <
           std::make_tuple(b.chain, b.instruction, b.start, a.end);
  });
  const TaxScope* outer = nullptr;
  for (const TaxScope& s : kernels) {
    const bool same_instruction =
        outer != nullptr && outer->chain == s.chain && outer->instruction == s.instruction;
    if (same_instruction && s.end <= outer->end) continue;
    out.kernels += s.end - s.start;
    outer = &s;
  }
  return out;
}

double TaxPercent(const TaxTicks& ticks) {
  if (!ticks.has_execute || ticks.execute == 0) return std::numeric_limits<double>::quiet_NaN();
  const double exec = static_cast<double>(ticks.execute);
  return (exec - static_cast<double>(ticks.kernels)) / exec * 100.0;
}

}  // namespace internal

std::optional<PerfData> FrameworkTaxOfBlock(const EventBlock& block) {
  // Classify events once (Method::execute; kernel and delegate calls by
  // their role), then sum their per-run ticks.
  std::vector<const Event*> execute;
  std::vector<const Event*> kernels;
  for (const Event& event : block.events) {
    // Delegate-internal events may count another unit; their DELEGATE_CALL
    // stands for them.
    if (!event.perf_data || event.role == EventRole::kDelegateEvent) continue;
    if (event.role == EventRole::kMethodExecute) {
      execute.push_back(&event);
    } else if (IsKernelOrDelegateCall(event.role)) {
      kernels.push_back(&event);
    }
  }
  if (execute.empty()) return std::nullopt;
  // Scopes can only nest within one instruction: with one kernel or
  // delegate scope per instruction (the usual case) every one counts.
  std::vector<std::pair<int64_t, int32_t>> keys;
  for (const Event* e : kernels) keys.emplace_back(e->chain_index, e->instruction_id.value_or(-1));
  std::sort(keys.begin(), keys.end());
  const bool may_nest = std::adjacent_find(keys.begin(), keys.end()) != keys.end();

  auto scope = [](const Event* e, std::size_t run) {
    internal::TaxScope s;
    s.role = e->role;
    s.chain = e->chain_index;
    s.instruction = e->instruction_id.value_or(-1);
    s.start = e->start_ticks[run];
    s.end = s.start + ElapsedTicks(s.start, e->end_ticks[run]).value_or(0);
    return s;
  };
  std::vector<double> tax;
  tax.reserve(block.run_count);
  auto add_run = [&tax](const internal::TaxTicks& ticks) {
    const double percent = internal::TaxPercent(ticks);
    if (!std::isnan(percent)) tax.push_back(percent);  // a 0-tick execute has none
  };
  if (!may_nest) {
    // Sums per run, gathered event by event: each event's tick columns are
    // read in order (a run-by-run walk reads one cache line per event and
    // run). Integer sums: the order does not change them.
    std::vector<uint64_t> execute_ticks(block.run_count, 0);
    std::vector<uint64_t> kernel_ticks(block.run_count, 0);
    auto add = [&block](const Event* e, std::vector<uint64_t>& sums) {
      for (std::size_t run = 0; run < block.run_count; ++run) {
        sums[run] += ElapsedTicks(e->start_ticks[run], e->end_ticks[run]).value_or(0);
      }
    };
    for (const Event* e : execute) add(e, execute_ticks);
    for (const Event* e : kernels) add(e, kernel_ticks);
    for (std::size_t run = 0; run < block.run_count; ++run) {
      internal::TaxTicks ticks;
      ticks.has_execute = true;
      ticks.execute = execute_ticks[run];
      ticks.kernels = kernel_ticks[run];
      add_run(ticks);
    }
  } else {
    std::vector<internal::TaxScope> scopes;
    for (std::size_t run = 0; run < block.run_count; ++run) {
      scopes.clear();
      for (const Event* e : execute) scopes.push_back(scope(e, run));
      for (const Event* e : kernels) scopes.push_back(scope(e, run));
      add_run(internal::SumTaxTicks(scopes));
    }
  }
  if (tax.empty()) return std::nullopt;
  return PerfData::FromRaw(std::move(tax));
}

}  // namespace etbench
