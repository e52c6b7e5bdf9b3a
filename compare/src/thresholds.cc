// Threshold values that need no YAML: units of minimum deltas, the
// built-in defaults and rule resolution.

#include "etbench/compare/thresholds.h"

#include <algorithm>

#include <fnmatch.h>

#include <cmath>
#include <map>
#include <string>
#include <string_view>
#include <tuple>

#include "etbench/base/units.h"
#include "etbench/inspector/event_role.h"
#include "etbench/inspector/perf_data.h"

namespace etbench {

std::optional<std::string> GlobProblem(std::string_view pattern) {
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '\\') {
      if (++i == pattern.size()) return std::string("ends in a lone backslash");
    } else if (pattern[i] == '[') {
      // A bracket expression: "[!" and a leading ']' are part of it.
      std::size_t j = i + 1;
      if (j < pattern.size() && (pattern[j] == '!' || pattern[j] == '^')) ++j;
      if (j < pattern.size() && pattern[j] == ']') ++j;
      while (j < pattern.size() && pattern[j] != ']') ++j;
      if (j == pattern.size()) {
        return "'[' at offset " + std::to_string(i) + " has no closing ']'";
      }
      i = j;
    }
  }
  return std::nullopt;
}

namespace {

bool Glob(const std::string& pattern, const std::string& text) {
  return fnmatch(pattern.c_str(), text.c_str(), 0) == 0;
}

}  // namespace

const char* DirectionName(Direction direction) {
  switch (direction) {
    case Direction::kIncrease: return "increase";
    case Direction::kDecrease: return "decrease";
    case Direction::kBoth: return "both";
  }
  return "?";
}

Result<MinDelta> ParseMinDelta(const std::string& text) {
  if (text == "auto") return MinDelta{0, "", true};
  const std::optional<Quantity> q = SplitQuantity(text);
  if (!q) return InputError("min_delta '" + text + "' is not a number with an optional unit");
  if (q->value < 0) return InputError("min_delta '" + text + "' is negative");
  if (!q->unit.empty() && !FindUnit(q->unit)) {
    // Percentages are accepted but not offered: framework tax has its own
    // threshold in points (max_increase_pp).
    return InputError("min_delta '" + text + "' has an unknown unit '" + q->unit + "' (known: " +
                      UnitNames({UnitFamily::kTime, UnitFamily::kBytes, UnitFamily::kCycles}) +
                      ")");
  }
  return MinDelta{q->value, q->unit};
}

std::optional<double> MinDeltaIn(const MinDelta& delta, const std::string& metric_unit) {
  if (delta.unit.empty() || delta.value == 0) return delta.value;
  return ConvertUnit(delta.value, delta.unit, metric_unit);
}

double MeasuredMinDelta(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> pooled(a);
  pooled.insert(pooled.end(), b.begin(), b.end());
  std::sort(pooled.begin(), pooled.end());
  double tick = 0;
  for (std::size_t i = 1; i < pooled.size(); ++i) {
    const double gap = pooled[i] - pooled[i - 1];
    if (gap > 0 && (tick == 0 || gap < tick)) tick = gap;
  }
  return 2 * tick;
}

double EventOverhead(const MetricSet& set, const std::string& unit) {
  // OPERATOR_CALL wraps native_call_<op> of the same instruction: its
  // excess is the cost of one more event record plus the dispatch.
  using Place = std::tuple<std::string, std::string, int32_t, int32_t>;
  std::map<Place, std::pair<double, double>> pairs;  // (wrapper, kernel) medians
  for (const Metric& m : set.metrics) {
    if (m.key.kind != MetricKind::kEvent || m.end_to_end || m.unit != unit ||
        m.samples.empty() || !m.key.instruction_id) {
      continue;
    }
    const EventRole role = MetricEventRole(m.key);
    const bool wrapper = role == EventRole::kOperatorCall;
    if (!wrapper && role != EventRole::kKernelCall) continue;
    std::vector<double> sorted = m.samples;
    std::sort(sorted.begin(), sorted.end());
    auto& pair = pairs[{m.key.model, m.key.block, *m.key.instruction_id, m.key.occurrence}];
    (wrapper ? pair.first : pair.second) = Percentile(sorted, 50);
  }
  std::vector<double> excess;
  for (const auto& [place, pair] : pairs) {
    if (pair.first > 0 && pair.second > 0 && pair.first > pair.second) {
      excess.push_back(pair.first - pair.second);
    }
  }
  if (excess.empty()) return 0;
  std::sort(excess.begin(), excess.end());
  return Percentile(excess, 50);
}

std::optional<double> MinDeltaFor(const MinDelta& delta, const Metric& baseline,
                                  const Metric& candidate, double event_overhead) {
  if (!delta.measured) return MinDeltaIn(delta, baseline.unit);
  const double ticks = MeasuredMinDelta(baseline.samples, candidate.samples);
  const bool operator_event = baseline.key.kind == MetricKind::kEvent && !baseline.end_to_end;
  return operator_event ? std::max(ticks, event_overhead) : ticks;
}

Thresholds DefaultThresholds() {
  Thresholds t;
  t.per_operator.relative = 0.05;
  t.per_operator.min_delta = MinDelta{0, "", true};
  t.end_to_end.relative = 0.02;
  t.end_to_end.min_delta = MinDelta{0, "", true};
  t.framework_tax.max_increase_pp = 1.0;
  // A share, not a time: it falls when the operators get slower. Shown,
  // never gated (Method::execute and the kernels carry the time).
  t.framework_tax.gate = false;
  t.allocations.relative = 0.01;
  t.allocations.min_delta = MinDelta{64, "B"};
  // One sample per load, cold caches: looser than steady-state execution.
  for (std::string_view name : {kLoadMethodEventName, kMethodInitEventName}) {
    ThresholdRule rule;
    rule.match = std::string(name);
    rule.relative = 0.10;
    rule.location = "<built-in>";
    t.rules.push_back(rule);
  }
  return t;
}

ResolvedRule ResolveRule(const Thresholds& thresholds, const Metric& metric) {
  ResolvedRule resolved;
  switch (metric.key.kind) {
    case MetricKind::kFrameworkTax:
      resolved = {thresholds.framework_tax, "framework_tax"};
      break;
    case MetricKind::kAllocation:
      resolved = {thresholds.allocations, "allocations"};
      break;
    default:
      resolved = metric.end_to_end ? ResolvedRule{thresholds.end_to_end, "end_to_end"}
                                   : ResolvedRule{thresholds.per_operator, "default"};
  }
  for (std::size_t i = 0; i < thresholds.rules.size(); ++i) {
    const ThresholdRule& rule = thresholds.rules[i];
    if (rule.kind && *rule.kind != metric.key.kind) continue;
    if (!Glob(rule.match, metric.key.name) || !Glob(rule.model, metric.key.model) ||
        !Glob(rule.block, metric.key.block)) {
      continue;
    }
    GateRule& r = resolved.rule;
    if (rule.relative) r.relative = *rule.relative;
    if (rule.min_delta) r.min_delta = *rule.min_delta;
    if (rule.max_increase_pp) r.max_increase_pp = *rule.max_increase_pp;
    if (rule.statistics) r.statistics = *rule.statistics;
    if (rule.direction) r.direction = *rule.direction;
    if (rule.gate) r.gate = *rule.gate;
    resolved.name = "rules[" + std::to_string(i) + "] (match: " + rule.match + ")";
    if (!rule.location.empty()) resolved.name += " at " + rule.location;
    break;
  }
  return resolved;
}

}  // namespace etbench
