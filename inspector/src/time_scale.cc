#include "etbench/inspector/time_scale.h"

#include <string>

#include "etbench/base/units.h"

namespace etbench {

std::string_view TimeScaleName(TimeScale scale) {
  switch (scale) {
    case TimeScale::kNs: return "ns";
    case TimeScale::kUs: return "us";
    case TimeScale::kMs: return "ms";
    case TimeScale::kS: return "s";
    case TimeScale::kCycles: return "cycles";
  }
  return "?";
}

Result<TimeScale> ParseTimeScale(std::string_view name) {
  for (TimeScale s : {TimeScale::kNs, TimeScale::kUs, TimeScale::kMs,
                      TimeScale::kS, TimeScale::kCycles}) {
    if (TimeScaleName(s) == name) return s;
  }
  return UsageError("unknown time scale '" + std::string(name) +
                    "' (expected ns, us, ms, s or cycles)");
}

double UnitsPerSecond(TimeScale scale) {
  if (scale == TimeScale::kCycles) return 1.0;
  // The one table of time units (base/units.h); 1e9 / {1, 1e3, 1e6, 1e9}
  // is exact, as the reference's integer ratios are.
  return 1e9 / NanosecondsPerUnit(std::string(TimeScaleName(scale)));
}

Result<double> TimeScaleFactor(TimeScale source, TimeScale target) {
  if ((source == TimeScale::kCycles) != (target == TimeScale::kCycles)) {
    return UsageError(
        "cannot convert between cycles and time units (source " +
        std::string(TimeScaleName(source)) + ", target " +
        std::string(TimeScaleName(target)) +
        "): for cycles both the source and the target time scale must be "
        "cycles");
  }
  // Same operation as the reference: int / int in Python is a correctly
  // rounded double division.
  return UnitsPerSecond(source) / UnitsPerSecond(target);
}

TimeScale DefaultTargetTimeScale(TimeScale source) {
  return source == TimeScale::kCycles ? TimeScale::kCycles : TimeScale::kMs;
}

}  // namespace etbench
