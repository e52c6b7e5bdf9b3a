#pragma once
// The nightly gate: tonight's run judged against the distribution of
// earlier nights (runs) of the same suite on the same machine.
//
// A run that is not interleaved with its baseline is one draw of the
// machine's state: runs minutes or nights apart differ by far more than the
// repetitions within one run agree (on the shared VM: nights up to 66%
// apart while repetitions agree within 3.5%). So the unit of evidence is
// the night, never the repetition. Per night and time metric the value is
// the lower decile of the run's samples (the fast tail, as history detect
// reads it: load only adds time); the machine's level (machine_level.h) of
// that night, estimated from the other models' time metrics, is
// subtracted; tonight's log value is compared with the baseline nights'
// median by one model: Student's t with the nights' robust spread (1.4826
// MAD) as the standard deviation, a prediction standard error for one new
// night, s·√(1 + 1/k), and a variance moderated across the metrics of the
// same kind (Smyth's empirical Bayes, limma) so that 5 nights suffice. That
// one model gives
// the estimate, the interval, the one-sided p and the verdict; Holm over
// the end-to-end rows, Benjamini–Hochberg over the per-operator rows.
// Parts of Method::execute count only when they matter end to end (see
// NightGateOptions::every_part). docs/comparison.md, "Gating against
// earlier nights".

#include <cstddef>
#include <optional>
#include <vector>

#include "etbench/base/result.h"
#include "etbench/compare/comparison.h"
#include "etbench/compare/machine_level.h"
#include "etbench/compare/metrics.h"
#include "etbench/compare/thresholds.h"
#include "etbench/stats/variance_prior.h"

