#pragma once
// What night_replay judges with, shared by its tables and its diagnostics
// (night_diagnostics.h): the gate's view of recorded nights (their lower
// deciles, the baseline segment `history detect` leaves), the nightly gate
// with its confirmation run, and what a verdict named first.

#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "etbench/compare/comparison.h"
#include "etbench/compare/night_gate.h"
#include "etbench/history/history_store.h"
#include "night_data.h"

namespace etbench::bench {

/// One rule's verdict on one replayed night.
struct Verdict2 {
  bool fail = false;       // exit 1
  bool pass = false;       // "pass" (every gated row decided unchanged)
  bool named = false;      // the largest counted per-operator regression is a convolution
  /// ...or the delegate call that runs mobilenet_v2_block's depthwise and
  /// project convolutions (opaque: the finest part that can be named).
  bool named_or_delegate = false;
  /// What a reader of the failing night's report sees named first, more
  /// widely: the counted part that added the most time or, when no part is
  /// counted and a Method::execute failed, the part its attribution
  /// ("+0.04 ms: +0.03 from …") puts first; a convolution, or any event of
  /// the delegate that runs mobilenet_v2_block's convolutions (its
  /// DELEGATE_CALL or the events it records inside, debug ids 0 and 1).
  bool named_attributed = false;
  bool short_history = false;
};

/// The night gate as every replayed night rule runs it.
struct ReplayOptions {
  NightGateOptions gate;
  /// The confirmation run also re-measures the models of an inconclusive
  /// night (ModelsToMeasureAgain), as the gate does (--recheck-inconclusive).
  bool recheck_inconclusive = false;
  /// A night that confirms a regression change point fails (the gate's
  /// rule; --no-change-point-fail: it does not).
  bool change_point_fails = true;
  /// ...measuring the change points' models again first, as the gate does
  /// (history::WithNewestFaster; --no-change-point-confirmation: not).
  bool change_point_confirmation_run = true;
};

bool IsConv(const std::string& name);
/// mobilenet_v2_block's DELEGATE_CALL, which runs its depthwise and project
/// convolutions.
bool IsConvDelegate(const MetricKey& key);

/// The row a failing night names first: the counted per-operator regression
/// that added the most time (null when none is counted).
const MetricComparison* NamedFirst(const Comparison& c);

/// NamedFirst's key or, when no part is counted, the first part with a
/// positive change in the attribution of the first regressed
/// Method::execute's model (none: nullopt).
std::optional<MetricKey> NamedOrAttributedFirst(const Comparison& c);

Verdict2 FromComparison(const Comparison& c);

/// `run`'s lower deciles of the metrics of `models`, each as a metric of one
/// sample (what history::WithNewestFaster reads of a confirmation run).
MetricSet LowerDeciles(const NightRun& run, const std::set<std::string>& models);

/// The history `detect` sees: the runs of `nights` with their lower deciles.
history::HistoryWindow WindowOf(const std::vector<const NightRun*>& nights);

/// The nights of the gate's baseline, as BaselineForCandidate takes them:
/// the new gate from the last change point that counts (machine shifts do
/// not restart it), the old one from the last change point of any metric
/// or machine shift.
std::vector<const NightRun*> Segment(const std::vector<const NightRun*>& nights, bool old_gate,
                                     const Thresholds& thresholds);

std::vector<MetricSet> SetsOf(const std::vector<const NightRun*>& nights);

/// What the nightly model reads of a run: time metrics' lower decile of the
/// run's samples, other metrics' repetition medians.
MetricSet FastTail(const NightRun& run);
std::vector<MetricSet> FastTails(const std::vector<const NightRun*>& nights);

/// The nightly gate as `gate --baseline history` runs it: judged, and when
/// it finds a regression (or, with recheck_inconclusive, leaves a row
/// undecided on the slower side) judged again with `again` standing in for
/// the confirmation run. `decided`: the final judgement, when not null.
Verdict2 NightGateVerdict(const std::vector<MetricSet>& nights, const MetricSet& candidate,
                          const NightRun* again, const Thresholds& thresholds,
                          const ReplayOptions& options, NightGate* decided = nullptr);

/// The thresholds without `min_delta: auto` (a recorded night keeps one
/// value per run, from which a clock tick cannot be measured).
const Thresholds& WithoutMeasuredMinDelta(const Thresholds& thresholds);

/// `history detect` on the nights so far finds a slower change point of a
/// model with convolutions within a night of the first slow night `first`.
bool DetectFinds(const std::vector<const NightRun*>& nights, std::size_t first,
                 const Thresholds& thresholds);

/// Clopper–Pearson 95% upper bound of a rate of k in n.
double UpperBound(std::size_t k, std::size_t n);
/// "k/n (x%)".
std::string Rate(std::size_t k, std::size_t n);

}  // namespace etbench::bench
