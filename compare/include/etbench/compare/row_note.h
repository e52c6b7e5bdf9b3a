#pragma once
// Why a comparison row has its verdict, as data. The engines (Compare,
// the interleaved comparison, the night gate) give each row a list of
// notes, each a kind and the numbers it states; the reports library words
// them (etbench/reports/row_reason.h, the one place with the sentences).
// The first note is what decided the verdict; the rest qualify it, in the
// order a reader needs them.

#include <cstddef>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace etbench {

/// A side had fewer samples than the thresholds' min_samples (the row has
/// no interval).
struct TooFewSamplesNote {
  std::size_t baseline = 0;
  std::size_t candidate = 0;
  std::size_t needed = 0;  // per side
};

/// What the row's interval(s) showed (interval_verdict.h); the last two
/// only for interleaved runs, whose flagged rows also need the estimate at
/// the threshold and half the threshold ruled out (sequential.h).
enum class IntervalOutcome {
  kBeyondThreshold,           // significant, beyond the threshold
  kBelowThreshold,            // significant, interval short of the threshold
  kReachesThreshold,          // significant, interval still reaches it
  kRuledOut,                  // not significant, threshold-sized change ruled out
  kNotRuledOut,               // not significant, cannot rule it out yet
  kEstimateBelowThreshold,    // significant, estimate below, interval reaches it
  kHalfThresholdNotRuledOut,  // significant, half the threshold not ruled out
};
struct IntervalNote {
  IntervalOutcome outcome = IntervalOutcome::kNotRuledOut;
};

/// The units the row's inference counted on each side; `level` is their
/// ClusterLevelName ("sample", "repetition").
struct UnitCountsNote {
  std::string level;
  std::size_t baseline = 0;
  std::size_t candidate = 0;
};

/// However far apart, so few units cannot reach `alpha`: `per_side` would.
struct TooFewUnitsNote {
  std::string level;  // as UnitCountsNote
  double alpha = 0;
  std::size_t per_side = 0;
};

/// The baseline's sessions differ by more than its repetitions within a
/// session (cluster_units.h): the candidate was compared with the nearest
/// one. Amounts are log ratios when `log_scale`, else in the row's unit.
struct MachineDriftNote {
  std::size_t baseline_sessions = 0;
  double session_range = 0;
  double within_sigma = 0;
  bool log_scale = false;
  std::size_t nearest_session = 0;  // 0-based
  bool candidate_outside = false;
};

/// Interleaved runs. A metric with one sample per run: its threshold is the
/// run-to-run spread (a fraction).
struct OneSampleThresholdNote {
  double threshold = 0;
};

/// A small raw p that the family's false-discovery control does not confirm.
struct FdrNotConfirmedNote {
  double p_value = 0;
  double p_adjusted = 0;
  std::size_t family_size = 0;
  double fdr = 0;  // q
};

/// Paired over the blocks that measured the metric; `missing` lacked it.
struct PartlyPairedNote {
  std::size_t missing = 0;
};

/// No kept block measured the metric in every run: no paired comparison.
struct UnpairedNote {};

/// Where the interleaved measurement stood for this row.
enum class SequentialState {
  kDecided,             // decided (first_* when an earlier look decided it first)
  kOneSampleUndecided,  // one sample per run, undecided: reported, not gated
  kModelStopped,        // every gated metric of its model was decided
  kBlockLimit,          // stopped at the block limit
  kBudgetSpent,         // stopped when the time budget was spent
  kRunning,             // the blocks so far (a look before the end)
};
struct SequentialStateNote {
  SequentialState state = SequentialState::kRunning;
  std::size_t blocks = 0;
  double seconds = 0;
  std::optional<std::size_t> first_blocks;
  std::optional<double> first_seconds;
};

/// Night gate: the metric was recorded on too few of the baseline nights,
/// or (`recent`) on fewer than all of a sustained-step look's recent nights
/// (tonight and the nights before it).
struct TooFewNightsNote {
  std::size_t recorded = 0;
  std::size_t nights = 0;
  std::size_t needed = 2;
  bool recent = false;
};

