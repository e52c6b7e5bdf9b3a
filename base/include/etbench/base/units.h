#pragma once
// The one unit rule. Every unit a metric, a threshold or a history value
// carries is in one table here (families: time, bytes, cycles, percent);
// conversions and every number shown to a person go through it, so the
// terminal, Markdown, HTML and history outputs agree ("411.0 ns", never
// "0.000411 ms"; "1.50 MiB" everywhere: bytes are IEC, 1 KiB = 1024 B).
// Machine output (JSON, CSV, results files) keeps the metric's own unit.

#include <optional>
#include <string>
#include <vector>

namespace etbench {

enum class UnitFamily { kTime, kBytes, kCycles, kPercent };

/// One known unit: its family and how many of the family's base unit (ns,
/// byte, cycle, percentage point) one of it is.
struct UnitInfo {
  const char* name;
  UnitFamily family;
  double per_base;
};

/// The known units: ns us ms s · B bytes KiB MiB GiB · cycles · percent pp.
/// Null for any other name (counts, user units): those are shown as they are.
const UnitInfo* FindUnit(const std::string& name);

/// The names of the known units of `families`, in the table's order,
/// joined with ", " ("ns, us, ms, s" for kTime): what an error lists.
std::string UnitNames(const std::vector<UnitFamily>& families);

/// A number with an optional unit, as a person writes it ("2ms", "0.5 MiB",
/// "3"); `unit` is empty when none was written.
struct Quantity {
  double value = 0;
  std::string unit;
};

/// Splits "<number>[ ]<unit>" (strtod's number syntax; spaces around the
/// unit ignored). Nullopt when the text does not start with a finite
/// number. The unit is not checked: FindUnit tells whether it is known, and
/// the caller words the error (it knows what the quantity is for).
std::optional<Quantity> SplitQuantity(const std::string& text);

/// Nanoseconds in one `unit` for the time units (ns 1, us 1e3, ms 1e6,
/// s 1e9); 0 for any other unit.
double NanosecondsPerUnit(const std::string& unit);

/// True for ns, us, ms and s.
inline bool IsTimeUnit(const std::string& unit) { return NanosecondsPerUnit(unit) > 0; }

/// `value` in `from` expressed in `to` ("2 ms" in us → 2000); nullopt when
/// either unit is unknown or their families differ.
std::optional<double> ConvertUnit(double value, const std::string& from, const std::string& to);

/// How a value in a metric's unit is shown: value × factor, then `name`
/// ("%" for percent, written without a space).
struct DisplayUnit {
  std::string name;
  double factor = 1;
};

/// For one value: time in the largest of ns/us/ms/s in which `magnitude`
/// is at least 1 (1.899 ms, 8.462 us), bytes likewise in B/KiB/MiB/GiB;
/// 0 keeps the metric's unit; "percent" shows as "%"; any other unit as
/// itself.
DisplayUnit ValueDisplayUnit(const std::string& unit, double magnitude);

/// For a column or an axis whose largest magnitude is `magnitude`: the
/// smallest unit of the family in which it stays below 10,000, so small
/// values in the same column keep their digits (2031 us next to 0.970 us).
/// One column, one unit: never "0.291 us" beside "1222 ns".
DisplayUnit ColumnDisplayUnit(const std::string& unit, double magnitude);

/// A displayed number with digits by magnitude: "1032", "153.5", "18.39",
/// "0.151"; "n/a" for NaN, "inf"/"-inf".
std::string FormatDigits(double displayed);

/// "1032 us": `value` (in the metric's unit) in `display`; "n/a" for NaN.
std::string FormatQuantity(double value, const DisplayUnit& display);

/// `value` given in `unit` shown in the unit that fits it alone
/// (ValueDisplayUnit): 0.000411 ms → "411.0 ns", 1899 us → "1.899 ms",
/// 1572864 bytes → "1.500 MiB", 1.5 percent → "1.500%". Rounding that
/// reaches 1000 moves to the next unit (0.99996 ms → "1.000 ms").
std::string FormatQuantity(double value, const std::string& unit);

}  // namespace etbench
