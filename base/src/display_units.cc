#include "etbench/base/display_units.h"

#include <cmath>
#include <cstdio>
#include <iterator>
#include <string>

namespace etbench {
namespace {

struct TimeUnit {
  const char* name;
  double ns;  // nanoseconds in one of these
};

constexpr TimeUnit kTimeUnits[] = {{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};

const TimeUnit* FindTimeUnit(const std::string& unit) {
  for (const TimeUnit& t : kTimeUnits) {
    if (unit == t.name) return &t;
  }
  return nullptr;
}

std::string Significant(double value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", value);
  return buf;
}

}  // namespace

double NanosecondsPerUnit(const std::string& unit) {
  const TimeUnit* t = FindTimeUnit(unit);
  return t == nullptr ? 0 : t->ns;
}

std::string FormatForPeople(double value, const std::string& unit) {
  if (std::isnan(value)) return "n/a";
  if (unit == "percent") return Significant(value) + "%";
  const TimeUnit* given = FindTimeUnit(unit);
  if (given == nullptr || value == 0 || std::isinf(value)) {
    return Significant(value) + (unit.empty() ? "" : " " + unit);
  }
  const double ns = std::fabs(value) * given->ns;
  const TimeUnit* pick = &kTimeUnits[0];
  for (const TimeUnit& t : kTimeUnits) {
    if (ns >= t.ns) pick = &t;
  }
  // Rounding to 4 digits can reach the next unit (999.96 us → "1000 us").
  std::string digits = Significant(value * given->ns / pick->ns);
  if (std::fabs(std::stod(digits)) >= 1000 && pick + 1 < std::end(kTimeUnits)) {
    ++pick;
    digits = Significant(value * given->ns / pick->ns);
  }
  return digits + " " + pick->name;
}

}  // namespace etbench
