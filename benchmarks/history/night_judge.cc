// What night_replay judges with (see night_judge.h).

#include "night_judge.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <vector>

#include "etbench/compare/ab_schedule.h"
#include "etbench/history/change_points.h"
#include "etbench/history/detect.h"

namespace etbench::bench {

bool IsConv(const std::string& name) { return name.find("convolution") != std::string::npos; }

bool IsConvDelegate(const MetricKey& key) {
  return key.model == "mobilenet_v2_block" && key.name == "DELEGATE_CALL";
}

const MetricComparison* NamedFirst(const Comparison& c) {
  const MetricComparison* first = nullptr;
  double best = -1;
  // Named first: the counted per-operator regression that added the most
  // time (what moved Method::execute most, as the attribution ranks parts).
  for (const MetricComparison& r : c.rows) {
    if (!r.gated || r.end_to_end || r.verdict != Verdict::kRegression) continue;
    const double added = r.change * r.baseline_value;
    if (added > best) {
      best = added;
      first = &r;
    }
  }
  return first;
}

std::optional<MetricKey> NamedOrAttributedFirst(const Comparison& c) {
  if (const MetricComparison* first = NamedFirst(c)) return first->key;
  for (const MetricComparison& r : c.rows) {
    if (!r.gated || !r.end_to_end || r.verdict != Verdict::kRegression) continue;
    if (MetricEventRole(r.key) != EventRole::kMethodExecute) continue;
    for (const Attribution& a : c.attributions) {
      if (a.model != r.key.model || a.block != r.key.block) continue;
      for (const AttributionItem& item : a.items) {  // largest |delta| first
        if (item.key && item.delta > 0) return item.key;
      }
    }
  }
  return std::nullopt;
}

Verdict2 FromComparison(const Comparison& c) {
  Verdict2 v;
  v.fail = c.outcome == GateOutcome::kRegression;
  v.pass = c.outcome == GateOutcome::kPass;
  const MetricComparison* first = NamedFirst(c);
  v.named = first && IsConv(first->key.name);
  v.named_or_delegate = first && (v.named || IsConvDelegate(first->key));
  const std::optional<MetricKey> attributed = NamedOrAttributedFirst(c);
  v.named_attributed =
      attributed && (IsConv(attributed->name) || IsConvDelegate(*attributed) ||
                     (attributed->model == "mobilenet_v2_block" &&
                      MetricEventRole(*attributed) == EventRole::kDelegateEvent));
  return v;
}

MetricSet LowerDeciles(const NightRun& run, const std::set<std::string>& models) {
  MetricSet out;
  out.context = run.metrics.context;
  for (std::size_t m = 0; m < run.metrics.metrics.size(); ++m) {
    const Metric& metric = run.metrics.metrics[m];
    if (!models.count(metric.key.model)) continue;
    Metric one = metric;
    one.samples = {run.p10[m]};
    one.group_sizes.clear();
    one.session_sizes.clear();
    out.metrics.push_back(std::move(one));
  }
  return out;
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

// The nightly gate as `gate --baseline history` runs it: judged, and when
// it finds a regression judged again with the confirmation run.
Verdict2 NightGateVerdict(const std::vector<MetricSet>& nights, const MetricSet& candidate,
                          const NightRun* again, const Thresholds& thresholds,
                          const ReplayOptions& replay, NightGate* decided) {
  const NightGateOptions& options = replay.gate;
  Verdict2 v;
  auto judged = CompareNights(nights, candidate, thresholds, options);
  const GateOutcome first = judged.ok() ? judged->comparison.outcome : GateOutcome::kPass;
  // As the gate does: with --recheck-inconclusive whenever
  // ModelsToMeasureAgain names a model (a "pass" can too: a part whose
  // move Method::execute ruled out), else on a regression.
  if (judged.ok() && !judged->too_short && again &&
      (first == GateOutcome::kRegression ||
       (replay.recheck_inconclusive && !ModelsToMeasureAgain(judged->comparison).empty()))) {
    MetricSet confirmation = FastTail(*again);
    const std::vector<std::string> suspects = replay.recheck_inconclusive
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
  if (judged.ok() && decided) *decided = judged.value();
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

// Clopper–Pearson 95% upper bound of a rate of k in n (by bisection on the
// binomial tail). The tail's terms are summed from their logarithms: (1 − p)^n
// underflows to 0 for rates near a half over ~1000 nights, which made the
// bound collapse onto the rate itself.
double UpperBound(std::size_t k, std::size_t n) {
  if (n == 0) return 1;
  if (k >= n) return 1;
  const double nn = static_cast<double>(n);
  std::vector<double> log_choose(k + 1);  // log C(n, i), the same at every p
  for (std::size_t i = 0; i <= k; ++i) {
    const double ii = static_cast<double>(i);
    log_choose[i] = std::lgamma(nn + 1) - std::lgamma(ii + 1) - std::lgamma(nn - ii + 1);
  }
  const auto tail = [&](double p) {  // P(X ≤ k)
    const double log_p = std::log(p), log_q = std::log1p(-p);
    double sum = 0;
    for (std::size_t i = 0; i <= k; ++i) {
      const double ii = static_cast<double>(i);
      sum += std::exp(log_choose[i] + ii * log_p + (nn - ii) * log_q);
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

}  // namespace etbench::bench
