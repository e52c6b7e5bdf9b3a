// Framework tax of one Execute run and the reserved framework event names.
#include "framework_tax.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "etbench/inspector/inspector.h"

namespace etbench {
namespace internal {
namespace {

// Events that count as "kernel or delegate time" in the framework tax:
// the runtime's native kernels, delegate calls, and the legacy profiler's
// delegate_execute.
bool IsKernelOrDelegateEvent(std::string_view name) {
  return name.rfind("native_call_", 0) == 0 || name == "DELEGATE_CALL" ||
         name == "delegate_execute";
}

}  // namespace

TaxTicks SumTaxTicks(const std::vector<TaxScope>& scopes) {
  TaxTicks out;
  std::vector<TaxScope> kernels;
  for (const TaxScope& s : scopes) {
    if (s.name == "Method::execute") {
      out.has_execute = true;
      out.execute += s.end - s.start;
    } else if (IsKernelOrDelegateEvent(s.name)) {
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

bool IsReservedFrameworkEvent(const std::string& name) {
  return name == "Method::init" || name == "Program::load_method" ||
         name == "Method::execute";
}

std::optional<PerfData> FrameworkTaxOfBlock(const EventBlock& block) {
  std::vector<const Event*> timed;
  bool any_execute = false;
  for (const Event& event : block.events) {
    // Delegate-internal events may count another unit; their DELEGATE_CALL
    // stands for them.
    if (!event.perf_data || event.is_delegated_op) continue;
    any_execute |= event.name == "Method::execute";
    timed.push_back(&event);
  }
  if (!any_execute) return std::nullopt;
  std::vector<double> tax;
  tax.reserve(block.run_count);
  std::vector<internal::TaxScope> scopes;
  for (std::size_t run = 0; run < block.run_count; ++run) {
    scopes.clear();
    for (const Event* e : timed) {
      const uint64_t start = e->start_ticks[run];
      internal::TaxScope s;
      s.name = e->name;
      s.chain = e->chain_index;
      s.instruction = e->instruction_id.value_or(-1);
      s.start = start;
      s.end = start + ElapsedTicks(start, e->end_ticks[run]).value_or(0);
      scopes.push_back(s);
    }
    const double percent = internal::TaxPercent(internal::SumTaxTicks(scopes));
    if (!std::isnan(percent)) tax.push_back(percent);  // a 0-tick execute has none
  }
  if (tax.empty()) return std::nullopt;
  return PerfData::FromRaw(std::move(tax));
}

}  // namespace etbench
