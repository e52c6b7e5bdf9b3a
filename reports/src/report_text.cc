// Shared presentation helpers of the report renderers.

#include "report_text.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <variant>

#include "etbench/base/utf8.h"
#include "etbench/compare/design_effect.h"
#include "etbench/inspector/event_role.h"
#include "etbench/inspector/format_units.h"
#include "etbench/reports/row_reason.h"

namespace etbench::reports::internal {

std::string Printf(const char* format, ...) {
  char buffer[512];
  va_list args;
  va_start(args, format);
  const int n = std::vsnprintf(buffer, sizeof buffer, format, args);
  va_end(args);
  if (n < 0) return "";
  return std::string(buffer, std::min<std::size_t>(static_cast<std::size_t>(n), sizeof buffer - 1));
}

DisplayUnit RowUnit(const MetricComparison& row) {
  const double b = std::isfinite(row.baseline_value) ? std::fabs(row.baseline_value) : 0;
  const double c = std::isfinite(row.candidate_value) ? std::fabs(row.candidate_value) : 0;
  return ValueDisplayUnit(row.unit, std::max(b, c));
}

std::map<std::string, DisplayUnit> ColumnUnits(
    const std::vector<std::pair<std::string, double>>& unit_values) {
  std::map<std::string, double> largest;
  for (const auto& [unit, value] : unit_values) {
    double& m = largest[unit];
    if (std::isfinite(value)) m = std::max(m, std::fabs(value));
  }
  std::map<std::string, DisplayUnit> units;
  for (const auto& [unit, magnitude] : largest) units[unit] = ColumnDisplayUnit(unit, magnitude);
  return units;
}

std::string FormatInColumn(double value, const std::string& unit,
                           const std::map<std::string, DisplayUnit>& units) {
  auto it = units.find(unit);
  return it == units.end() ? FormatQuantity(value, unit) : FormatQuantity(value, it->second);
}

std::map<std::string, DisplayUnit> AttributionUnits(const Attribution& a, std::size_t shown) {
  std::vector<std::pair<std::string, double>> deltas{{a.unit, a.delta}};
  for (std::size_t i = 0; i < std::min(shown, a.items.size()); ++i) {
    deltas.emplace_back(a.unit, a.items[i].delta);
  }
  return ColumnUnits(deltas);
}

std::string SignedInColumn(double delta, const std::string& unit,
                           const std::map<std::string, DisplayUnit>& units) {
  return (delta < 0 ? "-" : "+") + FormatInColumn(std::fabs(delta), unit, units);
}

std::string FormatChange(const MetricComparison& row, double value) {
  if (std::isnan(value)) return "n/a";
  if (std::isinf(value)) return value > 0 ? "+inf" : "-inf";
  if (row.scale == ChangeScale::kRelative) return Printf("%+.1f%%", value * 100);
  if (row.unit == "percent") {
    // Percentage points: two decimals, or two significant digits below
    // 0.1 pp — a framework tax moves by thousandths of a point, where
    // "+0.00 pp" said nothing.
    return std::fabs(value) >= 0.1 || value == 0 ? Printf("%+.2f pp", value)
                                                 : Printf("%+.2g pp", value);
  }
  const std::string magnitude = FormatQuantity(std::fabs(value), row.unit);
  return (value < 0 ? "-" : "+") + magnitude;
}

namespace {

// What the inference's units are, for sentences ("blocks", "repetitions").
const char* UnitsOfTest(const std::string& test) {
  if (test == "paired_signed_rank") return "blocks";
  if (test == "rank_repetition" || test == "clustered_t") return "repetitions";
  if (test == "night_t") return "nights";
  return "samples";
}

std::size_t UnitCount(const MetricComparison& row) {
  if (row.test == "paired_signed_rank" && row.blocks) return *row.blocks;
  if (row.test == "night_t") return row.n_baseline;  // the earlier nights
  return std::min(row.n_baseline, row.n_candidate);
}

// An end of the interval that is no bound: infinite, or −100% and below on
// the relative scale (exp(−∞) − 1).
bool Unbounded(const MetricComparison& row) {
  if (!std::isfinite(row.ci_low) || !std::isfinite(row.ci_high)) return true;
  return row.scale == ChangeScale::kRelative && row.ci_low <= -1;
}

// The estimator behind the change column, by the row's test.
std::string EstimatorPhrase(const std::string& test) {
  if (test == "paired_signed_rank") {
    return "the median of the per-block changes (A and B run back to back in each block; "
           "Hodges\u2013Lehmann, signed-rank interval)";
  }
  if (test == "rank_repetition") {
    return "the Hodges\u2013Lehmann shift between the repetitions' values (one per fresh "
           "method or process), interval from the rank test";
  }
  if (test == "clustered_t") return "the change of the mean log time, interval from the clustered t-test";
  if (test == "night_t") {
    return "tonight against the earlier nights' median after removing tonight's machine level, "
           "interval: a prediction interval for one new night (Student's t, the nights' robust "
           "spread moderated across metrics of the same kind)";
  }
  return "the Hodges\u2013Lehmann shift between the samples, interval from the rank test";
}

// The same, short, for a report's header.
const char* ShortEstimator(const std::string& test) {
  if (test == "paired_signed_rank") return "median of the per-block changes, signed-rank bounds";
  if (test == "clustered_t") return "mean log change, clustered t bounds";
  if (test == "night_t") return "tonight against earlier nights, prediction-interval bounds";
  return "Hodges\u2013Lehmann shift, rank-test bounds";
}

std::vector<std::string> TestsOf(const std::vector<const MetricComparison*>& rows) {
  std::vector<std::string> tests;
  for (const MetricComparison* r : rows) {
    if (std::find(tests.begin(), tests.end(), r->test) == tests.end()) tests.push_back(r->test);
  }
  return tests;
}

// The intervals' level ("95% intervals") and, where the rows not detected
// as a change show their equivalence interval at twice the level (the
// nightly gate: its upper end is the one-sided bound "unchanged" reads),
// what that level means ("one-sided 95% bounds"); "" otherwise.
std::pair<std::string, std::string> IntervalLevel(const Comparison& c) {
  const double a_eq = 1 - c.settings.confidence;
  // A detected change's interval is at the level that decided it.
  const bool doubled = std::any_of(c.rows.begin(), c.rows.end(), [&](const MetricComparison& r) {
    const bool detected = r.verdict == Verdict::kRegression || r.verdict == Verdict::kImprovement;
    return !detected && r.ci_alpha && std::fabs(*r.ci_alpha - 2 * a_eq) < 1e-9;
  });
  if (!doubled) return {Printf("%.0f%% intervals", c.settings.confidence * 100), ""};
  return {Printf("%.0f%% intervals", (1 - 2 * a_eq) * 100),
          Printf("one-sided %.0f%% bounds", c.settings.confidence * 100)};
}

}  // namespace

std::string IntervalsPhrase(const Comparison& c) {
  std::vector<const MetricComparison*> rows;
  for (const MetricComparison& r : c.rows) rows.push_back(&r);
  const auto [level, meaning] = IntervalLevel(c);
  std::vector<std::string> phrases;
  if (!meaning.empty()) phrases.push_back(meaning);
  const std::size_t first_estimator = phrases.size();
  for (const std::string& t : TestsOf(rows)) {
    const std::string p = ShortEstimator(t);
    if (std::find(phrases.begin(), phrases.end(), p) == phrases.end()) phrases.push_back(p);
  }
  if (phrases.empty()) return level;
  std::string text = level + " (";
  for (std::size_t i = 0; i < phrases.size(); ++i) text += (i > 0 ? "; " : "") + phrases[i];
  if (phrases.size() > first_estimator) text += "; a detected change at the level that decided it";
  return text + ")";
}

std::string IntervalLevelPhrase(const Comparison& c) {
  const auto [level, meaning] = IntervalLevel(c);
  return meaning.empty() ? level : level + " (" + meaning + ")";
}

std::string SettingsPhrase(const Comparison& c, bool short_intervals) {
  std::size_t gated = 0;
  for (const MetricComparison& r : c.rows) gated += r.gated ? 1 : 0;
  return std::to_string(c.rows.size()) + " comparisons (" + std::to_string(gated) +
         " gated) \u00b7 FDR q=" + Printf("%g", c.settings.fdr) + " over " +
         std::to_string(c.settings.family_size) + " per-operator metrics \u00b7 alpha=" +
         Printf("%g", c.settings.alpha) + " end to end \u00b7 " +
         (short_intervals ? IntervalLevelPhrase(c) : IntervalsPhrase(c));
}

std::string FormatInterval(const MetricComparison& row) {
  if (std::isnan(row.ci_low) || std::isnan(row.ci_high)) return "n/a";
  if (Unbounded(row)) {
    const std::size_t n = UnitCount(row);
    return "unbounded: " + (n > 0 ? std::to_string(n) + " " : std::string()) +
           UnitsOfTest(row.test) + " too few";
  }
  return "[" + FormatChange(row, row.ci_low) + ", " + FormatChange(row, row.ci_high) + "]";
}

double ImpliedChange(const MetricComparison& row) {
  const double b = row.baseline_value, c = row.candidate_value;
  if (!std::isfinite(b) || !std::isfinite(c)) return NAN;
  if (row.scale == ChangeScale::kAbsolute) return c - b;
  return b == 0 ? NAN : c / b - 1;
}

bool ValuesDisagreeWithChange(const MetricComparison& row) {
  const double implied = ImpliedChange(row);
  if (std::isnan(implied) || std::isnan(row.ci_low) || std::isnan(row.ci_high) || Unbounded(row)) {
    return false;
  }
  // Rounding of the shown digits is no disagreement.
  const double slack = 1e-9 + 1e-6 * std::fabs(implied);
  return implied < row.ci_low - slack || implied > row.ci_high + slack;
}

std::string FormatRowChange(const MetricComparison& row) {
  return FormatChange(row, row.change) + (ValuesDisagreeWithChange(row) ? " \u2020" : "");
}

std::string EstimateLegend(const std::vector<const MetricComparison*>& rows) {
  if (rows.empty()) return "";
  const std::vector<std::string> tests = TestsOf(rows);
  bool marked = false;
  for (const MetricComparison* r : rows) marked = marked || ValuesDisagreeWithChange(*r);
  // Rows judged night against nights show per-night values, not pooled ones.
  const bool nights = tests.size() == 1 && tests.front() == "night_t";
  std::string text = nights ? "baseline: the earlier nights' median, candidate: tonight (a night's "
                              "value over its sessions: the lower decile for times, else the median); "
                              "change and interval: "
                            : "baseline, candidate: each side's statistic (stat) over all its "
                              "samples; change and interval: ";
  for (std::size_t i = 0; i < tests.size(); ++i) {
    if (i > 0) text += i + 1 == tests.size() ? " or " : ", ";
    text += EstimatorPhrase(tests[i]);
  }
  text += ".";
  if (marked) {
    text += " \u2020 the change the two columns imply lies outside the interval: the sides "
            "differ in how their samples spread, or the machine's level moved (between blocks, or "
            "tonight against earlier nights: removed from the change); the estimate, not the "
            "columns, is what the verdict reads.";
  }
  return text;
}

std::string FormatThreshold(const MetricComparison& row) {
  if (std::isnan(row.threshold)) return "n/a";
  if (row.scale == ChangeScale::kRelative) return Printf("%.1f%%", row.threshold * 100);
  if (row.unit == "percent") return Printf("%.2f pp", row.threshold);
  return FormatQuantity(row.threshold, row.unit);
}

std::string InconclusiveExplanation(const MetricComparison& r, const std::string& threshold_word) {
  std::string why = RowReason(r);
  // A row judged against nights names its MDE and threshold in its reason.
  if (r.test != "night_t" && std::isfinite(r.mde) && r.mde > r.threshold) {
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
  // Below double's epsilon a p says only "smaller than this" (a night
  // that moved by 40 standard errors computes to 0): R's format.pval.
  if (p < kPFloor) return "<2.2e-16";
  return p < 1e-3 ? Printf("%.1e", p) : Printf("%.3f", p);
}

std::string FormatPCell(const MetricComparison& row) {
  std::string text = FormatP(row.p_value);
  if (row.p_adjusted) text += " (adj " + FormatP(*row.p_adjusted) + ")";
  return text;
}

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

std::string AtResolutionPhrase(const Comparison& c) {
  std::string text;
  for (const MetricComparison& row : c.rows) {
    if (!row.gated || row.verdict != Verdict::kUnchanged || row.notes.empty()) continue;
    const auto* note = std::get_if<NightNote>(&row.notes.front());
    if (note == nullptr || note->outcome != NightOutcome::kRuledOutAtResolution) continue;
    if (!text.empty()) text += ", ";
    text += row.label + " (MDE " + FormatChange(row, row.mde).substr(1) + " > threshold " +
            (note->configured_threshold ? Printf("%.1f%%", *note->configured_threshold * 100)
                                        : std::string("?")) +
            ")";
  }
  return text;
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

std::vector<const results::EventResult*> SlowestOperators(const results::BlockResult& block,
                                                          std::size_t count) {
  std::vector<const results::EventResult*> ops;
  for (const results::EventResult& e : block.events) {
    const bool op = IsKernelOrDelegateCall(e.Role());
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

std::string WrapText(const std::string& text, std::size_t width, const std::string& indent) {
  std::string out, line;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    start = end + 1;
    if (word.empty()) continue;
    if (!line.empty() && Utf8Length(indent + line + " " + word) > width) {
      out += indent + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out += indent + line + "\n";
  return out;
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
