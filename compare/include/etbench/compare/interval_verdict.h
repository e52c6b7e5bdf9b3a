#pragma once
// The verdict of a row whose p-value and intervals come from one model
// (fixed baselines: cluster_units.h; interleaved runs: sequential.h). The
// verdict reads only the intervals, so it cannot contradict them.

#include <utility>

#include "etbench/compare/row_note.h"
#include "etbench/compare/thresholds.h"
#include "etbench/compare/verdict.h"

namespace etbench {

struct IntervalVerdictInputs {
  /// p (BH-adjusted for the family) at or below its level: then the
  /// significance interval excludes 0.
  bool significant = false;
  /// The 1 − a interval at the significance level and the 1 − (1 −
  /// confidence) equivalence interval, on the change's scale.
  std::pair<double, double> significance_interval;
  std::pair<double, double> equivalence_interval;
  double change = 0;
  double threshold = 0;
  /// The minimum absolute delta on the same scale (0 when none).
  double floor = 0;
  Direction direction = Direction::kIncrease;
};

struct IntervalVerdict {
  Verdict verdict = Verdict::kInconclusive;
  /// What the intervals showed (the row's IntervalNote; reports word it).
  IntervalOutcome outcome = IntervalOutcome::kNotRuledOut;
  /// Regressed, improved, or a threshold-sized bad change is ruled out
  /// (or the change is significant but its interval stays below the
  /// threshold).
  bool decided = false;
  /// The row shows the significance interval (else the equivalence one).
  bool uses_significance = false;
};

/// Significant: the significance interval reaches the threshold on the
/// change's side and |change| ≥ max(floor, threshold / 2) → regression (bad
/// side) or improvement; it stays short of the threshold → unchanged;
/// else inconclusive. Not significant: the equivalence interval rules out a
/// bad change of threshold size (or, for increase-only rules, lies below
/// the floor) → unchanged; else inconclusive.
IntervalVerdict DecideOnIntervals(const IntervalVerdictInputs& in);

}  // namespace etbench
