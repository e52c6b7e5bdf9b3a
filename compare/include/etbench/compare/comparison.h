#pragma once
// The comparison engine: baseline vs candidate metric sets → per-metric
// verdicts with change, interval, p-values and minimum detectable effect,
// plus the overall outcome, attribution, structure changes and warnings.
// A plain data structure; renderers (comparison_json.h, comparison_text.h,
// the reports library) never compute.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "etbench/base/result.h"
#include "etbench/compare/attribution.h"
#include "etbench/compare/comparison_warning.h"
#include "etbench/compare/metrics.h"
#include "etbench/compare/row_note.h"
#include "etbench/compare/structure_changes.h"
#include "etbench/compare/thresholds.h"
#include "etbench/compare/verdict.h"
#include "etbench/stats/bootstrap.h"
#include "etbench/stats/stats.h"

namespace etbench {

/// One metric and one statistic.
struct MetricComparison {
  MetricKey key;
  std::string label;  // MetricLabel(key)
  std::string unit;
  bool end_to_end = false;
  Statistic statistic = Statistic::kP50;
  std::size_t n_baseline = 0;
  std::size_t n_candidate = 0;
  double baseline_value = 0;   // the statistic, in `unit`
  double candidate_value = 0;
  double delta = 0;            // candidate − baseline, in `unit`
  /// kRelative: change, interval, threshold and MDE are fractions of the
  /// baseline value; kAbsolute: amounts in `unit` (percentage points for
  /// framework tax; also used when the baseline value is 0).
  ChangeScale scale = ChangeScale::kRelative;
  double change = 0;
  double ci_low = 0;
  double ci_high = 0;
  /// Two-sided p of `test` on the raw samples (shared by the metric's
  /// statistics); BH-adjusted p for per-operator metrics.
  double p_value = 1;
  /// The inference behind p and the interval: "rank_sample" or
  /// "rank_repetition" (Compare: the rank shift between the cluster units,
  /// cluster_units.h), "paired_signed_rank" (interleaved runs,
  /// sequential.h), "night_t" (the night gate, night_gate.h). A row that
  /// ran no test (too few samples) keeps the default "mann_whitney", the
  /// name schema 1 has always written there; "mann_whitney" and
  /// "clustered_t" also appear in comparisons stored by older versions.
  std::string test = "mann_whitney";
  std::optional<double> p_adjusted;
  double level = 0;        // what p (adjusted for per-operator) is compared with
  /// Per-operator metrics: the metric's weight in the weighted BH family
  /// (mean 1 over the family; 1 when weighting is off).
  std::optional<double> fdr_weight;
  /// Per-operator metric left out of the BH family because noise cannot
  /// fake a threshold-sized change (see docs/comparison.md); its raw p is
  /// compared with the FDR level.
  bool threshold_protected = false;
  double prob_superiority = 0.5;
  /// Run-to-run clustering (design_effect.h): the variance factor applied
  /// to the p-value, the interval and the MDE (1 = samples independent or
  /// repetitions unknown), the share of the variance between repetitions
  /// or sessions behind it, and the part of that between sessions.
  double design_effect = 1;
  double repetition_correlation = 0;
  double session_correlation = 0;
  /// Effective practical threshold on `scale` (max of relative and min delta).
  double threshold = 0;
  /// Minimum detectable effect on `scale` at the level and power used, and
  /// the iterations per side that would bring it down to the threshold
  /// (only when the MDE exceeds it and the samples are not clustered —
  /// design effect below 1.5 — since otherwise iterations barely help).
  double mde = 0;
  std::optional<int64_t> iterations_needed;
  Verdict verdict = Verdict::kUnchanged;
  /// Why the row has its verdict, as data (row_note.h); the reports library
  /// words it (etbench/reports/row_reason.h: the JSON's "reason").
  std::vector<RowNote> notes;
  /// Interleaved runs (sequential.h): [ci_low, ci_high] is the 1 − ci_alpha
  /// interval at the row's decision level, and excludes 0 exactly when
  /// p_value ≤ ci_alpha; whether the row is decided
  /// (regressed, improved, or a threshold-sized bad change is ruled out),
  /// and the blocks and seconds that decision took (or all of them).
  std::optional<double> ci_alpha;
  bool decided = false;
  std::optional<std::size_t> blocks;
  std::optional<double> seconds;
  std::string rule;  // ResolvedRule::name
  Direction direction = Direction::kIncrease;
  bool gated = true;
};

enum class GateOutcome { kPass, kRegression, kInconclusive };

/// "pass", "regression", "inconclusive".
const char* GateOutcomeName(GateOutcome outcome);

struct ComparisonCounts {
  std::size_t regressions = 0;
  std::size_t improvements = 0;
  std::size_t unchanged = 0;
  std::size_t inconclusive = 0;
};

/// The settings a comparison ran with (for reports and reproduction).
struct ComparisonSettings {
  double fdr = 0;
  bool noise_aware_fdr = true;
  double alpha = 0;
  double confidence = 0;
  int bootstrap_resamples = 0;
  int min_samples = 0;
  double power = 0;
  uint64_t seed = 0;
  /// Per-operator metrics in the Benjamini–Hochberg family, and those
  /// protected by their threshold instead.
  std::size_t family_size = 0;
  std::size_t threshold_protected = 0;
  std::string thresholds_source;
};

/// The settings of a comparison judged with `thresholds` (its FDR, alpha,
/// confidence, minimum samples, power and source; noise-aware FDR off); an
/// engine fills in the rest (family size, seed, …).
ComparisonSettings SettingsFrom(const Thresholds& thresholds);

/// Why a gate compared nothing tonight (`gate --baseline history` on a
/// history too short to judge): the comparison then has no rows, and its
/// outcome is the night's (pass, or regression when tonight's run confirmed
/// a change point that fails the night).
struct NotJudged {
  std::string reason;              // "history_too_short"
  std::size_t nights = 0;          // the nights before this run that count
  std::size_t nights_needed = 0;   // the nights the gate needs to judge
  std::string message;             // what the gate printed, one sentence
};

struct Comparison {
  /// Regression if any gated row regressed; else inconclusive if any gated
  /// row is inconclusive; else pass.
  GateOutcome outcome = GateOutcome::kPass;
  ComparisonCounts counts;  // over gated rows
  /// Ordered by key, then statistic.
  std::vector<MetricComparison> rows;
  std::vector<Attribution> attributions;
  std::vector<StructureChange> structure_changes;
  /// What the comparison noticed beside its rows, as data
  /// (comparison_warning.h); the reports library words it
  /// (etbench/reports/warning_text.h: the JSON's "warnings").
  std::vector<ComparisonWarning> warnings;
  ComparisonSettings settings;
  std::map<std::string, std::string> baseline_context;
  std::map<std::string, std::string> candidate_context;
  /// Advisory mode: the verdicts are advice and never fail the job
  /// (GateExitCode 0; JUnit records no failures); every report says so in
  /// its first line, with `advisory_reason`.
  bool advisory = false;
  std::string advisory_reason;
  /// Set: nothing was judged (no rows), and why.
  std::optional<NotJudged> not_judged;
};

struct CompareOptions {
  /// Mixed into every metric's bootstrap seed (which otherwise depends only
  /// on the metric key and statistic, so results do not depend on order).
  uint64_t seed = 0;
};

/// Compares every metric present on both sides. Errors: the guards of
/// compare_guards.h, duplicate keys within one set.
Result<Comparison> Compare(const MetricSet& baseline, const MetricSet& candidate,
                           const Thresholds& thresholds, const CompareOptions& options = {});

/// Recounts `counts` over the gated rows and sets `outcome` from them.
void CountVerdicts(Comparison* comparison);

/// 0 pass, 1 regression, 3 inconclusive when `fail_on_inconclusive` (else
/// 0); always 0 when the comparison is advisory.
int GateExitCode(const Comparison& comparison, bool fail_on_inconclusive);

}  // namespace etbench
