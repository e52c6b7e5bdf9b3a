#pragma once
// Formatting shared by the report renderers: units chosen for display,
// changes and intervals, verdict names and symbols, name truncation, and
// the row orderings every report uses. Presentation only: no statistics.

#include <cstddef>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "etbench/base/units.h"
#include "etbench/compare/attribution.h"
#include "etbench/compare/comparison.h"
#include "etbench/compare/metrics.h"
#include "etbench/results/results.h"
#include "etbench/inspector/event_role.h"

namespace etbench::reports::internal {

/// printf into a std::string.
std::string Printf(const char* format, ...) __attribute__((format(printf, 1, 2)));

// The unit rule lives in base (units.h); these names keep the renderers'
// `internal::` spelling.
using ::etbench::DisplayUnit;
using ::etbench::FormatDigits;
using ::etbench::FormatQuantity;
using ::etbench::ColumnDisplayUnit;
using ::etbench::ValueDisplayUnit;

/// The unit showing a row's baseline and candidate values alike.
DisplayUnit RowUnit(const MetricComparison& row);

/// One column unit per metric unit over (unit, value) pairs.
std::map<std::string, DisplayUnit> ColumnUnits(
    const std::vector<std::pair<std::string, double>>& unit_values);

/// `value` in the column unit of its metric unit (or its own when absent).
std::string FormatInColumn(double value, const std::string& unit,
                           const std::map<std::string, DisplayUnit>& units);

/// The units of an attribution's total change and of its first `shown`
/// contributors: one unit for all, so that the parts read as a sum of the
/// total ("+16.62 us" over "+9.952 us", not "+9952 ns").
std::map<std::string, DisplayUnit> AttributionUnits(const Attribution& attribution,
                                                    std::size_t shown);
/// "+3.898 us" / "-1.030 us": a signed change in those units.
std::string SignedInColumn(double delta, const std::string& unit,
                           const std::map<std::string, DisplayUnit>& units);

/// A change on the row's scale: "+12.5%", "+0.11 pp", "+0.132 ms"; "n/a"
/// for NaN.
std::string FormatChange(const MetricComparison& row, double value);
/// "[+8.1%, +16.0%]"; "n/a" when not computed; in words when an end is not
/// finite (too few units for the level: "unbounded: 3 blocks too few").
std::string FormatInterval(const MetricComparison& row);

/// The change the row's displayed baseline and candidate values imply on
/// its scale (candidate / baseline − 1, or candidate − baseline); NaN when
/// either is missing or the baseline is 0 on the relative scale.
double ImpliedChange(const MetricComparison& row);
/// True when the implied change lies outside the row's finite interval:
/// the two columns and the change column then read as a contradiction
/// unless the report says what each is (ChangeMark, EstimateLegend).
bool ValuesDisagreeWithChange(const MetricComparison& row);
/// FormatChange of the row's change, with "†" when ValuesDisagreeWithChange.
std::string FormatRowChange(const MetricComparison& row);
/// What the columns of a comparison table are, for a line under it:
/// "baseline, candidate: each side's statistic over all its samples;
/// change and CI: <the estimator of `rows`' test>". Adds the meaning of "†"
/// when a row carries one. "" for no rows.
std::string EstimateLegend(const std::vector<const MetricComparison*>& rows);
/// What the intervals of a comparison are, for its header: "95% intervals
/// (Hodges–Lehmann shift, rank-test bounds; a detected change at the level
/// that decided it)".
std::string IntervalsPhrase(const Comparison& comparison);
/// The level of the rows' intervals: "95% intervals", or where the rows not
/// detected as a change show their equivalence interval at twice the level
/// (the nightly gate: its upper end is the one-sided bound "unchanged"
/// reads) "90% intervals (one-sided 95% bounds)".
std::string IntervalLevelPhrase(const Comparison& comparison);
/// The header line of every report: "112 comparisons (12 gated) · FDR
/// q=0.02 over 51 per-operator metrics · alpha=0.01 end to end · " and the
/// intervals (IntervalsPhrase, or IntervalLevelPhrase when `short_intervals`).
/// The verdict counts beside it count the gated rows.
std::string SettingsPhrase(const Comparison& comparison, bool short_intervals);
/// The row's practical threshold ("5.0%", "1.00 pp").
std::string FormatThreshold(const MetricComparison& row);
/// Smaller p-values print as "<2.2e-16" (double's epsilon, as R's format.pval).
inline constexpr double kPFloor = std::numeric_limits<double>::epsilon();
/// "2.1e-05", "0.032", "<2.2e-16"; "n/a" for NaN.
std::string FormatP(double p);

/// Why an inconclusive row could not be judged: its reason, then the MDE
/// against the threshold ("; MDE 12% > <threshold_word>5.0%"), the samples
/// per side that would do, and — when the runs of a side vary together —
/// that repetitions, not iterations, are what helps.
std::string InconclusiveExplanation(const MetricComparison& row, const std::string& threshold_word);
/// A row's p as its reports print it: the p that its interval pairs with
/// (`p_value`: the interval excludes 0 exactly when it is within the
/// interval's level, CheckRowConsistency), then the family's adjusted p
/// where the row has one — "0.029 (adj 1.000)". Printing the adjusted p
/// alone beside an interval that excludes 0 read as a contradiction.
std::string FormatPCell(const MetricComparison& row);
/// A fraction as a percentage: 0.977 → "97.7%".
std::string FormatShare(double fraction);

/// "PASS", "REGRESSION", "INCONCLUSIVE".
const char* OutcomeWord(GateOutcome outcome);
/// "1 regression" / "2 regressions".
std::string Plural(std::size_t n, const char* word, const char* plural);
/// "2 regressions, 1 improvement, 0 inconclusive, 40 unchanged".
std::string CountsPhrase(const ComparisonCounts& counts);

/// The gated rows a night gate found unchanged at the nights' resolution
/// (their MDE above the configured threshold, NightOutcome::
/// kRuledOutAtResolution), as "toy_cnn/Execute/Method::execute#0 (MDE 4.3% >
/// threshold 2.0%)", comma-separated; empty when there are none.
std::string AtResolutionPhrase(const Comparison& comparison);

/// Terminal symbols: ✗ regression, ✓ improvement, ? inconclusive, · unchanged.
const char* VerdictSymbol(Verdict verdict);
/// Display order: regression, inconclusive, improvement, unchanged.
int VerdictRank(Verdict verdict);

/// The row's label without its "model/" prefix.
std::string LabelWithinModel(const MetricComparison& row);
std::string KeyLabelWithinModel(const MetricKey& key);

/// The one rule for "slowest operators" (run summary, markdown report): the
/// kernel and delegate calls of `block` (EventRole; not events inside a
/// delegate) that have samples, by p50, slowest first (file order among
/// equals), at most `count`.
std::vector<const results::EventResult*> SlowestOperators(const results::BlockResult& block,
                                                          std::size_t count);

/// `text` broken at spaces into lines of at most `width` columns (a longer
/// word stays whole), each starting with `indent` and ending in "\n".
std::string WrapText(const std::string& text, std::size_t width, const std::string& indent);

/// Shortens to `width` columns keeping the start and the end
/// ("native_call_max_po…indices.out#2").
std::string TruncateMiddle(const std::string& text, std::size_t width);

/// Models in the order their rows appear (rows are ordered by key).
std::vector<std::string> ModelsOf(const Comparison& comparison);
/// `rows` without the ungated inconclusive ones: summaries list what can
/// fail the gate or changed; the full tables keep everything.
std::vector<const MetricComparison*> WithoutUngatedInconclusive(
    std::vector<const MetricComparison*> rows);

/// Rows of `model` ("" = all) with a verdict in `verdicts`, ordered by
/// VerdictRank, then the largest |change| first (stable otherwise).
std::vector<const MetricComparison*> RowsForDisplay(const Comparison& comparison,
                                                    const std::string& model,
                                                    const std::vector<Verdict>& verdicts);
/// Framework tax rows of `model` ("" = all) with statistic p50, else the
/// first statistic of each framework tax metric.
std::vector<const MetricComparison*> FrameworkTaxRows(const Comparison& comparison,
                                                      const std::string& model);

/// Metrics of a set by key (empty for a null set).
class MetricIndex {
 public:
  explicit MetricIndex(const MetricSet* set);
  /// Null when the set lacks `key`.
  const Metric* Find(const MetricKey& key) const;

 private:
  std::map<MetricKey, const Metric*> by_key_;
};

/// The shortest decimal that reads back as `value`; "" for NaN.
std::string Shortest(double value);

/// "['aten.convolution.default', 'x']" (pandas' cell for a list).
std::string PythonListRepr(const std::vector<std::string>& items);

}  // namespace etbench::reports::internal
