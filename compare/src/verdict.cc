// The verdict rules (see verdict.h and docs/comparison.md).

#include "etbench/compare/verdict.h"

#include <algorithm>
#include <cmath>

namespace etbench {

const char* VerdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kRegression: return "regression";
    case Verdict::kImprovement: return "improvement";
    case Verdict::kUnchanged: return "unchanged";
    case Verdict::kInconclusive: return "inconclusive";
  }
  return "?";
}

VerdictDecision DecideVerdict(const VerdictInputs& in) {
  if (in.n_baseline < in.min_samples || in.n_candidate < in.min_samples) {
    return {Verdict::kInconclusive, "too few samples (" + std::to_string(in.n_baseline) +
                                        " vs " + std::to_string(in.n_candidate) + "; need " +
                                        std::to_string(in.min_samples) + " per side)"};
  }
  const bool up_is_bad = in.direction != Direction::kDecrease;
  const bool down_is_bad = in.direction != Direction::kIncrease;
  const bool significant = in.p <= in.level;
  const bool excludes_zero = in.ci_low > 0 || in.ci_high < 0;

  // 2. Statistical and practical significance together.
  if (significant && excludes_zero) {
    const bool up = in.ci_low > 0;
    const bool reaches = up ? in.ci_high >= in.threshold : in.ci_low <= -in.threshold;
    // The estimate must also be nearer the threshold than no change (and
    // reach the minimum absolute delta).
    if (reaches && std::fabs(in.change) >= std::max(in.floor, in.threshold / 2)) {
      const bool bad = up ? up_is_bad : down_is_bad;
      if (bad) return {Verdict::kRegression, "significant change beyond the threshold"};
      return {Verdict::kImprovement, "significant change beyond the threshold"};
    }
  }
  // 3. Large enough to matter, but not established.
  const bool bad_point = (up_is_bad && in.change >= in.threshold && in.change > 0) ||
                         (down_is_bad && in.change <= -in.threshold && in.change < 0);
  if (bad_point) {
    return {Verdict::kInconclusive, "change exceeds the threshold but the evidence is too weak"};
  }
  // 4. Could a threshold-sized regression hide in this noise?
  const bool not_ruled_out =
      (up_is_bad && in.ci_high >= in.threshold) || (down_is_bad && in.ci_low <= -in.threshold);
  if (in.mde > in.threshold && not_ruled_out) {
    return {Verdict::kInconclusive,
            "too noisy: a threshold-sized change could go undetected"};
  }
  if (significant && excludes_zero) return {Verdict::kUnchanged, "significant but below the threshold"};
  return {Verdict::kUnchanged, "no change beyond the threshold"};
}

}  // namespace etbench
