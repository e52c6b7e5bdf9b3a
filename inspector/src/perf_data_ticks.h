#pragma once
// PerfData of durations that are integer ticks scaled by one factor (the
// grouping's common case): the order statistics come from a histogram of
// the ticks instead of selections over the doubles.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "etbench/inspector/perf_data.h"

namespace etbench {

/// PerfData::FromRaw(raw), exactly, when raw[j] == double(ticks[j]) / factor
/// for each j (factor > 0, so the order of the ticks is the order of the
/// durations) and min_tick, max_tick are the ticks' smallest and largest.
/// `ticks` holds raw.size() values; raw must not be empty.
PerfData PerfDataFromTicks(std::vector<double> raw, const uint64_t* ticks, uint64_t min_tick,
                           uint64_t max_tick, double factor);

}  // namespace etbench
