// Comparability checks: refuse different time sources and units, warn on
// different machines, tick rates and model files.

#include "etbench/compare/compare_guards.h"

#include <cmath>
#include <cstdlib>
#include <map>

namespace etbench {
namespace {

std::string Quote(const std::string& s) { return "'" + s + "'"; }

}  // namespace

Status CheckComparable(const MetricSet& baseline, const MetricSet& candidate,
                       std::vector<std::string>& warnings) {
  const auto& cb = baseline.context;
  const auto& cc = candidate.context;
  auto both = [&](const std::string& key, std::string& b, std::string& c) {
    auto ib = cb.find(key);
    auto ic = cc.find(key);
    if (ib == cb.end() || ic == cc.end()) return false;
    b = ib->second;
    c = ic->second;
    return true;
  };
  std::string b, c;
  if (both("time_source", b, c) && b != c) {
    return InputError("cannot compare: the baseline was measured with time source " + Quote(b) +
                      " and the candidate with " + Quote(c));
  }
  if (both("unit", b, c) && b != c) {
    return InputError("cannot compare: the baseline is in " + Quote(b) + " and the candidate in " +
                      Quote(c));
  }
  std::map<MetricKey, const Metric*> units;
  for (const Metric& m : baseline.metrics) units.emplace(m.key, &m);
  for (const Metric& m : candidate.metrics) {
    auto it = units.find(m.key);
    if (it != units.end() && it->second->unit != m.unit) {
      return InputError("cannot compare " + MetricLabel(m.key) + ": unit " +
                        Quote(it->second->unit) + " in the baseline, " + Quote(m.unit) +
                        " in the candidate");
    }
  }
  for (const char* key : {"suite", "device", "cpu"}) {
    if (both(key, b, c) && b != c) {
      warnings.push_back(std::string("different ") + key + ": " + Quote(b) + " (baseline) vs " +
                         Quote(c) + " (candidate)");
    }
  }
  if (both("tick_rate_hz", b, c)) {
    const double rb = std::strtod(b.c_str(), nullptr);
    const double rc = std::strtod(c.c_str(), nullptr);
    if (b != c && !(rb > 0 && rc > 0 && std::fabs(rb - rc) <= 1e-3 * std::max(rb, rc))) {
      warnings.push_back("different tick rate: " + b + " Hz (baseline) vs " + c +
                         " Hz (candidate); times in ticks are not comparable");
    }
  }
  for (const auto& [key, value] : cb) {
    if (key.rfind("model_sha256:", 0) != 0) continue;
    auto it = cc.find(key);
    if (it != cc.end() && it->second != value) {
      warnings.push_back("model file of " + Quote(key.substr(13)) +
                         " changed (sha256 " + value.substr(0, 12) + "… vs " +
                         it->second.substr(0, 12) + "…)");
    }
  }
  return Ok{};
}

}  // namespace etbench
