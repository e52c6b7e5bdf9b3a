#pragma once
// The per-metric decision: regression, improvement, unchanged or
// inconclusive, from the change, its interval, the (adjusted) p-value, the
// practical threshold and the minimum detectable effect. A pure function,
// so that the rules in docs/comparison.md are tested directly.

#include <cstddef>
#include <string>

#include "etbench/compare/thresholds.h"

namespace etbench {

enum class Verdict { kRegression, kImprovement, kUnchanged, kInconclusive };

/// "regression", "improvement", "unchanged", "inconclusive".
const char* VerdictName(Verdict verdict);

struct VerdictInputs {
  std::size_t n_baseline = 0;
  std::size_t n_candidate = 0;
  std::size_t min_samples = 5;
  /// Change, its confidence interval, the threshold and the MDE, all on the
  /// same scale (a relative fraction, or an absolute amount).
  double change = 0;
  double ci_low = 0;
  double ci_high = 0;
  /// The smallest change that matters: max(relative threshold, min delta
  /// expressed on the scale).
  double threshold = 0;
  /// The minimum absolute delta on the same scale (0 when none): unlike the
  /// relative threshold, the point estimate itself must reach it, so that
  /// tiny operators are ignored however wide their interval.
  double floor = 0;
  double mde = 0;
  /// Benjamini–Hochberg-adjusted p (per-operator) or raw p (end to end),
  /// and the level it is compared with (FDR q or alpha).
  double p = 1;
  double level = 0.01;
  Direction direction = Direction::kIncrease;
};

struct VerdictDecision {
  Verdict verdict = Verdict::kUnchanged;
  /// One short phrase: why.
  std::string reason;
};

/// Rules, in order (a "bad" change is one in the regression direction):
/// 1. fewer than min_samples on a side → inconclusive;
/// 2. p ≤ level, the interval excludes 0 and reaches the threshold on the
///    change's side, and |change| ≥ max(floor, threshold / 2) → regression
///    (bad side) or improvement (other side; never for direction both);
/// 3. the point estimate is a bad change of at least the threshold but the
///    evidence is too weak → inconclusive;
/// 4. the MDE exceeds the threshold and the interval does not rule out a
///    bad change of threshold size → inconclusive (too noisy);
/// 5. otherwise unchanged.
VerdictDecision DecideVerdict(const VerdictInputs& inputs);

}  // namespace etbench
