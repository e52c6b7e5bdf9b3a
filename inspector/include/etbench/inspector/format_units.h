#pragma once
// Number formatting shared by the profiler tables, in torch.profiler's style
// (torch/autograd/profiler_util.py: _format_time, _format_time_share,
// _format_memory), with byte units spelled B/KB/MB/GB.

#include <cstdint>
#include <optional>
#include <string>

#include "etbench/inspector/time_scale.h"

namespace etbench {

/// Converts `value` from one time scale to another (exact power-of-ten
/// factors; cycles only convert to cycles, anything else returns `value`
/// unchanged — callers validate scales first).
double ConvertTime(double value, TimeScale from, TimeScale to);

/// Formats a duration given in `value_scale`.
/// - `display` unset: torch.profiler's automatic unit: "%.3fs" from one
///   second, "%.3fms" from one millisecond, else "%.3fus" (by magnitude, so
///   negative values pick the unit of their absolute value).
/// - `display` set (s, ms, us or ns): "%.3f" followed by that unit.
/// - cycles (`value_scale` kCycles): "%.0f cycles" whatever `display` says.
std::string FormatTime(double value, TimeScale value_scale,
                       std::optional<TimeScale> display = std::nullopt);

/// `part` as a percentage of `whole`: "%.2f%%"; "NaN" when `whole` is 0
/// (torch.profiler's convention).
std::string FormatPercent(double part, double whole);

/// A percentage that is already computed: "%.2f%%"; "n/a" for NaN.
std::string FormatPercentValue(double percent);

/// Memory size: "%.2f GB" / "%.2f MB" / "%.2f KB" from 1024^3 / 1024^2 /
/// 1024 bytes (by magnitude), else "<n> B".
std::string FormatMemory(int64_t bytes);

/// The shortest decimal that reads back as `value`, spelled as Python's
/// repr(float) does ("0.0123", "2.0", "1e-05", "1.5e+16", "nan", "inf").
/// Used where etbench prints the reference tools' numbers verbatim.
std::string PythonFloatRepr(double value);

/// Python's round(value, digits) for a double: correctly rounded, ties to
/// even on the exact binary value.
double PythonRound(double value, int digits);

}  // namespace etbench
