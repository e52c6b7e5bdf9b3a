#pragma once
// The framework tax of one run, shared by the ETDump path
// (FrameworkTaxOfBlock) and the legacy prof_result.bin tables, so that a
// legacy file and its converted ETDump report one tick-exact tax.

#include <cstdint>
#include <vector>

#include "etbench/inspector/event_role.h"

namespace etbench::internal {

/// One finished scope of a run: `end` is already unwrapped (start + the
/// elapsed ticks, see ElapsedTicks), so end >= start.
struct TaxScope {
  EventRole role = EventRole::kFrameworkEvent;
  int64_t chain = 0;
  int64_t instruction = -1;  // -1: none
  uint64_t start = 0;
  uint64_t end = 0;
};

/// Raw ticks of one run: Σ Method::execute, and Σ of the outermost
/// kernel or delegate call (IsKernelOrDelegateCall(role): native_call_*,
/// DELEGATE_CALL, delegate_execute) within each (chain, instruction): a scope lying inside
/// another such scope of the same instruction — a DELEGATE_CALL around the
/// delegate's delegate_execute — is counted once, through the outer one.
struct TaxTicks {
  bool has_execute = false;
  uint64_t execute = 0;
  uint64_t kernels = 0;
};

/// Sums the ticks of one run's scopes (any order).
TaxTicks SumTaxTicks(const std::vector<TaxScope>& scopes);

/// (execute − kernels) / execute × 100 in double; NaN when there is no
/// Method::execute or it lasted 0 ticks.
double TaxPercent(const TaxTicks& ticks);

}  // namespace etbench::internal
