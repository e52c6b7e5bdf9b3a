#pragma once
// Time scales of ETDump ticks and of reported numbers, with the reference
// Inspector's conversion rules.

#include <optional>
#include <string>
#include <string_view>

#include "etbench/base/result.h"

namespace etbench {

enum class TimeScale { kNs, kUs, kMs, kS, kCycles };

/// "ns", "us", "ms", "s", "cycles".
std::string_view TimeScaleName(TimeScale scale);

/// Parses a time scale name; error names the accepted values.
Result<TimeScale> ParseTimeScale(std::string_view name);

/// Units per second: ns 1e9, us 1e6, ms 1e3, s 1, cycles 1.
double UnitsPerSecond(TimeScale scale);

/// Factor by which raw durations are DIVIDED to go from `source` to
/// `target` (units-per-second(source) / units-per-second(target)), exactly as
/// the reference computes it. Cycles only convert to cycles: any other mix is
/// an error.
Result<double> TimeScaleFactor(TimeScale source, TimeScale target);

/// The reference's default target: cycles stay cycles, time goes to ms.
TimeScale DefaultTargetTimeScale(TimeScale source);

}  // namespace etbench
