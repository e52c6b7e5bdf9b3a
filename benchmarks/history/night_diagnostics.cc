// night_replay's diagnostics (see night_diagnostics.h).

#include "night_diagnostics.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "etbench/history/change_points.h"
#include "etbench/history/detect.h"
#include "etbench/history/history_workflow.h"
#include "etbench/reports/row_reason.h"
#include "etbench/stats/stats.h"

namespace etbench::bench {

namespace {

void PrintRows(const NightGate& judged, const char* what) {
  std::printf("%s: %zu nights; outcome %s (%zu recent nights); machine level %+.2f%%\n", what,
              judged.nights, GateOutcomeName(judged.comparison.outcome), judged.recent_nights,
              100 * judged.machine_level);
  for (const MetricComparison& r : judged.comparison.rows) {
    std::printf("%-8s %-4s %-55s %+7.2f%% [%+7.2f%%, %+7.2f%%] thr %.1f%% p %.3g %s\n",
                VerdictName(r.verdict), r.gated ? "gate" : "-", r.label.c_str(), 100 * r.change,
                100 * r.ci_low, 100 * r.ci_high, 100 * r.threshold, r.p_value,
                reports::RowReason(r).c_str());
  }
}

}  // namespace

int Show(const ByHistory& by, const std::string& spec, const Thresholds& thresholds,
         const ReplayOptions& replay, const StandIn& stand_in) {
  const auto a = spec.find(':'), b = spec.rfind(':');
  const std::string h = spec.substr(0, a), variant = spec.substr(b + 1);
  const int night = std::atoi(spec.substr(a + 1, b - a - 1).c_str());
  if (!by.count(h) || !by.at(h).count(variant) || !by.at(h).at(variant).count(night)) return 2;
  std::vector<const NightRun*> before;
  for (const auto& [n, run] : by.at(h).at("base")) {
    if (n < night) before.push_back(run);
  }
  const std::vector<MetricSet> nights = FastTails(Segment(before, false, thresholds));
  const MetricSet tonight = FastTail(*by.at(h).at(variant).at(night));
  const Thresholds& rules = WithoutMeasuredMinDelta(thresholds);
  auto judged = CompareNights(nights, tonight, rules, replay.gate);
  if (!judged.ok() || judged->too_short) return 2;
  PrintRows(*judged, "single look");
  const NightRun* again = stand_in(h, variant, night);
  if (!again) return 0;
  NightGate decided;
  const Verdict2 v = NightGateVerdict(nights, tonight, again, rules, replay, &decided);
  if (decided.confirmed) PrintRows(decided, v.fail ? "with its confirmation run (fails)"
                                                   : "with its confirmation run");
  return 0;
}

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

void TraceConv5Night(const std::vector<const NightRun*>& before, const NightRun& tonight, int step,
                     std::size_t first_slow, const Verdict2& night, const Thresholds& thresholds,
                     const ReplayOptions& options) {
  const std::vector<const NightRun*> segment = Segment(before, false, thresholds);
  NightGateOptions single = options.gate;
  single.sustained_nights = 0;
  auto judged = CompareNights(FastTails(segment), FastTail(tonight),
                              WithoutMeasuredMinDelta(thresholds), single);
  std::printf("trace %s slow from %zu, night %d: %zu nights; gate %s", tonight.history.c_str(),
              first_slow + 1, step, segment.size(),
              night.fail ? "exit 1" : night.pass ? "pass" : "exit 0");
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
  history::DetectOptions detect;
  detect.thresholds = thresholds;
  const history::HistoryWindow window = WindowOf(with_tonight);
  const history::Detection d = history::DetectChangePoints(window, detect, {});
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
                  history::BestSplit(p10, 0, p10.size(), detect.min_segment).p_value,
                  d.metrics_tested);
    }
  }
  std::printf("\n");
}

void TraceNight(const char* what, const std::vector<const NightRun*>& before,
                const NightRun& tonight, const NightRun* again, const Verdict2& night,
                const Thresholds& thresholds, const ReplayOptions& options) {
  const std::vector<const NightRun*> segment = Segment(before, false, thresholds);
  NightGate decided;
  const Verdict2 gate = NightGateVerdict(FastTails(segment), FastTail(tonight), again,
                                         WithoutMeasuredMinDelta(thresholds), options, &decided);
  std::printf("%s %s night %d: %zu nights; %s", what, tonight.history.c_str(), tonight.night,
              segment.size(), night.fail ? "exit 1" : night.pass ? "pass" : "exit 0");
  if (!night.fail && !night.pass) {
    std::printf(night.short_history ? " (history too short)" : " (no regression detected)");
  }
  if (!decided.too_short) {
    std::printf("; gate %s by the %s look (%zu nights)%s; machine level %+.1f%%",
                gate.fail ? "fails" : "does not fail",
                decided.recent_nights >= 2 ? "sustained" : "single", decided.nights,
                decided.confirmed ? " with its confirmation run" : "", 100 * decided.machine_level);
    std::vector<const MetricComparison*> counted;
    for (const MetricComparison& r : decided.comparison.rows) {
      if (r.gated && r.verdict == Verdict::kRegression) counted.push_back(&r);
    }
    // Parts first, by the time they added (the first is what is named
    // first), then the end-to-end rows.
    std::stable_sort(counted.begin(), counted.end(),
                     [](const MetricComparison* a, const MetricComparison* b) {
                       if (a->end_to_end != b->end_to_end) return !a->end_to_end;
                       return a->change * a->baseline_value > b->change * b->baseline_value;
                     });
    for (const MetricComparison* r : counted) {
      std::printf("; %s/%s %+.1f%% [%+.1f%%, %+.1f%%]", r->key.model.c_str(), r->label.c_str(),
                  100 * r->change, 100 * r->ci_low, 100 * r->ci_high);
    }
    // A night that neither fails nor passes: the gated rows that kept it
    // from "pass" (not decided unchanged).
    if (!gate.fail && !gate.pass) {
      for (const MetricComparison& r : decided.comparison.rows) {
        if (!r.gated || r.verdict == Verdict::kUnchanged) continue;
        std::printf("; blocks: %s/%s %s %+.1f%% [%+.1f%%, %+.1f%%] thr %.1f%%", r.key.model.c_str(),
                    r.label.c_str(), VerdictName(r.verdict), 100 * r.change, 100 * r.ci_low,
                    100 * r.ci_high, 100 * r.threshold);
      }
    }
  }
  std::vector<const NightRun*> with_tonight = before;
  with_tonight.push_back(&tonight);
  history::DetectOptions detect;
  detect.thresholds = thresholds;
  for (const history::ChangePoint& cp :
       history::ConfirmedByNewestRun(WindowOf(with_tonight), detect).confirmed) {
    std::printf(
        "; change point confirmed: %s/%s %+.1f%% [%+.1f%%, %+.1f%%] from night %zu (%zu runs "
        "before, %zu after, p %.2g)",
        cp.key.model.c_str(), cp.label.c_str(), 100 * cp.change, 100 * cp.change_low,
        100 * cp.change_high, cp.index + 1, cp.runs_before, cp.runs_after, cp.p_value);
  }
  std::printf("\n");
}

}  // namespace etbench::bench
