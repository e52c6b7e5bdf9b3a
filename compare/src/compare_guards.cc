// Comparability checks: refuse different time sources and units, warn on
// different machines, tick rates and model files.

#include "etbench/compare/compare_guards.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "etbench/base/units.h"
#include "etbench/compare/run_context.h"

namespace etbench {
namespace {

std::string Quote(const std::string& s) { return "'" + s + "'"; }

// Values no real measurement has (a corrupt or hand-edited file): an
// event longer than a day, a framework tax outside [-100%, 100%].
void WarnAbsurdValues(const MetricSet& set, const std::string& side,
                      std::vector<ComparisonWarning>& warnings) {
  constexpr double kDaySeconds = 86400;
  for (const Metric& m : set.metrics) {
    const auto [lo, hi] = std::minmax_element(m.samples.begin(), m.samples.end());
    if (lo == m.samples.end()) continue;
    const double per_unit = NanosecondsPerUnit(m.unit) / 1e9;  // seconds; 0: not a time
    std::optional<ImplausibleValue> what;
    if (m.key.kind == MetricKind::kFrameworkTax && (*lo < -100 || *hi > 100)) {
      what = ImplausibleValue::kTaxOutOfRange;
    } else if (per_unit > 0 && *hi * per_unit > kDaySeconds) {
      what = ImplausibleValue::kLongerThanADay;
    }
    if (what) warnings.push_back(ImplausibleValuesWarning{side, m.key, *what, *lo, *hi, m.unit});
  }
}

}  // namespace

Status CheckMetricSetUsable(const MetricSet& set, const std::string& role) {
  if (set.metrics.empty()) {
    std::string failed;
    for (const auto& [model, status] : UnfinishedModels(RunContextOf(set))) {
      failed += (failed.empty() ? "" : ", ") + model + " " + status;
    }
    return InputError("the " + role + " has no metrics: " +
                      (failed.empty() ? std::string("no model ran")
                                      : "no model finished (" + failed + ")") +
                      "; nothing to compare");
  }
  for (const Metric& m : set.metrics) {
    for (std::size_t i = 0; i < m.samples.size(); ++i) {
      const double v = m.samples[i];
      const bool may_be_negative = m.key.kind == MetricKind::kFrameworkTax;
      if (!std::isfinite(v) || (v < 0 && !may_be_negative)) {
        return InputError("the " + role + "'s metric " + MetricLabel(m.key) + " has sample " +
                          std::to_string(i) + " = " + std::to_string(v) +
                          (std::isfinite(v) ? " (negative)" : " (not a number)"));
      }
    }
    for (std::size_t g = 0; g < m.group_sizes.size(); ++g) {
      if (m.group_sizes[g] == 0) {
        return InputError("the " + role + "'s metric " + MetricLabel(m.key) + ": repetition " +
                          std::to_string(g) + " has 0 samples");
      }
    }
  }
  return Ok{};
}

Status CheckComparable(const MetricSet& baseline, const MetricSet& candidate,
                       std::vector<ComparisonWarning>& warnings) {
  if (Status s = CheckMetricSetUsable(baseline, "baseline"); !s.ok()) return s;
  if (Status s = CheckMetricSetUsable(candidate, "candidate"); !s.ok()) return s;
  WarnAbsurdValues(baseline, "baseline", warnings);
  WarnAbsurdValues(candidate, "candidate", warnings);
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
      warnings.push_back(ContextDiffersWarning{key, b, c});
    }
  }
  const RunContext rb = RunContextOf(baseline);
  const RunContext rc = RunContextOf(candidate);
  if (!SameTickRate(rb.tick_rate_hz, rc.tick_rate_hz)) {
    warnings.push_back(TickRateDiffersWarning{*rb.tick_rate_hz, *rc.tick_rate_hz});
  }
  for (const auto& [model, mb] : rb.models) {
    auto it = rc.models.find(model);
    if (!mb.sha256 || it == rc.models.end() || !it->second.sha256) continue;
    if (*mb.sha256 != *it->second.sha256) {
      warnings.push_back(ModelFileChangedWarning{model, *mb.sha256, *it->second.sha256});
    }
  }
  return Ok{};
}

}  // namespace etbench
