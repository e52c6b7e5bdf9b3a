// The nightly gate on real recorded nights, side by side with other rules.
//
// Input: recorded nights of the default suite (night_data.h; recorded by
// record_nights.sh, converted by convert_nights.sh): per history and night
// slot a base run and, right after it, runs with every conv2d 5% and 10%
// slower (toy_cnn and mobilenet_v2_block). Sequences are spliced from them:
//   A/A      base nights 1..t−1, then base night t;
//   conv10   base nights 1..k−1, then the conv +10% run of night k (first
//            slow night; k ≥ 6, so the history holds ≥ 5 nights);
//   conv5    base nights 1..k−1, then conv +5% runs of nights k, k+1, k+2.
// Each night is judged, as `gate --baseline history` does, against the
// nights since the last change point that `history detect` finds in the
// history so far (the new gate: parts counted as it counts them; the gate as
// it was: every metric's change point, and ≥ 3 runs) by:
//   night    CompareNights (the night is the unit; ≥ 5 nights, else exit 0
//            "history too short"), confirming a suspect with the next run;
//            also with NightGateOptions::minimum_effect off ("estimate
//            beyond thr.": the estimate, not the interval, must clear it);
//   old      Compare against the nights merged as one baseline (the gate
//            before this change: repetitions as units, nearest session when
//            the sessions drift);
//   bencher  Bencher's t-test threshold per metric: per-run value, the last
//            64 runs, upper boundary at 0.99 (mean + t(0.99, n−1)·sd);
//   flat5    any metric more than 5% above the median of the previous nights.
// bencher and flat5 read every metric the gate gates (all: any metric
// alerts; e2e: only Method::execute and the load path). "Named first": the
// flagged per-operator metric that added the most time (for every rule).
//   build/benchmarks/history/night_replay [--csv OUT] [--sessions N] benchmarks/history/nights/*.tsv
// --sessions N: a night is the first N sessions (fresh processes) recorded
// in its slot (record_sessions.sh), as `gate --sessions N` measures it;
// nights with fewer are left out (default 1: one process a night).
// --pool K: K consecutive recorded night slots make one night (their
// sessions in order), so --pool 2 --sessions 6 replays 6 sessions a night.
// --spread K: like --pool K, but night j takes the slots j, j+n, j+2n, …
// (n = slots / K): its sessions lie far apart in the recording instead of
// back to back, as sessions spaced over time would. Base runs only (the
// slowed variants exist on consecutive slots), so with --blockers.
// --level-noise K: NightGateOptions::level_noise_sigmas for every night rule.
// --no-level: NightGateOptions::machine_level off (raw night values).
// --no-resolution-pass: NightGateOptions::pass_at_resolution off ("pass"
// needs every row's configured threshold).
// --sustained N: NightGateOptions::sustained_nights for every night rule
// (a small step's second and third nights judged together against the
// nights before them).
// --trace-conv5: per night of each conv +5% sequence, the gate's outcome,
// the convolution models' Method::execute rows and what `history detect`
// finds.
// --blockers: the A/A nights only — how many pass, which gated rows keep
// the rest from passing, and every A/A regression before confirmation.
// A night is judged only where the next recorded run of its variant can
// stand in for the confirmation run (each history's last night cannot).
//   build/benchmarks/history/night_replay --convert ROOT OUT.tsv
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "etbench/compare/ab_schedule.h"
#include "etbench/compare/comparison.h"
#include "etbench/compare/night_gate.h"
#include "etbench/history/change_points.h"
#include "etbench/history/detect.h"
#include "etbench/history/history_workflow.h"
#include "etbench/reports/row_reason.h"
#include "etbench/stats/variance_prior.h"
#include "night_data.h"

