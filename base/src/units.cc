#include "etbench/base/units.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <string>

namespace etbench {
namespace {

constexpr UnitInfo kUnits[] = {
    {"ns", UnitFamily::kTime, 1},         {"us", UnitFamily::kTime, 1e3},
    {"ms", UnitFamily::kTime, 1e6},       {"s", UnitFamily::kTime, 1e9},
    {"B", UnitFamily::kBytes, 1},         {"bytes", UnitFamily::kBytes, 1},
    {"KiB", UnitFamily::kBytes, 1024.0},  {"MiB", UnitFamily::kBytes, 1048576.0},
    {"GiB", UnitFamily::kBytes, 1073741824.0},
    {"cycles", UnitFamily::kCycles, 1},   {"percent", UnitFamily::kPercent, 1},
    {"pp", UnitFamily::kPercent, 1},
};

// The steps a family is shown in, smallest first.
struct Step {
  const char* name;
  double per_base;
};
constexpr Step kTimeSteps[] = {{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
constexpr Step kByteSteps[] = {{"B", 1}, {"KiB", 1024}, {"MiB", 1048576}, {"GiB", 1073741824}};

std::string Printf(const char* format, double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, value);
  return buf;
}

// Column rule: the smallest step below 10,000. Value rule: the largest step
// at which the value is at least 1 (zero keeps the metric's unit).
template <std::size_t N>
DisplayUnit Choose(const Step (&steps)[N], double base_per_unit, double magnitude, bool column) {
  const double base = std::fabs(magnitude) * base_per_unit;
  std::size_t pick = 0;
  if (column) {
    while (pick + 1 < N && base / steps[pick].per_base >= 1e4) ++pick;
  } else if (base == 0) {
    while (pick + 1 < N && steps[pick].per_base < base_per_unit) ++pick;
  } else {
    while (pick + 1 < N && base / steps[pick + 1].per_base >= 1) ++pick;
    // Rounding to the shown digits can reach the next step (999.96 us).
    const double shown = std::fabs(std::stod(FormatDigits(base / steps[pick].per_base)));
    if (shown >= 1000 && pick + 1 < N && base / steps[pick + 1].per_base >= 0.9995) ++pick;
  }
  return DisplayUnit{steps[pick].name, base_per_unit / steps[pick].per_base};
}

DisplayUnit ChooseUnit(const std::string& unit, double magnitude, bool column) {
  if (!std::isfinite(magnitude)) magnitude = 0;
  const UnitInfo* info = FindUnit(unit);
  if (info == nullptr) return DisplayUnit{unit, 1};
  switch (info->family) {
    case UnitFamily::kTime: return Choose(kTimeSteps, info->per_base, magnitude, column);
    case UnitFamily::kBytes: return Choose(kByteSteps, info->per_base, magnitude, column);
    case UnitFamily::kPercent: return DisplayUnit{unit == "pp" ? "pp" : "%", 1};
    case UnitFamily::kCycles: break;
  }
  return DisplayUnit{unit, 1};
}

}  // namespace

const UnitInfo* FindUnit(const std::string& name) {
  for (const UnitInfo& u : kUnits) {
    if (name == u.name) return &u;
  }
  return nullptr;
}

std::string UnitNames(const std::vector<UnitFamily>& families) {
  std::string out;
  for (const UnitInfo& u : kUnits) {
    for (UnitFamily f : families) {
      if (u.family != f) continue;
      if (!out.empty()) out += ", ";
      out += u.name;
    }
  }
  return out;
}

std::optional<Quantity> SplitQuantity(const std::string& text) {
  const char* begin = text.c_str();
  char* end = nullptr;
  const double value = std::strtod(begin, &end);
  if (end == begin || !std::isfinite(value)) return std::nullopt;
  std::string unit(end);
  const auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!unit.empty() && space(unit.front())) unit.erase(0, 1);
  while (!unit.empty() && space(unit.back())) unit.pop_back();
  return Quantity{value, unit};
}

double NanosecondsPerUnit(const std::string& unit) {
  const UnitInfo* u = FindUnit(unit);
  return u != nullptr && u->family == UnitFamily::kTime ? u->per_base : 0;
}

std::optional<double> ConvertUnit(double value, const std::string& from, const std::string& to) {
  const UnitInfo* a = FindUnit(from);
  const UnitInfo* b = FindUnit(to);
  if (a == nullptr || b == nullptr || a->family != b->family) return std::nullopt;
  return value * a->per_base / b->per_base;
}

DisplayUnit ValueDisplayUnit(const std::string& unit, double magnitude) {
  return ChooseUnit(unit, magnitude, false);
}

DisplayUnit ColumnDisplayUnit(const std::string& unit, double magnitude) {
  return ChooseUnit(unit, magnitude, true);
}

std::string FormatDigits(double v) {
  if (std::isnan(v)) return "n/a";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  // Thresholds on the rounded value: 999.96 prints "1000", not "1000.0".
  const double a = std::fabs(v);
  if (a >= 999.95) return Printf("%.0f", v);
  if (a >= 99.995) return Printf("%.1f", v);
  if (a >= 9.9995) return Printf("%.2f", v);
  return Printf("%.3f", v);
}

std::string FormatQuantity(double value, const DisplayUnit& display) {
  if (std::isnan(value)) return "n/a";
  const std::string number = FormatDigits(value * display.factor);
  if (display.name.empty()) return number;
  return number + (display.name == "%" ? "" : " ") + display.name;
}

std::string FormatQuantity(double value, const std::string& unit) {
  return FormatQuantity(value, ValueDisplayUnit(unit, value));
}

}  // namespace etbench
