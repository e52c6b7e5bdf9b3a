// torch.profiler-style number formatting (see format_units.h).
#include "etbench/inspector/format_units.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace etbench {
namespace {

std::string Printf(const char* format, double value) {
  char buffer[64];
  const int n = std::snprintf(buffer, sizeof(buffer), format, value);
  if (n >= 0 && static_cast<std::size_t>(n) < sizeof(buffer)) {
    return std::string(buffer, n);
  }
  // Values too large for the buffer (e.g. 1e300 with "%.3f").
  std::string big(static_cast<std::size_t>(n > 0 ? n : 0) + 1, '\0');
  std::snprintf(big.data(), big.size(), format, value);
  big.pop_back();
  return big;
}

// The unit after a formatted time: the scale's name (time_scale.h), with a
// space before "cycles" only (torch.profiler writes "1.500ms").
std::string TimeSuffix(TimeScale scale) {
  const std::string name(TimeScaleName(scale));
  return scale == TimeScale::kCycles ? " " + name : name;
}

}  // namespace

double ConvertTime(double value, TimeScale from, TimeScale to) {
  if (from == to || from == TimeScale::kCycles || to == TimeScale::kCycles) {
    return value;
  }
  const double from_ups = UnitsPerSecond(from);
  const double to_ups = UnitsPerSecond(to);
  // Both ratios are exact powers of ten; multiplying by an integer factor and
  // dividing by one each round once (multiplying by 0.001 would not).
  if (to_ups >= from_ups) return value * (to_ups / from_ups);
  return value / (from_ups / to_ups);
}

std::string FormatTime(double value, TimeScale value_scale,
                       std::optional<TimeScale> display) {
  if (value_scale == TimeScale::kCycles) {
    return Printf("%.0f", value) + TimeSuffix(value_scale);
  }
  if (display && *display != TimeScale::kCycles) {
    return Printf("%.3f", ConvertTime(value, value_scale, *display)) +
           TimeSuffix(*display);
  }
  const double magnitude = std::fabs(ConvertTime(value, value_scale, TimeScale::kUs));
  const TimeScale unit = magnitude >= 1000.0 * 1000.0 ? TimeScale::kS
                         : magnitude >= 1000.0        ? TimeScale::kMs
                                                      : TimeScale::kUs;
  return Printf("%.3f", ConvertTime(value, value_scale, unit)) + TimeSuffix(unit);
}

std::string FormatPercent(double part, double whole) {
  if (whole == 0) return "NaN";
  return FormatPercentValue(part * 100.0 / whole);
}

std::string FormatPercentValue(double percent) {
  if (std::isnan(percent)) return "n/a";
  return Printf("%.2f", percent) + "%";
}

std::string FormatMemory(int64_t bytes) {
  constexpr double kKb = 1024.0;
  constexpr double kMb = 1024.0 * kKb;
  constexpr double kGb = 1024.0 * kMb;
  const double value = static_cast<double>(bytes);
  const double magnitude = std::fabs(value);
  if (magnitude >= kGb) return Printf("%.2f", value / kGb) + " GB";
  if (magnitude >= kMb) return Printf("%.2f", value / kMb) + " MB";
  if (magnitude >= kKb) return Printf("%.2f", value / kKb) + " KB";
  return std::to_string(bytes) + " B";
}

std::string PythonFloatRepr(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  // Shortest round-trip digits, in scientific form "d.ddde±xx".
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value,
                                    std::chars_format::scientific);
  std::string sci(buffer, result.ptr);
  std::string sign;
  if (!sci.empty() && sci[0] == '-') {
    sign = "-";
    sci.erase(0, 1);
  }
  const std::size_t e_pos = sci.find('e');
  std::string digits = sci.substr(0, e_pos);
  if (digits.size() > 1) digits.erase(1, 1);  // drop the '.'
  const int exponent = std::atoi(sci.c_str() + e_pos + 1);
  // Python's repr: positional for -4 <= exponent < 16, else exponential.
  if (exponent < -4 || exponent >= 16) {
    std::string out = sign + digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    const int abs_exp = exponent < 0 ? -exponent : exponent;
    out += exponent < 0 ? "e-" : "e+";
    if (abs_exp < 10) out += "0";
    return out + std::to_string(abs_exp);
  }
  if (exponent < 0) {
    return sign + "0." +
           std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
  }
  const std::size_t int_len = static_cast<std::size_t>(exponent) + 1;
  if (digits.size() <= int_len) {
    return sign + digits + std::string(int_len - digits.size(), '0') + ".0";
  }
  return sign + digits.substr(0, int_len) + "." + digits.substr(int_len);
}

double PythonRound(double value, int digits) {
  if (!std::isfinite(value)) return value;
  // printf rounds the exact binary value to nearest (ties to even), which is
  // what CPython's round() does; reading the decimal back gives the same
  // double CPython returns.
  char format[16];
  std::snprintf(format, sizeof(format), "%%.%df", digits);
  const std::string text = Printf(format, value);
  return std::strtod(text.c_str(), nullptr);
}

}  // namespace etbench