namespace etbench::bench {
namespace {

struct Verdict2 {
  bool fail = false;       // exit 1
  bool pass = false;       // "pass" (every gated row decided unchanged)
  bool named = false;      // the largest counted per-operator regression is a convolution
  /// ...or the delegate call that runs mobilenet_v2_block's depthwise and
  /// project convolutions (opaque: the finest part that can be named).
  bool named_or_delegate = false;
  bool short_history = false;
};

// The night gate's options for every replayed rule (--level-noise K sets
// NightGateOptions::level_noise_sigmas).
NightGateOptions g_options;
// --recheck-inconclusive: the confirmation run also re-measures the models
// of an inconclusive night (ModelsToMeasureAgain), as the gate does.
bool g_recheck_inconclusive = false;
// --trace-conv5: print what the gate and `history detect` see on each
// night of every conv +5% sequence (why a small step is missed by night 3).
bool g_trace_conv5 = false;

bool IsConv(const std::string& name) { return name.find("convolution") != std::string::npos; }

bool IsConvDelegate(const MetricKey& key) {
  return key.model == "mobilenet_v2_block" && key.name == "DELEGATE_CALL";
}

Verdict2 FromComparison(const Comparison& c) {
  Verdict2 v;
  v.fail = c.outcome == GateOutcome::kRegression;
  v.pass = c.outcome == GateOutcome::kPass;
  double best = -1;
  MetricKey first;
  // Named first: the counted per-operator regression that added the most
  // time (what moved Method::execute most, as the attribution ranks parts).
  for (const MetricComparison& r : c.rows) {
    if (!r.gated || r.end_to_end || r.verdict != Verdict::kRegression) continue;
    const double added = r.change * r.baseline_value;
    if (added > best) {
      best = added;
      first = r.key;
    }
  }
  v.named = IsConv(first.name);
  v.named_or_delegate = v.named || IsConvDelegate(first);
  return v;
}

// The history `detect` sees: the runs of `nights` with their lower deciles.
history::HistoryWindow WindowOf(const std::vector<const NightRun*>& nights) {
  history::HistoryWindow w;
  std::map<MetricKey, std::size_t> at;
  for (std::size_t i = 0; i < nights.size(); ++i) {
    history::RunSummary run;
    run.id = static_cast<int64_t>(i + 1);
    run.run_id = nights[i]->history + "/" + std::to_string(nights[i]->night) + "/" +
                 nights[i]->variant;
    run.git_commit = "night" + std::to_string(nights[i]->night);
    char time[32];
    std::snprintf(time, sizeof time, "2026-11-%02dT00:00:00Z", 1 + static_cast<int>(i % 28));
    run.time = time;
    w.runs.push_back(run);
    const MetricSet& set = nights[i]->metrics;
    for (std::size_t m = 0; m < set.metrics.size(); ++m) {
      const Metric& metric = set.metrics[m];
      auto [it, inserted] = at.emplace(metric.key, w.metrics.size());
      if (inserted) {
        history::MetricHistory h;
        h.metric = metric;
        h.metric.samples.clear();
        h.metric.group_sizes.clear();
        h.label = MetricLabel(metric.key);
        w.metrics.push_back(std::move(h));
      }
      history::SeriesPoint p;
      p.run = run.id;
      p.p10 = nights[i]->p10[m];
      std::vector<double> reps = metric.samples;
      std::sort(reps.begin(), reps.end());
      p.p50 = ComputeStatistic(reps, Statistic::kP50);
      p.n = reps.size();
      w.metrics[it->second].points.push_back(p);
    }
  }
  return w;
}

// The nights of the gate's baseline, as BaselineForCandidate takes them:
// the new gate from the last change point that counts (machine shifts do
// not restart it), the old one from the last change point of any metric or
// machine shift.
std::vector<const NightRun*> Segment(const std::vector<const NightRun*>& nights, bool old_gate,
                                     const Thresholds& thresholds) {
  history::DetectOptions options;
  options.end_to_end_only = !old_gate;
  options.thresholds = thresholds;
  const history::Detection d = history::DetectChangePoints(WindowOf(nights), options, {});
  std::size_t start = history::StableSegmentStart(d);
  if (!old_gate) {
    start = 0;
    for (const history::ChangePoint& cp : d.change_points) start = std::max(start, cp.index);
  }
  return {nights.begin() + static_cast<std::ptrdiff_t>(start), nights.end()};
}

std::vector<MetricSet> SetsOf(const std::vector<const NightRun*>& nights) {
  std::vector<MetricSet> sets;
  for (const NightRun* n : nights) sets.push_back(n->metrics);
  return sets;
}

// What the nightly model reads of a run: time metrics' lower decile of the
// run's samples (recorded as such: one sample, so its lower decile is it),
// other metrics' repetition medians.
MetricSet FastTail(const NightRun& run) {
  MetricSet set = run.metrics;
  for (std::size_t m = 0; m < set.metrics.size(); ++m) {
    Metric& metric = set.metrics[m];
    if (metric.key.kind != MetricKind::kEvent) continue;
    metric.samples = {run.p10[m]};
    metric.group_sizes = {1};
  }
  return set;
}

std::vector<MetricSet> FastTails(const std::vector<const NightRun*>& nights) {
  std::vector<MetricSet> sets;
  for (const NightRun* n : nights) sets.push_back(FastTail(*n));
  return sets;
}

// The night's value of a metric for the per-run rules: the median of its
// repetitions' medians.
std::map<MetricKey, double> Values(const NightRun& run) {
  std::map<MetricKey, double> v;
  for (const Metric& m : run.metrics.metrics) {
    std::vector<double> s = m.samples;
    std::sort(s.begin(), s.end());
    v[m.key] = ComputeStatistic(s, Statistic::kP50);
  }
  return v;
}

bool Judged(const Metric& m, bool e2e_only) {
  if (m.key.kind == MetricKind::kFrameworkTax) return false;  // not gated by default
  if (m.key.name == "OPERATOR_CALL") return false;            // wrappers: not gated
  return !e2e_only || m.end_to_end;
}

// Bencher's t-test threshold and the flat 5% rule, per metric; any alert fails.
Verdict2 PerRunRule(const std::vector<const NightRun*>& before, const NightRun& tonight,
                    bool bencher, bool e2e_only) {
  Verdict2 v;
  std::vector<std::map<MetricKey, double>> history;
  const std::size_t from = before.size() > 64 ? before.size() - 64 : 0;
  for (std::size_t i = from; i < before.size(); ++i) history.push_back(Values(*before[i]));
  const std::map<MetricKey, double> now = Values(tonight);
  double best = -1;
  MetricKey first;
  for (const Metric& m : tonight.metrics.metrics) {
    if (!Judged(m, e2e_only)) continue;
    std::vector<double> xs;
    for (const auto& h : history) {
      auto it = h.find(m.key);
      if (it != h.end()) xs.push_back(it->second);
    }
    if (xs.size() < 2) continue;
    const double x = now.at(m.key);
    double limit;
    if (bencher) {
      double mean = 0, var = 0;
      for (double y : xs) mean += y / static_cast<double>(xs.size());
      for (double y : xs) var += (y - mean) * (y - mean) / static_cast<double>(xs.size() - 1);
      limit = mean + StudentUpperQuantile(0.01, static_cast<double>(xs.size() - 1)) * std::sqrt(var);
    } else {
      std::sort(xs.begin(), xs.end());
      limit = 1.05 * ComputeStatistic(xs, Statistic::kP50);
    }
    if (x > limit) {
      v.fail = true;
      const double excess = x - limit;  // time added beyond the limit
      if (!m.end_to_end && excess > best) {
        best = excess;
        first = m.key;
      }
    }
  }
  v.pass = !v.fail;
  v.named = IsConv(first.name);
  v.named_or_delegate = v.named || IsConvDelegate(first);
  return v;
}

struct Rules {
  Verdict2 night, night_estimate, old, bencher, bencher_e2e, flat, flat_e2e;
};

std::vector<const Verdict2*> All(const Rules& r) {
  return {&r.night, &r.night_estimate, &r.old, &r.bencher, &r.bencher_e2e, &r.flat, &r.flat_e2e};
}

// The nightly gate as `gate --baseline history` runs it: judged, and when
// it finds a regression judged again with the confirmation run.
Verdict2 NightGateVerdict(const std::vector<MetricSet>& nights, const MetricSet& candidate,
                          const NightRun* again, const Thresholds& thresholds,
                          const NightGateOptions& options) {
  Verdict2 v;
  auto judged = CompareNights(nights, candidate, thresholds, options);
  const GateOutcome first = judged.ok() ? judged->comparison.outcome : GateOutcome::kPass;
  if (judged.ok() && !judged->too_short && again &&
      (first == GateOutcome::kRegression ||
       (g_recheck_inconclusive && first == GateOutcome::kInconclusive))) {
    MetricSet confirmation = FastTail(*again);
    const std::vector<std::string> suspects = g_recheck_inconclusive
                                                  ? ModelsToMeasureAgain(judged->comparison)
                                                  : SuspectModels(judged->comparison);
    confirmation.metrics.erase(
        std::remove_if(confirmation.metrics.begin(), confirmation.metrics.end(),
                       [&](const Metric& m) {
                         return std::find(suspects.begin(), suspects.end(), m.key.model) ==
                                suspects.end();
                       }),
        confirmation.metrics.end());
    judged = CompareNights(nights, candidate, thresholds, options, &confirmation);
  }
  if (judged.ok() && judged->too_short) {
    v.short_history = true;
  } else if (judged.ok()) {
    v = FromComparison(judged->comparison);
  }
  return v;
}

// The recorded nights keep one value per run for the nightly model (its
// lower decile), from which `min_delta: auto` (two clock ticks: the
// smallest gap between distinct samples) cannot be measured — the gap
// between two runs' values would pass for a tick. The replay's nightly
// gate therefore runs without an absolute floor (only the relative
// thresholds); in a real gate the floor is a few ns or the event overhead.
const Thresholds& WithoutMeasuredMinDelta(const Thresholds& thresholds) {
  static const Thresholds t = [&] {
    Thresholds copy = thresholds;
    for (GateRule* rule : {&copy.per_operator, &copy.end_to_end, &copy.allocations}) {
      rule->min_delta = MinDelta{};
    }
    return copy;
  }();
  return t;
}

// `again`: the run standing in for the gate's confirmation run (the next
// recorded run of the same variant, ~10 s later), or null.
Rules JudgeAll(const std::vector<const NightRun*>& before, const NightRun& tonight,
               const NightRun* again, const Thresholds& thresholds) {
  Rules r;
  const std::vector<const NightRun*> segment = Segment(before, false, thresholds);
  const std::vector<MetricSet> nights = FastTails(segment);
  const MetricSet candidate = FastTail(tonight);
  const Thresholds& night_thresholds = WithoutMeasuredMinDelta(thresholds);
  r.night = NightGateVerdict(nights, candidate, again, night_thresholds, g_options);
  // The gate also fails the night that confirms a regression change point
  // (history::ConfirmedByNewestRun, with the gate's detect options).
  std::vector<const NightRun*> with_tonight = before;
  with_tonight.push_back(&tonight);
  history::DetectOptions detect_options;
  detect_options.thresholds = thresholds;
  if (!history::ConfirmedByNewestRun(WindowOf(with_tonight), detect_options).confirmed.empty()) {
    r.night.fail = true;
    r.night.pass = false;
    r.night.short_history = false;
  }
  NightGateOptions estimate = g_options;
  estimate.minimum_effect = false;
  r.night_estimate = NightGateVerdict(nights, candidate, again, night_thresholds, estimate);
  const std::vector<const NightRun*> old_segment = Segment(before, true, thresholds);
  if (old_segment.size() >= 3) {
    std::vector<MetricSet> newest_first = SetsOf(old_segment);
    std::reverse(newest_first.begin(), newest_first.end());
    auto merged = MergeMetricSets(newest_first);
    if (merged.ok()) {
      auto c = Compare(merged.value(), tonight.metrics, thresholds);
      if (c.ok()) r.old = FromComparison(c.value());
    }
  } else {
    r.old.short_history = true;
  }
  r.bencher = PerRunRule(before, tonight, true, false);
  r.bencher_e2e = PerRunRule(before, tonight, true, true);
  r.flat = PerRunRule(before, tonight, false, false);
  r.flat_e2e = PerRunRule(before, tonight, false, true);
  return r;
}

// `history detect` (the default options) on the nights so far finds a
// slower change point of a model with convolutions within a night of the
// first slow night `first` (0-based).
bool DetectFinds(const std::vector<const NightRun*>& nights, std::size_t first,
                 const Thresholds& thresholds) {
  history::DetectOptions options;
  options.thresholds = thresholds;
  const history::Detection d = history::DetectChangePoints(WindowOf(nights), options, {});
  for (const history::ChangePoint& cp : d.change_points) {
    const bool conv_model = cp.key.model == "toy_cnn" || cp.key.model == "mobilenet_v2_block";
    const std::size_t apart = cp.index > first ? cp.index - first : first - cp.index;
    if (cp.regression && conv_model && apart <= 1) return true;
  }
  return false;
}

// --trace-conv5: one line per night of a conv +5% sequence (slow night
// `step` of 3): the new gate's outcome (after confirmation, as replayed),
// its first look's Method::execute rows of the models with convolutions
// (before confirmation), and the regression change points of those models
// that `history detect` finds with tonight, or the best split's p of
// toy_cnn's Method::execute when it finds none.
void TraceConv5Night(const std::vector<const NightRun*>& before, const NightRun& tonight,
                     int step, std::size_t first_slow, const Rules& rules,
                     const Thresholds& thresholds) {
  const std::vector<const NightRun*> segment = Segment(before, false, thresholds);
  NightGateOptions single = g_options;
  single.sustained_nights = 0;
  auto judged = CompareNights(FastTails(segment), FastTail(tonight),
                              WithoutMeasuredMinDelta(thresholds), single);
  std::printf("trace %s slow from %zu, night %d: %zu nights; gate %s", tonight.history.c_str(),
              first_slow + 1, step, segment.size(),
              rules.night.fail ? "exit 1" : rules.night.pass ? "pass" : "exit 0");
  if (judged.ok() && !judged->too_short) {
    for (const MetricComparison& r : judged->comparison.rows) {
      const bool conv_model = r.key.model == "toy_cnn" || r.key.model == "mobilenet_v2_block";
      if (!conv_model || MetricEventRole(r.key) != EventRole::kMethodExecute) continue;
      std::printf("; %s %+.2f%% [%+.2f%%, %+.2f%%] %s", r.key.model.c_str(), 100 * r.change,
                  100 * r.ci_low, 100 * r.ci_high, VerdictName(r.verdict));
    }
  }
  std::vector<const NightRun*> with_tonight = before;
  with_tonight.push_back(&tonight);
  history::DetectOptions options;
  options.thresholds = thresholds;
  const history::HistoryWindow window = WindowOf(with_tonight);
  const history::Detection d = history::DetectChangePoints(window, options, {});
  std::size_t shown = 0;
  for (const history::ChangePoint& cp : d.change_points) {
    const bool conv_model = cp.key.model == "toy_cnn" || cp.key.model == "mobilenet_v2_block";
    if (!cp.regression || !conv_model) continue;
    std::printf("; detect %s/%s at %+d %+.2f%% p %.2g", cp.key.model.c_str(), cp.label.c_str(),
                static_cast<int>(cp.index) - static_cast<int>(first_slow), 100 * cp.change,
                cp.p_value);
    ++shown;
  }
  if (shown == 0) {
    for (const history::MetricHistory& m : window.metrics) {
      if (m.metric.key.model != "toy_cnn" || MetricEventRole(m.metric.key) != EventRole::kMethodExecute) {
        continue;
      }
      std::vector<double> p10;
      for (const history::SeriesPoint& p : m.points) p10.push_back(p.p10);
      std::printf("; detect: none (toy_cnn Method::execute raw best split p %.2g of %zu tested)",
                  history::BestSplit(p10, 0, p10.size(), options.min_segment).p_value,
                  d.metrics_tested);
    }
  }
  std::printf("\n");
}

struct Tally {
  std::size_t n = 0, fail = 0, pass = 0, named = 0, named_or_delegate = 0, short_history = 0;
  void Add(const Verdict2& v) {
    ++n;
    fail += v.fail;
    pass += v.pass;
    named += v.fail && v.named;
    named_or_delegate += v.fail && v.named_or_delegate;
    short_history += v.short_history;
  }
};

// Clopper–Pearson 95% upper bound of a rate of k in n (by bisection on the
// binomial tail).
double UpperBound(std::size_t k, std::size_t n) {
  if (n == 0) return 1;
  if (k >= n) return 1;
  const auto tail = [&](double p) {  // P(X ≤ k)
    double sum = 0, term = std::pow(1 - p, static_cast<double>(n));
    for (std::size_t i = 0; i <= k; ++i) {
      sum += term;
      term *= static_cast<double>(n - i) / static_cast<double>(i + 1) * p / (1 - p);
    }
    return sum;
  };
  double lo = static_cast<double>(k) / static_cast<double>(n), hi = 1;
  for (int i = 0; i < 60; ++i) {
    const double mid = (lo + hi) / 2;
    (tail(mid) > 0.025 ? lo : hi) = mid;
  }
  return hi;
}

std::string Rate(std::size_t k, std::size_t n) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%zu/%zu (%.1f%%)", k, n, n ? 100.0 * k / n : 0.0);
  return buf;
}

using ByHistory = std::map<std::string, std::map<std::string, std::map<int, const NightRun*>>>;

// --show HISTORY:NIGHT:VARIANT — the new gate's rows for that night against
// the base nights before it, with the flags' options and before any
// confirmation run (for reading what it decided and why).
int Show(const ByHistory& by, const std::string& spec, const Thresholds& thresholds) {
  const auto a = spec.find(':'), b = spec.rfind(':');
  const std::string h = spec.substr(0, a), variant = spec.substr(b + 1);
  const int night = std::atoi(spec.substr(a + 1, b - a - 1).c_str());
  if (!by.count(h) || !by.at(h).count(variant) || !by.at(h).at(variant).count(night)) return 2;
  std::vector<const NightRun*> before;
  for (const auto& [n, run] : by.at(h).at("base")) {
    if (n < night) before.push_back(run);
  }
  const std::vector<const NightRun*> segment = Segment(before, false, thresholds);
  auto judged = CompareNights(FastTails(segment), FastTail(*by.at(h).at(variant).at(night)),
                              WithoutMeasuredMinDelta(thresholds), g_options);
  if (!judged.ok() || judged->too_short) return 2;
  std::printf("%zu nights; outcome %s (%zu recent nights); machine level %+.2f%%\n", judged->nights,
              GateOutcomeName(judged->comparison.outcome), judged->recent_nights,
              100 * judged->machine_level);
  for (const MetricComparison& r : judged->comparison.rows) {
    std::printf("%-8s %-4s %-55s %+7.2f%% [%+7.2f%%, %+7.2f%%] thr %.1f%% p %.3g %s\n",
                VerdictName(r.verdict), r.gated ? "gate" : "-", r.label.c_str(), 100 * r.change,
                100 * r.ci_low, 100 * r.ci_high, 100 * r.threshold, r.p_value, reports::RowReason(r).c_str());
  }
  return 0;
}

// --blockers: A/A nights (base night t against base nights 1..t−1, the
// stable segment as the gate picks it) — how many pass, and which gated
// rows keep the others from passing (not decided unchanged), by model and
// name, with their typical interval width.
int Blockers(const ByHistory& by, const std::map<std::string, std::string>& condition,
             const Thresholds& thresholds, const NightGateOptions& options) {
  std::map<std::string, std::pair<std::size_t, std::size_t>> judged;  // condition → (nights, pass)
  std::map<std::string, std::map<std::string, std::vector<double>>> rows;  // condition → label → half-widths
  for (const auto& [h, variants] : by) {
    if (!variants.count("base")) continue;
    std::vector<const NightRun*> before;
    for (const auto& [n, run] : variants.at("base")) {
      const std::vector<const NightRun*> segment = Segment(before, false, thresholds);
      before.push_back(run);
      auto j = CompareNights(FastTails(segment), FastTail(*run), WithoutMeasuredMinDelta(thresholds),
                             options);
      if (!j.ok() || j->too_short) continue;
      auto& [nights, pass] = judged[condition.at(h)];
      ++nights;
      if (j->comparison.outcome == GateOutcome::kPass) ++pass;
      for (const MetricComparison& r : j->comparison.rows) {
        if (r.gated && r.verdict == Verdict::kRegression) {
          std::printf("  A/A regression %s night %d: %s %+.2f%% [%+.2f%%, %+.2f%%] %s\n", h.c_str(), n,
                      r.label.c_str(), 100 * r.change, 100 * r.ci_low, 100 * r.ci_high, reports::RowReason(r).c_str());
        }
        if (!r.gated || r.verdict == Verdict::kUnchanged) continue;
        rows[condition.at(h)][r.key.model + " " + r.label].push_back(r.ci_high);
      }
    }
  }
  for (const auto& [cond, counts] : judged) {
    std::printf("== %s: %s pass ==\n", cond.c_str(), Rate(counts.second, counts.first).c_str());
    std::vector<std::pair<std::size_t, std::string>> order;
    for (const auto& [label, v] : rows[cond]) order.emplace_back(v.size(), label);
    std::sort(order.rbegin(), order.rend());
    for (const auto& [n, label] : order) {
      std::vector<double> v = rows[cond][label];
      std::sort(v.begin(), v.end());
      std::printf("  %-70s not unchanged on %s; median upper bound %+.2f%%\n", label.c_str(),
                  Rate(n, counts.first).c_str(), 100 * ComputeStatistic(v, Statistic::kP50));
    }
  }
  return 0;
}

int Main(int argc, char** argv) {
  if (argc == 4 && std::strcmp(argv[1], "--convert") == 0) {
    const Status s = ConvertNights(argv[2], argv[3]);
    if (!s.ok()) {
      std::fprintf(stderr, "night_replay: %s\n", s.error().message.c_str());
      return 2;
    }
    return 0;
  }
  std::vector<std::string> paths;
  std::string csv, show;
  std::size_t sessions = 1;
  int pool = 1, spread = 1;
  bool blockers = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--csv") == 0 && i + 1 < argc) {
      csv = argv[++i];
    } else if (std::strcmp(argv[i], "--sessions") == 0 && i + 1 < argc) {
      sessions = static_cast<std::size_t>(std::atoi(argv[++i]));
      if (sessions == 0) {
        std::fprintf(stderr, "night_replay: --sessions must be a positive number\n");
        return 2;
      }
    } else if (std::strcmp(argv[i], "--pool") == 0 && i + 1 < argc) {
      pool = std::atoi(argv[++i]);
      if (pool <= 0) {
        std::fprintf(stderr, "night_replay: --pool must be a positive number\n");
        return 2;
      }
    } else if (std::strcmp(argv[i], "--spread") == 0 && i + 1 < argc) {
      spread = std::atoi(argv[++i]);
      if (spread <= 0) {
        std::fprintf(stderr, "night_replay: --spread must be a positive number\n");
        return 2;
      }
    } else if (std::strcmp(argv[i], "--blockers") == 0) {
      blockers = true;
    } else if (std::strcmp(argv[i], "--no-level") == 0) {
      g_options.machine_level = false;
    } else if (std::strcmp(argv[i], "--level-noise") == 0 && i + 1 < argc) {
      g_options.level_noise_sigmas = std::atof(argv[++i]);
    } else if (std::strcmp(argv[i], "--recheck-inconclusive") == 0) {
      g_recheck_inconclusive = true;
    } else if (std::strcmp(argv[i], "--sustained") == 0 && i + 1 < argc) {
      g_options.sustained_nights = static_cast<std::size_t>(std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--trace-conv5") == 0) {
      g_trace_conv5 = true;
    } else if (std::strcmp(argv[i], "--no-resolution-pass") == 0) {
      g_options.pass_at_resolution = false;
    } else if (std::strcmp(argv[i], "--show") == 0 && i + 1 < argc) {
      show = argv[++i];
    } else {
      paths.emplace_back(argv[i]);
    }
  }
  if (paths.empty()) {
    std::fprintf(stderr,
                 "usage: night_replay [--csv OUT] [--sessions N] [--pool K | --spread K] [--level-noise K] [--no-level] "
                 "[--no-resolution-pass] [--sustained N] [--recheck-inconclusive] [--blockers] [--trace-conv5] "
                 "NIGHTS.tsv... | --convert ROOT OUT.tsv\n");
    return 2;
  }
  auto runs = LoadNights(paths);
  if (!runs.ok()) {
    std::fprintf(stderr, "night_replay: %s\n", runs.error().message.c_str());
    return 2;
  }
  if (pool > 1) PoolSlots(&runs.value(), pool);
  if (spread > 1) SpreadSlots(&runs.value(), spread);
  // history → variant → night → run
  // Each night's first `sessions` sessions make the night (nights with
  // fewer are left out).
  std::map<std::tuple<std::string, std::string, int>, std::vector<const NightRun*>> parts;
  for (const NightRun& r : runs.value()) parts[{r.history, r.variant, r.night}].push_back(&r);
  std::vector<std::unique_ptr<NightRun>> nights;
  ByHistory by;
  std::map<std::string, std::string> condition;
  for (auto& [slot, list] : parts) {
    std::sort(list.begin(), list.end(),
              [](const NightRun* a, const NightRun* b) { return a->session < b->session; });
    auto night = CombineSessions(list, sessions);
    if (!night) continue;
    by[night->history][night->variant][night->night] = night.get();
    condition[night->history] = night->condition;
    nights.push_back(std::move(night));
  }
  const Thresholds thresholds = DefaultThresholds();
  if (!show.empty()) return Show(by, show, thresholds);
  if (blockers) return Blockers(by, condition, thresholds, g_options);
  const char* names[] = {"night (new gate)", "night, estimate beyond thr.", "old gate", "bencher t-test (all metrics)",
                         "bencher t-test (end to end)", "flat 5% (all metrics)",
                         "flat 5% (end to end)"};
  // condition → rule → tallies
  struct Tallies {
    Tally aa_all, aa_5, conv10;
    std::size_t conv5_n = 0, conv5_gate = 0, conv5_any = 0;
  };
  std::map<std::string, std::vector<Tallies>> table;
  std::ofstream out_csv;
  if (!csv.empty()) {
    out_csv.open(csv);
    out_csv << "history,condition,sequence,night,rule,fail,pass,named,named_or_delegate,short\n";
  }
  const auto record = [&](const std::string& h, const char* seq, int night, const Rules& r) {
    if (!out_csv) return;
    const auto vs = All(r);
    for (int k = 0; k < 7; ++k) {
      out_csv << h << "," << condition[h] << "," << seq << "," << night << "," << names[k] << ","
              << vs[k]->fail << "," << vs[k]->pass << "," << vs[k]->named << "," << vs[k]->named_or_delegate << ","
              << vs[k]->short_history << "\n";
    }
  };
  // A night is judged only where the next recorded run of its variant can
  // stand in for the gate's confirmation run (the gate always has one):
  // each history's last night of each variant is left out.
  std::size_t unconfirmable = 0;
  for (const auto& [h, variants] : by) {
    auto& t = table[condition[h]];
    t.resize(7);
    if (!variants.count("base")) continue;
    const auto& base = variants.at("base");
    std::vector<const NightRun*> seq;
    for (const auto& [night, run] : base) {
      auto next = base.upper_bound(night);
      if (!seq.empty() && next == base.end()) ++unconfirmable;
      if (!seq.empty() && next != base.end()) {
        const Rules r = JudgeAll(seq, *run, next->second, thresholds);
        record(h, "aa", night, r);
        const auto vs = All(r);
        for (int k = 0; k < 7; ++k) {
          t[k].aa_all.Add(*vs[k]);
          if (seq.size() >= 5) t[k].aa_5.Add(*vs[k]);
        }
      }
      seq.push_back(run);
    }
    std::fprintf(stderr, "night_replay: %s (%s) A/A done\n", h.c_str(), condition[h].c_str());
    // Slow from night k: the k−1 base nights before it.
    std::vector<const NightRun*> prefix;
    for (const auto& [k, run] : base) {
      if (prefix.size() >= 5) {
        if (variants.count("conv10") && variants.at("conv10").count(k) &&
            variants.at("conv10").count(k + 1)) {
          const auto& c10 = variants.at("conv10");
          const Rules r = JudgeAll(prefix, *c10.at(k), c10.at(k + 1), thresholds);
          record(h, "conv10", k, r);
          const auto vs = All(r);
          for (int i = 0; i < 7; ++i) t[i].conv10.Add(*vs[i]);
        }
        if (variants.count("conv5")) {
          const auto& c5 = variants.at("conv5");
          if (c5.count(k) && c5.count(k + 1) && c5.count(k + 2) && c5.count(k + 3)) {
            std::vector<const NightRun*> s = prefix;
            bool gate[7] = {}, any = false;
            for (int j = k; j <= k + 2; ++j) {
              const Rules r = JudgeAll(s, *c5.at(j), c5.at(j + 1), thresholds);
              record(h, "conv5", j, r);
              if (g_trace_conv5) TraceConv5Night(s, *c5.at(j), j - k + 1, prefix.size(), r, thresholds);
              const auto vs = All(r);
              for (int i = 0; i < 7; ++i) gate[i] = gate[i] || vs[i]->fail;
              s.push_back(c5.at(j));
              any = any || DetectFinds(s, prefix.size(), thresholds);
            }
            for (int i = 0; i < 7; ++i) {
              ++t[i].conv5_n;
              t[i].conv5_gate += gate[i];
              t[i].conv5_any += gate[i] || (i <= 1 && any);
            }
          }
        }
      }
      prefix.push_back(run);
    }
    std::fprintf(stderr, "night_replay: %s slow sequences done\n", h.c_str());
  }
  for (const auto& [cond, t] : table) {
    std::printf("\n== %s ==\n", cond.c_str());
    std::printf("%-30s %-20s %-9s %-20s %-20s %-20s %-20s %-20s\n", "rule", "A/A exit 1 (all)",
                "95% upper", "A/A pass (>=5 nights)", "conv10 exit 1", "conv10 named first",
                "..conv or its deleg.", "conv5 within 3");
    for (int k = 0; k < 7; ++k) {
      char upper[16];
      std::snprintf(upper, sizeof upper, "%.1f%%", 100 * UpperBound(t[k].aa_all.fail, t[k].aa_all.n));
      std::printf("%-30s %-20s %-9s %-20s %-20s %-20s %-20s %-20s\n", names[k],
                  Rate(t[k].aa_all.fail, t[k].aa_all.n).c_str(), upper,
                  Rate(t[k].aa_5.pass, t[k].aa_5.n).c_str(),
                  Rate(t[k].conv10.fail, t[k].conv10.n).c_str(),
                  Rate(t[k].conv10.named, t[k].conv10.n).c_str(),
                  Rate(t[k].conv10.named_or_delegate, t[k].conv10.n).c_str(),
                  Rate(k <= 1 ? t[k].conv5_any : t[k].conv5_gate, t[k].conv5_n).c_str());
    }
    std::printf("night gate: A/A nights with a history too short to judge: %zu of %zu; conv5 "
                "found by the gate alone: %s\n",
                t[0].aa_all.short_history, t[0].aa_all.n,
                Rate(t[0].conv5_gate, t[0].conv5_n).c_str());
  }
  std::printf("left out: %zu A/A nights with no later run to stand in for the confirmation run "
              "(each history's last night; the conv sequences likewise)\n", unconfirmable);
  return 0;
}

}  // namespace
}  // namespace etbench::bench

int main(int argc, char** argv) { return etbench::bench::Main(argc, argv); }
