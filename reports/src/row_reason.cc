// A comparison row's notes in words (see row_reason.h). Each note's text
// carries its own separator, so a reason is its notes' texts in order.

#include "etbench/reports/row_reason.h"

#include <cmath>
#include <string>
#include <type_traits>
#include <variant>

#include "history_text.h"
#include "report_text.h"

namespace etbench::reports {
namespace {

using internal::Printf;

// "6 blocks, 20 s": what an interleaved look had spent.
std::string BlocksAndSeconds(std::size_t blocks, double seconds) {
  return Printf("%zu block%s, %.0f s", blocks, blocks == 1 ? "" : "s", seconds);
}

using internal::SignedPercent;

// SignedPercent without its sign character ("5.2%"; "nan%" for NaN).
std::string UnsignedPercent(double fraction) { return SignedPercent(fraction).substr(1); }

std::string IntervalText(IntervalOutcome outcome) {
  switch (outcome) {
    case IntervalOutcome::kBeyondThreshold: return "significant change beyond the threshold";
    case IntervalOutcome::kBelowThreshold: return "significant but below the threshold";
    case IntervalOutcome::kReachesThreshold:
      return "significant; the interval still reaches the threshold";
    case IntervalOutcome::kRuledOut: return "a threshold-sized change is ruled out";
    case IntervalOutcome::kNotRuledOut: return "cannot rule out a threshold-sized change yet";
    case IntervalOutcome::kEstimateBelowThreshold:
      return "significant; the estimate is below the threshold and the interval still reaches it";
    case IntervalOutcome::kHalfThresholdNotRuledOut:
      return "significant; half the threshold is not ruled out yet";
  }
  return "";
}

std::string DriftText(const MachineDriftNote& n, const std::string& unit) {
  const auto amount = [&](double x) {
    if (n.log_scale) return Printf("%.1f%%", 100 * std::expm1(x));
    return Printf("%.4g %s", x, unit.c_str());
  };
  std::string text = "; machine drift: the baseline's " + std::to_string(n.baseline_sessions) +
                     " sessions differ by up to " + amount(n.session_range) +
                     " while repetitions within a session agree within " +
                     amount(n.within_sigma) +
                     ", so the candidate is compared with the nearest session (#" +
                     std::to_string(n.nearest_session + 1) + ")";
  if (n.candidate_outside) text += "; the candidate lies outside all of them";
  return text +
         "; to tell drift from a change, interleave base and candidate (etbench gate --base, "
         "etbench ab)";
}

std::string StateText(const SequentialStateNote& n) {
  const std::string spent = BlocksAndSeconds(n.blocks, n.seconds);
  switch (n.state) {
    case SequentialState::kDecided: {
      std::string earlier;
      if (n.first_blocks && n.first_seconds) {
        earlier = "; first decided after " + BlocksAndSeconds(*n.first_blocks, *n.first_seconds);
      }
      return " (decided after " + spent + earlier + ")";
    }
    case SequentialState::kOneSampleUndecided:
      return " (one sample per run, undecided after " + spent +
             ": reported, not gated, so it holds no decision)";
    case SequentialState::kModelStopped:
      return " (its model stopped after " + spent + ": every gated metric of it was decided)";
    case SequentialState::kBlockLimit: return ": block limit reached (" + spent + ")";
    case SequentialState::kBudgetSpent: return ": budget spent (" + spent + ")";
    case SequentialState::kRunning: return " (" + spent + " so far)";
  }
  return "";
}

// A night row's change on the regression side (positive: slower), in the
// row's scale (a fraction on the relative scale), as the threshold is.
double TowardsRegression(const NightNote& n, const MetricComparison& row) {
  const double change = n.log_scale ? std::expm1(n.difference) : n.difference;
  if (row.direction == Direction::kBoth) return std::fabs(change);
  return row.direction == Direction::kDecrease ? -change : change;
}

// "p 0.0021 > level 0.0018": the two shown with as many digits as tell
// them apart (FormatP would print both as 0.002).
std::string PAboveLevel(double p, double level) {
  std::string a, b;
  for (int digits = 2; digits <= 6; ++digits) {
    a = Printf("%.*g", digits, p);
    b = Printf("%.*g", digits, level);
    if (a != b) break;
  }
  return "p " + a + " > level " + b;
}

// Why a row tonight is neither a regression nor ruled out, in words that
// agree with the change, interval and p printed beside it: "significant,
// below the threshold" only when the estimate is below it.
std::string NotDetectedText(const NightNote& n, const MetricComparison& row,
                            const std::string& against) {
  const double towards = TowardsRegression(n, row);
  const bool beyond = row.threshold > 0 && towards >= row.threshold;
  std::string qualifier;
  if (n.significant) {
    qualifier = beyond ? " (significant; its interval reaches below the threshold)"
                       : " (significant, below the threshold)";
  } else if (towards > 0 && !row.p_adjusted && row.level > 0 && std::isfinite(row.p_value) &&
             row.p_value > row.level) {
    // An end-to-end row (Holm; no adjusted p) whose small p would read as
    // a detection: it is not one at the level its family allows.
    qualifier = " (not significant at its level: " + PAboveLevel(row.p_value, row.level) + ")";
  }
  std::string mde = "cannot rule out the threshold";
  if (n.mde) {
    mde = "MDE " + UnsignedPercent(*n.mde);
    if (row.threshold > 0 && *n.mde > row.threshold) {
      mde += " > threshold " + UnsignedPercent(row.threshold);
    }
    if (n.mde_nights) {
      // Why a row whose interval rules out its (widened) MDE is no pass.
      mde += " (widened tonight; the nights' own MDE " + UnsignedPercent(*n.mde_nights) +
             " is not ruled out)";
    }
  }
  return "no regression detected" + qualifier + against + "; " + mde;
}

std::string NightText(const NightNote& n, const MetricComparison& row) {
  const std::string& unit = row.unit;
  const std::string amount =
      n.log_scale ? SignedPercent(std::expm1(n.difference))
                  : Printf("%+.3g %s", n.difference, unit == "percent" ? "pp" : unit.c_str());
  const std::string against = " against " + std::to_string(n.nights) + " nights (" + amount + ")";
  switch (n.outcome) {
    case NightOutcome::kAlert:
      if (n.sustained_nights >= 2) {
        return "sustained step: tonight and the " + std::to_string(n.sustained_nights - 1) +
               " nights before it each beyond the threshold against " + std::to_string(n.nights) +
               " nights before them (the least slow " + amount + ")";
      }
      return std::string("first-night alert: tonight ") +
             (n.whole_interval ? "beyond the threshold with its whole interval"
                               : "beyond the threshold") +
             against;
    case NightOutcome::kBetter: return "tonight better beyond the threshold" + against;
    case NightOutcome::kBelowThreshold: return "significant but below the threshold" + against;
    case NightOutcome::kRuledOut: return "a threshold-sized change is ruled out" + against;
    case NightOutcome::kRuledOutAtResolution:
      return "a change the size of the MDE" + (n.mde ? " (" + UnsignedPercent(*n.mde) + ")" : "") +
             " is ruled out" + against + "; these nights resolve no finer" +
             (n.configured_threshold ? " than its threshold " + UnsignedPercent(*n.configured_threshold)
                                     : "");
    case NightOutcome::kNotDetected: return NotDetectedText(n, row, against);
  }
  return "";
}

}  // namespace

std::string RowReason(const MetricComparison& row) {
  std::string out;
  for (const RowNote& note : row.notes) {
    out += std::visit(
        [&](const auto& n) -> std::string {
          using T = std::decay_t<decltype(n)>;
          if constexpr (std::is_same_v<T, TooFewSamplesNote>) {
            return "too few samples (" + std::to_string(n.baseline) + " vs " +
                   std::to_string(n.candidate) + "; need " + std::to_string(n.needed) +
                   " per side)";
          } else if constexpr (std::is_same_v<T, IntervalNote>) {
            return IntervalText(n.outcome);
          } else if constexpr (std::is_same_v<T, UnitCountsNote>) {
            return " (" + std::to_string(n.baseline) + " baseline vs " +
                   std::to_string(n.candidate) + " candidate " + n.level + "s)";
          } else if constexpr (std::is_same_v<T, TooFewUnitsNote>) {
            return "; too few " + n.level + "s to establish a change at level " +
                   Printf("%.3g", n.alpha) + ": need " + std::to_string(n.per_side) +
                   " per side";
          } else if constexpr (std::is_same_v<T, MachineDriftNote>) {
            return DriftText(n, row.unit);
          } else if constexpr (std::is_same_v<T, OneSampleThresholdNote>) {
            return Printf("; threshold %.1f%%: one sample per run, its run-to-run spread",
                          100 * n.threshold);
          } else if constexpr (std::is_same_v<T, FdrNotConfirmedNote>) {
            return Printf(
                "; p = %.2g alone, but %.2g after the FDR adjustment over %zu operators (q = %g)",
                n.p_value, n.p_adjusted, n.family_size, n.fdr);
          } else if constexpr (std::is_same_v<T, PartlyPairedNote>) {
            return "; paired over the blocks that measured it (" + std::to_string(n.missing) +
                   " block" + (n.missing == 1 ? "" : "s") + " lacked it in some run)";
          } else if constexpr (std::is_same_v<T, UnpairedNote>) {
            return "no kept block measured it in every run: no paired comparison";
          } else if constexpr (std::is_same_v<T, SequentialStateNote>) {
            return StateText(n);
          } else if constexpr (std::is_same_v<T, TooFewNightsNote>) {
            return "recorded on " + std::to_string(n.recorded) + " of the " +
                   std::to_string(n.nights) + (n.recent ? " recent nights" : " baseline nights") +
                   "; need " + std::to_string(n.needed);
          } else if constexpr (std::is_same_v<T, NightNote>) {
            return NightText(n, row);
          } else if constexpr (std::is_same_v<T, VariancePriorNote>) {
            return "; variance moderated over its kind (prior df " +
                   (std::isinf(n.prior_df) ? std::string("inf")
                                           : std::to_string(static_cast<int>(n.prior_df))) +
                   ")";
          } else if constexpr (std::is_same_v<T, NotCountedNote>) {
            if (n.execute_at_most) {
              return "; not counted: would move Method::execute by " + SignedPercent(n.moves) +
                     ", but Method::execute is at most " + SignedPercent(*n.execute_at_most) +
                     " (--every-part counts it)";
            }
            if (n.at_least) {
              return "; not counted: moves Method::execute by " + SignedPercent(n.moves) +
                     ", with its whole interval by " + SignedPercent(*n.at_least) +
                     " only (threshold " + UnsignedPercent(n.threshold) +
                     "; --every-part counts it)";
            }
            if (n.moves < 0 && -n.moves >= n.threshold) {
              // Beyond the threshold's size, on the side that never fails.
              return "; not counted: moves Method::execute by " + SignedPercent(n.moves) +
                     ", faster (a part counts when it slows Method::execute by " +
                     UnsignedPercent(n.threshold) + "; --every-part counts it)";
            }
            return "; not counted: moves Method::execute by " + SignedPercent(n.moves) +
                   " (threshold " + UnsignedPercent(n.threshold) + "; --every-part counts it)";
          } else if constexpr (std::is_same_v<T, LevelBeyondNote>) {
            return "; tonight's machine level lies " + UnsignedPercent(std::expm1(n.excess)) +
                   " beyond the nights', which metrics follow unevenly: interval widened by " +
                   UnsignedPercent(n.spread * n.excess);
          } else if constexpr (std::is_same_v<T, DisturbedModelNote>) {
            return "; not counted: the whole model was slower tonight (load path " +
                   SignedPercent(n.load_change) + ", Method::execute " +
                   SignedPercent(n.execute_change) +
                   "), its process as much as any part: one night cannot tell the code";
          } else {
            static_assert(std::is_same_v<T, StoredReasonNote>, "every note kind is worded");
            return n.text;
          }
        },
        note);
  }
  return out;
}

}  // namespace etbench::reports
