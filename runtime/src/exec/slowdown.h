#pragma once
// Regression injection: makes an op slower by a factor through real extra
// work, proportional to the op's own time in the same execution.

#include <cstdint>

#include "etbench/runtime/tracer.h"

namespace etbench::runtime {

/// The op started at `start` (tracer ticks) and has just finished. Does
/// arithmetic over the op's output `data[0..n)` (a dependent multiply-add
/// chain, so it cannot be optimized away or overlapped) until the tracer's
/// clock reaches start + factor × (now − start). No-op for factor <= 1.
void ExtendOpDuration(const Tracer& tracer, uint64_t start, double factor,
                      const float* data, int64_t n);

}  // namespace etbench::runtime