/// Night gate: tonight against the earlier nights.
enum class NightOutcome {
  kAlert,           // first-night alert: beyond the threshold (a regression)
  kBetter,          // better beyond the threshold (an improvement)
  kBelowThreshold,  // significant but below the threshold
  kRuledOut,        // a threshold-sized change is ruled out
  kRuledOutAtResolution,  // the threshold is finer than the nights resolve:
                          // a change the size of the MDE is ruled out
  kNotDetected,     // no regression detected, none ruled out
};
struct NightNote {
  NightOutcome outcome = NightOutcome::kNotDetected;
  /// kAlert: the whole interval is beyond the threshold (minimum effect).
  bool whole_interval = false;
  /// kNotDetected: tonight differs significantly, but below the threshold.
  bool significant = false;
  std::size_t nights = 0;
  /// Tonight − the nights' median (machine level removed): a log ratio when
  /// `log_scale`, else in the row's unit.
  double difference = 0;
  bool log_scale = false;
  /// kNotDetected and kRuledOutAtResolution: the row's minimum detectable
  /// effect (relative rows); none on the absolute scale.
  std::optional<double> mde;
  /// kNotDetected, where tonight's interval was widened beyond the nights'
  /// spread (LevelBeyondNote) and the row would pass at the nights'
  /// resolution had its upper bound lain under their own MDE: that MDE,
  /// which the upper bound does not rule out (`mde` is tonight's, widened).
  std::optional<double> mde_nights;
  /// kRuledOutAtResolution: the configured threshold (the row shows the MDE
  /// as its threshold).
  std::optional<double> configured_threshold;
  /// A sustained-step look (NightGateOptions::sustained_nights): tonight
  /// and the sustained_nights − 1 nights before it, judged against
  /// `nights` before them by the least slow of them (`difference`); 0:
  /// tonight alone.
  std::size_t sustained_nights = 0;
};

/// Night gate: the variance was moderated over the metric's kind with this
/// prior's degrees of freedom (may be infinite).
struct VariancePriorNote {
  double prior_df = 0;
};

/// Night gate: a part of Method::execute left out of the gate because it
/// moves its model's Method::execute by `moves` (a fraction) only, below
/// that row's `threshold` — or, with `execute_at_most`, by more, while
/// Method::execute's own one-sided upper bound (this fraction) rules out
/// that it moved that much — or, with `at_least`, by more by its estimate
/// but by only this much with its whole interval (a regression's lower
/// bound: what fails the gate must clear the threshold with it).
struct NotCountedNote {
  double moves = 0;
  double threshold = 0;
  std::optional<double> execute_at_most;
  std::optional<double> at_least;
};

/// Night gate: the night judged lies `excess` (a log ratio) beyond the
/// machine levels of the baseline nights, where metrics follow the machine
/// with loadings that differ by `spread` (kLevelLoadingSpread); the row's
/// prediction interval is widened by spread × excess.
struct LevelBeyondNote {
  double excess = 0;
  double spread = 0;
};

/// Night gate: a regression of a model whose whole process was slower
/// tonight (NightGateOptions::load_path_control): its load path changed by
/// `load_change` with its Method::execute's `execute_change` (fractions),
/// so one night cannot tell its code from its process; listed, not counted.
struct DisturbedModelNote {
  double load_change = 0;
  double execute_change = 0;
};

/// A reason read back from a stored comparison (comparison JSON): its text
/// as written.
struct StoredReasonNote {
  std::string text;
  /// The row carried a NotCountedNote or DisturbedModelNote (the JSON's `not_counted`).
  bool not_counted = false;
};

using RowNote =
    std::variant<TooFewSamplesNote, IntervalNote, UnitCountsNote, TooFewUnitsNote,
                 MachineDriftNote, OneSampleThresholdNote, FdrNotConfirmedNote,
                 PartlyPairedNote, UnpairedNote, SequentialStateNote, TooFewNightsNote,
                 NightNote, VariancePriorNote, NotCountedNote, DisturbedModelNote,
                 LevelBeyondNote, StoredReasonNote>;

/// The first note of type T in `notes`, or null.
template <typename T>
const T* FindNote(const std::vector<RowNote>& notes) {
  for (const RowNote& n : notes) {
    if (const T* t = std::get_if<T>(&n)) return t;
  }
  return nullptr;
}

/// The night gate left the row out of the gate (a NotCountedNote or a
/// DisturbedModelNote, or a stored reason read back from a row that had one).
inline bool NotCounted(const std::vector<RowNote>& notes) {
  if (FindNote<NotCountedNote>(notes) || FindNote<DisturbedModelNote>(notes)) return true;
  const StoredReasonNote* stored = FindNote<StoredReasonNote>(notes);
  return stored && stored->not_counted;
}

}  // namespace etbench