namespace etbench {

/// Fewer baseline nights than this and the gate does not judge (a variance
/// from 4 nights, even moderated, is too loose to pass anything).
inline constexpr std::size_t kMinGateNights = 5;

/// Sessions (fresh processes) a night samples by default (`gate --sessions`).
/// A model's run in one fresh process lands in a faster or slower memory
/// layout (mobilenet_v2_block's Method::execute ±4% between processes on
/// the idle VM), and a time metric's night value is the lower decile over
/// its sessions (the median for other metrics).
/// On the idle VM's recorded nights (docs/comparison.md, "How many sessions
/// a night"), 6 sessions against 3: unchanged nights failed 0.8% against
/// 1.1% and passed 15% against 8%, conv +10% failed its first night in 94%
/// against 91%; each session costs one run of the suite (~0.4 s there).
inline constexpr std::size_t kDefaultNightSessions = 6;

/// Nights of the sustained-step look `gate --baseline history` makes by
/// default (NightGateOptions::sustained_nights, `gate --sustained-nights`).
inline constexpr std::size_t kDefaultSustainedNights = 3;

/// How unevenly time metrics follow the machine's level: the robust
/// standard deviation of their loadings (a metric's log change over the
/// level's, one model's metrics against the level of the others) on the
/// idle VM's nights recorded minutes apart, over the nights whose level
/// moved by 8% or more: 0.55 (benchmarks/history/level_loadings.py;
/// docs/comparison.md, "Nights minutes apart").
inline constexpr double kLevelLoadingSpread = 0.5;

struct NightGateOptions {
  std::size_t min_nights = kMinGateNights;
  /// Gate every part of Method::execute (operators, delegates, framework
  /// tax) on its own. Default: a part counts only when its change moves its
  /// model's Method::execute by that row's threshold — a regression with
  /// its whole interval (its lower bound, with minimum_effect), otherwise
  /// by its estimate — or both are significantly slower tonight (the part
  /// is where the change went); every part is still listed.
  bool every_part = false;
  /// Remove the machine's level of each night (false: raw values).
  bool machine_level = true;
  /// 0 (the default): the level is removed from every time metric. k > 0:
  /// where tonight's level lies within k robust standard deviations of the
  /// baseline nights' levels (WithinLevelNoise: no shift), a metric whose
  /// nights vary less without the level removed is judged on its raw
  /// values — on a quiet machine the level is mostly the other models'
  /// process-to-process noise. Measured on the idle VM's recorded nights
  /// (docs/comparison.md, "Removing the machine's level only where it
  /// helps"): with k = 3 first-night detection of conv +10% rose from 91%
  /// to 98%, but false alarms of unchanged nights doubled (1.1% → 2.2% with
  /// 3 sessions a night; 2.9% → 5.0% with one), so it is not the default.
  double level_noise_sigmas = 0;
  /// A regression's one-sided interval must clear the threshold (a
  /// minimum-effect test), not only its estimate: one night is one draw of
  /// the machine, and on the shared VM's recorded nights this cut the
  /// false alarms of unchanged nights from 11% to 3% (docs/comparison.md).
  bool minimum_effect = true;
  /// "Unchanged" at the nights' resolution. Where a row's threshold is
  /// finer than its nights can resolve (its MDE, the smallest change this
  /// gate detects with the configured power, lies above the threshold), the
  /// row is unchanged when tonight's upper bound lies below the MDE: a
  /// change the gate could have caught is ruled out. The row then shows
  /// the MDE as its threshold and says why. The MDE is the nights' own,
  /// without tonight's widening beyond the level noise
  /// (level_loading_spread): an episode night's wide interval rules out no
  /// change the nights resolve (on the recorded idle nights minutes apart,
  /// passing at the widened MDE said "pass" on 5 of 132 conv2d +10%
  /// nights). The regression rule, and the rule that counts parts of
  /// Method::execute, keep the configured threshold, so what fails the gate is the same either way. On the idle
  /// VM's recorded nights (docs/comparison.md, "Pass at the nights'
  /// resolution"), with 6 sessions a night, unchanged nights passed 87.5%
  /// instead of 15% with the same false alarms and first-night detection.
  /// false: "unchanged" needs the configured threshold (the row is
  /// otherwise "no regression detected", with its MDE).
  bool pass_at_resolution = true;
  /// A sustained-step look (0 or 1: off). n ≥ 2: when tonight alone is no
  /// counted regression, tonight and the n − 1 nights before it are judged
  /// together against the nights before them (at least min_nights of
  /// them): a row regresses when even the least slow of those n nights is
  /// significantly slower and its estimate beyond the threshold (each of n
  /// nights must be that slow, where a single night needs its whole
  /// interval there). A small step that no single night can prove (conv2d
  /// +5% moves toy_cnn's Method::execute ~3.5% against a 2% threshold)
  /// then fails on its n-th night, and the nights that began it do not sit
  /// in its baseline. The look has the configured alpha and fdr of its
  /// own, so a night's nominal error is at most twice the configured one.
  /// Measured on the recorded nights (docs/comparison.md, "Sustained
  /// steps"): n = 3 found conv2d +5% within 3 nights more often (idle VM,
  /// 6 sessions: 62.5% → 70.8%; 3 sessions: 88.1% → 90.5%) with no more
  /// false alarms of unchanged nights in any recorded set. Off here (a
  /// baseline file's sessions are no nights before tonight); `gate
  /// --baseline history` sets kDefaultSustainedNights.
  std::size_t sustained_nights = 0;
  /// The load path as a negative control (the single look only). A model
  /// whose Method::execute and load path (Program::load_method,
  /// Method::init: no kernel runs there) are both significantly slower
  /// tonight, the load path by at least half as much, was slow as a whole
  /// process — a neighbour's episode that slows this model more than the
  /// others, whose level is removed — and one night cannot tell that from
  /// its code: its regressions are listed, not counted
  /// (DisturbedModelNote), the night is at best "no regression detected",
  /// and a change that lasts is judged by the sustained look and `history
  /// detect` on the nights after. On the idle VM's nights recorded minutes
  /// apart (docs/comparison.md, "Nights minutes apart") these were most of
  /// the unchanged nights that failed.
  bool load_path_control = true;
  /// Removing the level assumes every metric follows the machine with
  /// loading 1; the baseline nights' robust spread holds how far metrics
  /// stray within the levels of typical nights. A night whose level lies
  /// beyond the baseline levels' noise (kLevelNoiseSigmas robust SDs; an
  /// episode: +25–50% on the recorded nights, where the parts of one model
  /// moved 10–40% apart) has its prediction SE widened by this spread ×
  /// the excess (LevelBeyondNote). 0: off.
  double level_loading_spread = kLevelLoadingSpread;
};

struct NightGate {
  /// Fewer than min_nights baseline nights: nothing judged, `comparison`
  /// empty, and the gate passes ("history too short").
  bool too_short = false;
  std::size_t nights = 0;
  /// Tonight's machine level against the baseline nights' (a fraction,
  /// the median over models), removed from every time metric.
  double machine_level = 0;
  /// Tonight was measured twice (a confirmation run of the suspect
  /// models): each metric's value is the faster of the two.
  bool confirmed = false;
  /// Models whose whole process was slower tonight (load_path_control):
  /// their regressions are not counted.
  std::vector<std::string> disturbed_models;
  /// The look that decided: 1 = tonight alone; n ≥ 2 = a sustained step
  /// (NightGateOptions::sustained_nights) over tonight and the n − 1 nights
  /// before it, judged against the `nights` before them; each row's
  /// candidate value is the least slow of those n nights.
  std::size_t recent_nights = 1;
  Comparison comparison;
};

/// Judges `candidate` (one run) against `nights` (earlier runs, oldest
/// first, each one session). Rows are per metric and gated statistic of the
/// candidate that at least 2 nights recorded (fewer: inconclusive);
/// MetricComparison::n_baseline is the nights, test "night_t". Verdicts:
/// regression when the one-sided p is within the row's level and the
/// interval's lower bound (or, without minimum_effect, the estimate)
/// reaches the threshold; unchanged when the one-sided (1 −
/// confidence) upper bound lies below the threshold; else inconclusive
/// ("no regression detected", with the MDE). `confirmation`: a second run
/// of tonight (e.g. of the models a first judgement found slower); each of
/// its metrics counts with the faster of its two values, since background
/// load only adds time — a spike of interference rarely hits both runs, a
/// code change always does. With NightGateOptions::sustained_nights, a
/// night that is no counted regression on its own is looked at again with
/// the nights before it (NightGate::recent_nights says which look decided).
/// Errors: CheckComparable's against the newest night, duplicate keys.
Result<NightGate> CompareNights(const std::vector<MetricSet>& nights, const MetricSet& candidate,
                                const Thresholds& thresholds, const NightGateOptions& options = {},
                                const MetricSet* confirmation = nullptr);

/// The models with a counted regression in `comparison` (what an A/B of
/// the previous build confirms), sorted.
std::vector<std::string> SuspectModels(const Comparison& comparison);

/// The models a second run of tonight re-measures before the night's
/// verdict stands (the confirmation run): those with a counted regression,
/// and those with a gated row left inconclusive on the regression side
/// (tonight slower, but not beyond the threshold), and those with a part
/// regressed or slower-undecided while Method::execute ruled out its move
/// (not counted, NotCountedNote::execute_at_most), and those slow as a
/// whole process (DisturbedModelNote): one night is one draw
/// of the machine, and a spike of interference that made a row
/// undecidable rarely hits both runs. Sorted.
std::vector<std::string> ModelsToMeasureAgain(const Comparison& comparison);

/// The sessions of a baseline merged from several runs (Metric::
/// session_sizes and group_sizes), one MetricSet each with the merged
/// context; nullopt unless every metric has group sizes and all metrics
/// agree on the number of sessions (≥ 2).
std::optional<std::vector<MetricSet>> SplitSessions(const MetricSet& merged);

}  // namespace etbench
