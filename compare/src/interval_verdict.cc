// Verdicts from one model's intervals (see interval_verdict.h).

#include "etbench/compare/interval_verdict.h"

#include <algorithm>
#include <cmath>

namespace etbench {

IntervalVerdict DecideOnIntervals(const IntervalVerdictInputs& in) {
  IntervalVerdict out;
  const bool up_bad = in.direction != Direction::kDecrease;
  const bool down_bad = in.direction != Direction::kIncrease;
  const double threshold = in.threshold;
  if (in.significant) {
    out.uses_significance = true;
    const auto& ci = in.significance_interval;
    const bool up = ci.first > 0;
    const bool reaches = up ? ci.second >= threshold : ci.first <= -threshold;
    const bool big = std::fabs(in.change) >= std::max(in.floor, threshold / 2);
    if (reaches && big) {
      const bool bad = up ? up_bad : down_bad;
      out.verdict = bad ? Verdict::kRegression : Verdict::kImprovement;
      out.outcome = IntervalOutcome::kBeyondThreshold;
      out.decided = true;
    } else if (!reaches) {
      out.verdict = Verdict::kUnchanged;
      out.outcome = IntervalOutcome::kBelowThreshold;
      out.decided = true;
    } else {
      out.verdict = Verdict::kInconclusive;
      out.outcome = IntervalOutcome::kReachesThreshold;
    }
    return out;
  }
  const double low = in.equivalence_interval.first, high = in.equivalence_interval.second;
  const bool ruled_out = (!up_bad || high < threshold) && (!down_bad || low > -threshold);
  if (ruled_out || (std::isfinite(high) && up_bad && !down_bad && high < in.floor)) {
    out.verdict = Verdict::kUnchanged;
    out.outcome = IntervalOutcome::kRuledOut;
    out.decided = true;
  } else {
    out.verdict = Verdict::kInconclusive;
    out.outcome = IntervalOutcome::kNotRuledOut;
  }
  return out;
}

}  // namespace etbench
