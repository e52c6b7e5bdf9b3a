#pragma once
// Numbers for people: a value in a suite's unit shown in the unit that fits
// it ("411 ns", not "0.000411 ms"). Machine output (JSON, CSV, results
// files) keeps the suite's unit; only text meant to be read uses this.

#include <string>

namespace etbench {

/// Nanoseconds in one `unit` for the time units metrics carry (ns 1, us 1e3,
/// ms 1e6, s 1e9); 0 for any other unit. The one table of time units that
/// FormatForPeople and every other unit choice for people scale by.
double NanosecondsPerUnit(const std::string& unit);

/// True for ns, us, ms and s.
inline bool IsTimeUnit(const std::string& unit) { return NanosecondsPerUnit(unit) > 0; }

/// `value` given in `unit`, with 4 significant digits and its unit:
/// - time units (ns, us, ms, s): in the largest of ns, us, ms, s in which
///   its magnitude is at least 1 (ns below 1 ns; 0 keeps `unit`):
///   0.000411 ms → "411 ns", 0.0052 ms → "5.2 us", 1899 us → "1.899 ms";
/// - "percent": "1.5%";
/// - anything else (cycles, bytes, counts): "%.4g" and the unit.
/// NaN prints "n/a".
std::string FormatForPeople(double value, const std::string& unit);

}  // namespace etbench
