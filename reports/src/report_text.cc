// Shared presentation helpers of the report renderers.

#include "report_text.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>

#include "etbench/base/utf8.h"
#include "etbench/compare/design_effect.h"
#include "etbench/inspector/event_role.h"
#include "etbench/inspector/format_units.h"

namespace etbench::reports::internal {
namespace {

struct UnitStep {
  const char* name;
  double per_base;  // how many base units one of these is
};

constexpr UnitStep kTimeSteps[] = {{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
constexpr UnitStep kByteSteps[] = {{"B", 1}, {"KiB", 1024}, {"MiB", 1048576}, {"GiB", 1073741824}};


// Column rule: the smallest step below 10,000. Value rule: the largest
// step at which the value is at least 1 (zero keeps the metric's unit).
template <std::size_t N>
DisplayUnit Choose(const UnitStep (&steps)[N], double base_per_unit, double magnitude,
                   bool column) {
  const double base = std::fabs(magnitude) * base_per_unit;
  std::size_t pick = 0;
  if (column) {
    while (pick + 1 < N && base / steps[pick].per_base >= 1e4) ++pick;
  } else if (base == 0) {
    while (pick + 1 < N && steps[pick].per_base < base_per_unit) ++pick;
  } else {
    while (pick + 1 < N && base / steps[pick + 1].per_base >= 1) ++pick;
  }
  return DisplayUnit{steps[pick].name, base_per_unit / steps[pick].per_base};
}

DisplayUnit ChooseUnit(const std::string& unit, double magnitude, bool column) {
  if (!std::isfinite(magnitude)) magnitude = 0;
  if (IsTimeUnit(unit)) return Choose(kTimeSteps, NanosecondsPerUnit(unit), magnitude, column);
  if (unit == "bytes" || unit == "B") return Choose(kByteSteps, 1, magnitude, column);
  if (unit == "percent") return DisplayUnit{"%", 1};
  return DisplayUnit{unit, 1};
}

}  // namespace

std::string Printf(const char* format, ...) {
  char buffer[512];
  va_list args;
  va_start(args, format);
  const int n = std::vsnprintf(buffer, sizeof buffer, format, args);
  va_end(args);
  if (n < 0) return "";
  return std::string(buffer, std::min<std::size_t>(static_cast<std::size_t>(n), sizeof buffer - 1));
}

DisplayUnit ChooseDisplayUnit(const std::string& unit, double magnitude) {
  return ChooseUnit(unit, magnitude, false);
}

DisplayUnit ChooseColumnUnit(const std::string& unit, double magnitude) {
  return ChooseUnit(unit, magnitude, true);
}

DisplayUnit RowUnit(const MetricComparison& row) {
  const double b = std::isfinite(row.baseline_value) ? std::fabs(row.baseline_value) : 0;
  const double c = std::isfinite(row.candidate_value) ? std::fabs(row.candidate_value) : 0;
  return ChooseDisplayUnit(row.unit, std::max(b, c));
}

std::map<std::string, DisplayUnit> ColumnUnits(
    const std::vector<std::pair<std::string, double>>& unit_values) {
  std::map<std::string, double> largest;
  for (const auto& [unit, value] : unit_values) {
    double& m = largest[unit];
    if (std::isfinite(value)) m = std::max(m, std::fabs(value));
  }
  std::map<std::string, DisplayUnit> units;
  for (const auto& [unit, magnitude] : largest) units[unit] = ChooseColumnUnit(unit, magnitude);
  return units;
}

std::string FormatInColumn(double value, const std::string& unit,
                           const std::map<std::string, DisplayUnit>& units) {
  auto it = units.find(unit);
  return it == units.end() ? FormatQuantity(value, unit) : FormatQuantity(value, it->second);
}

std::string FormatScaled(double v) {
  if (std::isnan(v)) return "n/a";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  const double a = std::fabs(v);
  if (a >= 1000) return Printf("%.0f", v);
  if (a >= 100) return Printf("%.1f", v);
  if (a >= 10) return Printf("%.2f", v);
  return Printf("%.3f", v);
}

std::string FormatQuantity(double value, const DisplayUnit& display) {
  if (std::isnan(value)) return "n/a";
  const std::string number = FormatScaled(value * display.factor);
  return display.name.empty() ? number
                              : number + (display.name == "%" ? "" : " ") + display.name;
}

std::string FormatQuantity(double value, const std::string& unit) {
  return FormatQuantity(value, ChooseDisplayUnit(unit, value));
}

std::string FormatChange(const MetricComparison& row, double value) {
  if (std::isnan(value)) return "n/a";
  if (std::isinf(value)) return value > 0 ? "+inf" : "-inf";
  if (row.scale == ChangeScale::kRelative) return Printf("%+.1f%%", value * 100);
  if (row.unit == "percent") return Printf("%+.2f pp", value);
  const std::string magnitude = FormatQuantity(std::fabs(value), row.unit);
  return (value < 0 ? "-" : "+") + magnitude;
}

std::string FormatInterval(const MetricComparison& row) {
  if (std::isnan(row.ci_low) || std::isnan(row.ci_high)) return "n/a";
  return "[" + FormatChange(row, row.ci_low) + ", " + FormatChange(row, row.ci_high) + "]";
}

std::string FormatThreshold(const MetricComparison& row) {
  if (std::isnan(row.threshold)) return "n/a";
  if (row.scale == ChangeScale::kRelative) return Printf("%.1f%%", row.threshold * 100);
  if (row.unit == "percent") return Printf("%.2f pp", row.threshold);
  return FormatQuantity(row.threshold, row.unit);
}

std::string InconclusiveExplanation(const MetricComparison& r, const std::string& threshold_word) {
  std::string why = r.reason;
  if (std::isfinite(r.mde) && r.mde > r.threshold) {
    why += "; MDE " + FormatChange(r, r.mde).substr(1) + " > " + threshold_word +
           FormatThreshold(r);
    if (r.iterations_needed) {
      why += "; ~" + std::to_string(*r.iterations_needed) + " iterations per side needed";
    }
    if (r.design_effect >= kClusteredDesignEffect) {
      // Which level dominates decides the remedy.
      const bool drift = r.session_correlation * 2 > r.repetition_correlation;
      why += drift ? Printf("; the machine drifts between runs (design effect %.1f): compare "
                            "interleaved (etbench ab) or on a quieter runner",
                            r.design_effect)
                   : Printf("; runs vary together (design effect %.1f): add repetitions (ab: "
                            "blocks), not iterations",
                            r.design_effect);
    }
  }
  return why;
}

std::string FormatP(double p) {
  if (std::isnan(p)) return "n/a";
  return p < 1e-3 ? Printf("%.1e", p) : Printf("%.3f", p);
}

double DecisionP(const MetricComparison& row) { return row.p_adjusted.value_or(row.p_value); }

std::string FormatShare(double fraction) {
  if (!std::isfinite(fraction)) return "n/a";
  return Printf("%.1f%%", fraction * 100);
}

const char* OutcomeWord(GateOutcome outcome) {
  switch (outcome) {
    case GateOutcome::kPass: return "PASS";
    case GateOutcome::kRegression: return "REGRESSION";
    case GateOutcome::kInconclusive: return "INCONCLUSIVE";
  }
  return "?";
}

std::string Plural(std::size_t n, const char* word, const char* plural) {
  return std::to_string(n) + " " + (n == 1 ? word : plural);
}

std::string CountsPhrase(const ComparisonCounts& c) {
  return Plural(c.regressions, "regression", "regressions") + ", " +
         Plural(c.improvements, "improvement", "improvements") + ", " +
         std::to_string(c.inconclusive) + " inconclusive, " + std::to_string(c.unchanged) +
         " unchanged";
}

const char* VerdictSymbol(Verdict verdict) {
  switch (verdict) {
    case Verdict::kRegression: return "\u2717";   // ✗
    case Verdict::kImprovement: return "\u2713";  // ✓
    case Verdict::kInconclusive: return "?";
    case Verdict::kUnchanged: return "\u00b7";    // ·
  }
  return " ";
}

int VerdictRank(Verdict verdict) {
  switch (verdict) {
    case Verdict::kRegression: return 0;
    case Verdict::kInconclusive: return 1;
    case Verdict::kImprovement: return 2;
    case Verdict::kUnchanged: return 3;
  }
  return 4;
}

std::string KeyLabelWithinModel(const MetricKey& key) {
  const std::string label = MetricLabel(key);
  const std::string prefix = key.model + "/";
  return label.rfind(prefix, 0) == 0 ? label.substr(prefix.size()) : label;
}

EventRole RoleOf(const results::EventResult& event) {
  return EventRoleOf(event.name, event.is_delegated_op);
}

std::vector<const results::EventResult*> SlowestOperators(const results::BlockResult& block,
                                                          std::size_t count) {
  std::vector<const results::EventResult*> ops;
  for (const results::EventResult& e : block.events) {
    const bool op = IsKernelOrDelegateCall(RoleOf(e));
    if (op && !e.perf_data.raw.empty()) ops.push_back(&e);
  }
  std::stable_sort(ops.begin(), ops.end(), [](const auto* a, const auto* b) {
    return a->perf_data.p50 > b->perf_data.p50;
  });
  if (ops.size() > count) ops.resize(count);
  return ops;
}

std::string LabelWithinModel(const MetricComparison& row) {
  const std::string prefix = row.key.model + "/";
  return row.label.rfind(prefix, 0) == 0 ? row.label.substr(prefix.size()) : row.label;
}

std::string TruncateMiddle(const std::string& text, std::size_t width) {
  if (Utf8Length(text) <= width) return text;
  if (width == 0) return "";
  if (width == 1) return "\u2026";
  // Split on code point boundaries: keep more of the end (the op name and
  // instruction id) than of the start.
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) starts.push_back(i);
  }
  const std::size_t keep = width - 1;
  const std::size_t head = keep * 2 / 5;
  const std::size_t tail = keep - head;
  const std::size_t n = starts.size();
  return text.substr(0, starts[head]) + "\u2026" + text.substr(starts[n - tail]);
}

std::vector<std::string> ModelsOf(const Comparison& comparison) {
  std::vector<std::string> models;
  for (const MetricComparison& r : comparison.rows) {
    if (std::find(models.begin(), models.end(), r.key.model) == models.end()) {
      models.push_back(r.key.model);
    }
  }
  for (const StructureChange& s : comparison.structure_changes) {
    if (std::find(models.begin(), models.end(), s.model) == models.end()) models.push_back(s.model);
  }
  return models;
}

std::vector<const MetricComparison*> WithoutUngatedInconclusive(
    std::vector<const MetricComparison*> rows) {
  rows.erase(std::remove_if(rows.begin(), rows.end(),
                            [](const MetricComparison* r) {
                              return !r->gated && r->verdict == Verdict::kInconclusive;
                            }),
             rows.end());
  return rows;
}

std::vector<const MetricComparison*> RowsForDisplay(const Comparison& comparison,
                                                    const std::string& model,
                                                    const std::vector<Verdict>& verdicts) {
  std::vector<const MetricComparison*> rows;
  for (const MetricComparison& r : comparison.rows) {
    if (!model.empty() && r.key.model != model) continue;
    if (std::find(verdicts.begin(), verdicts.end(), r.verdict) == verdicts.end()) continue;
    rows.push_back(&r);
  }
  std::stable_sort(rows.begin(), rows.end(), [](const MetricComparison* a, const MetricComparison* b) {
    if (VerdictRank(a->verdict) != VerdictRank(b->verdict)) {
      return VerdictRank(a->verdict) < VerdictRank(b->verdict);
    }
    if (a->gated != b->gated) return a->gated;
    const double x = std::isfinite(a->change) ? std::fabs(a->change) : 0;
    const double y = std::isfinite(b->change) ? std::fabs(b->change) : 0;
    return x > y;
  });
  return rows;
}

std::vector<const MetricComparison*> FrameworkTaxRows(const Comparison& comparison,
                                                      const std::string& model) {
  std::vector<const MetricComparison*> rows;
  for (const MetricComparison& r : comparison.rows) {
    if (r.key.kind != MetricKind::kFrameworkTax) continue;
    if (!model.empty() && r.key.model != model) continue;
    if (!rows.empty() && rows.back()->key == r.key) {
      // Prefer the median when the metric has several statistics.
      if (r.statistic == Statistic::kP50) rows.back() = &r;
      continue;
    }
    rows.push_back(&r);
  }
  return rows;
}

MetricIndex::MetricIndex(const MetricSet* set) {
  if (set == nullptr) return;
  for (const Metric& m : set->metrics) by_key_.emplace(m.key, &m);
}

const Metric* MetricIndex::Find(const MetricKey& key) const {
  auto it = by_key_.find(key);
  return it == by_key_.end() ? nullptr : it->second;
}

std::string Shortest(double value) {
  if (std::isnan(value)) return "";
  return PythonFloatRepr(value);
}

std::string PythonListRepr(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ", ";
    out += "'";
    for (char c : items[i]) {
      if (c == '\'' || c == '\\') out += '\\';
      out += c;
    }
    out += "'";
  }
  return out + "]";
}

}  // namespace etbench::reports::internal
