#pragma once
// OPERATOR_CALL wraps native_call_<op> of the same instruction: the same
// time plus dispatch, already judged (and attributed) as the kernel. Gating
// both would count one regression twice and double the family, so every
// engine (comparison.cc, night_gate.cc) leaves such wrappers ungated.

#include <vector>

#include "etbench/compare/metrics.h"

namespace etbench {

/// For each of `metrics`: an OPERATOR_CALL (not end to end) whose
/// instruction's kernel call is among `metrics` too.
std::vector<bool> OperatorCallWrappers(const std::vector<const Metric*>& metrics);

}  // namespace etbench
