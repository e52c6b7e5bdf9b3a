#include "etbench/history/history_workflow.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>

#include "etbench/compare/ab_schedule.h"
#include "etbench/stats/stats.h"

namespace etbench::history {
namespace {

// The first run (window position) at or after `since`: an ISO time, or a
// commit prefix (the first run of that commit).
std::size_t SincePosition(const std::vector<RunSummary>& runs, const std::string& since) {
  if (since.empty()) return 0;
  if (IsIsoTime(since)) {
    for (std::size_t i = 0; i < runs.size(); ++i) {
      if (runs[i].time >= since) return i;
    }
    return runs.size();
  }
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (!runs[i].git_commit.empty() && runs[i].git_commit.rfind(since, 0) == 0) return i;
  }
  return runs.size();
}

// Detection for a gate's baseline: the stable segment starts after the last
// change point that counts as the gate counts it (the gate's thresholds;
// parts of Method::execute only when they matter end to end, unless
// `every_part`). A part's own small step stays inside the segment: the
// nightly model judges that part by the spread of its nights, and
// restarting the baseline at every memory-bound operator's step would keep
// the history too short to judge anything.
DetectOptions GateOptions(const Thresholds& thresholds = DefaultThresholds(),
                          bool every_part = false) {
  DetectOptions options;
  options.end_to_end_only = !every_part;
  options.thresholds = thresholds;
  return options;
}

// The candidate's own history: its suite on its device and host.
RunFilter CandidateFilter(const MetricSet& candidate) {
  RunFilter filter;
  filter.suite = ContextValue(candidate, "suite");
  filter.device = ContextValue(candidate, "device");
  filter.host = ContextValue(candidate, "host");
  return filter;
}

// `window` without its newest run (and that run's points).
HistoryWindow WithoutNewest(HistoryWindow window) {
  const int64_t newest = window.runs.back().id;
  window.runs.pop_back();
  for (MetricHistory& h : window.metrics) {
    h.points.erase(std::remove_if(h.points.begin(), h.points.end(),
                                  [newest](const SeriesPoint& p) { return p.run == newest; }),
                   h.points.end());
  }
  return window;
}

}  // namespace

Status CheckSince(const std::vector<RunSummary>& runs, const std::string& since) {
  if (since.empty() || IsIsoTime(since)) return Ok{};
  const bool a_commit = std::any_of(runs.begin(), runs.end(), [&since](const RunSummary& r) {
    return r.git_commit.rfind(since, 0) == 0;
  });
  if (a_commit) return Ok{};
  return InputError("--since '" + since +
                    "' is neither a date (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ, UTC) nor a commit "
                    "(or commit prefix) of a run in the history");
}

Result<std::vector<DetectionGroup>> DetectAll(HistoryStore& store, const RunFilter& filter,
                                              const std::string& since,
                                              const DetectOptions& options) {
  auto runs = store.ListRuns(filter);
  if (!runs.ok()) return runs.error();
  if (Status valid = CheckSince(runs.value(), since); !valid.ok()) return valid.error();
  std::map<std::pair<std::string, std::string>, bool> groups;
  for (const RunSummary& r : runs.value()) groups[{r.suite, r.device}] = true;
  auto acknowledged = store.Acknowledged();
  if (!acknowledged.ok()) return acknowledged.error();
  std::vector<DetectionGroup> out;
  for (const auto& [group, unused] : groups) {
    RunFilter f = filter;
    f.suite = group.first;
    f.device = group.second;
    auto window = store.Load(f, "*", false);
    if (!window.ok()) return window.error();
    DetectionGroup g;
    g.suite = group.first;
    g.device = group.second;
    g.detection = DetectChangePoints(window.value(), options, acknowledged.value());
    const std::size_t from = SincePosition(window->runs, since);
    for (auto* cps : {&g.detection.change_points, &g.detection.parts_not_counted}) {
      cps->erase(std::remove_if(cps->begin(), cps->end(),
                                [&](const ChangePoint& c) { return c.index < from; }),
                 cps->end());
    }
    g.window = std::move(window).value();
    out.push_back(std::move(g));
  }
  return out;
}

namespace {

// BaselineFromHistory; `before_tonight`: the history does not hold
// tonight's run yet (the gate), and the note says so, so that it cannot be
// read against a change point tonight's run confirms (whose first nights
// are among these runs).
Result<HistoryBaseline> StableSegment(HistoryStore& store, const RunFilter& filter,
                                      const DetectOptions& options,
                                      bool restart_at_machine_shifts, bool before_tonight) {
  auto window = store.Load(filter, "*", false);
  if (!window.ok()) return window.error();
  HistoryBaseline baseline;
  baseline.runs_available = window->runs.size();
  if (window->runs.empty()) return baseline;
  auto acknowledged = store.Acknowledged();
  if (!acknowledged.ok()) return acknowledged.error();
  const Detection detection = DetectChangePoints(window.value(), options, acknowledged.value());
  std::size_t start = StableSegmentStart(detection);
  if (!restart_at_machine_shifts) {
    start = 0;
    for (const ChangePoint& cp : detection.change_points) start = std::max(start, cp.index);
  }

  // Samples only for the stable segment.
  RunFilter segment = filter;
  segment.since = window->runs[start].time;
  auto with_samples = store.Load(segment, "*", true);
  if (!with_samples.ok()) return with_samples.error();
  // Runs that share the first run's time (history add --date, a clock that
  // did not move) but came before it are not in the segment: keep exactly
  // the window's runs from `start` on.
  std::set<int64_t> in_segment;
  for (std::size_t i = start; i < window->runs.size(); ++i) in_segment.insert(window->runs[i].id);
  with_samples->runs.erase(std::remove_if(with_samples->runs.begin(), with_samples->runs.end(),
                                          [&in_segment](const RunSummary& r) {
                                            return in_segment.count(r.id) == 0;
                                          }),
                           with_samples->runs.end());
  std::map<int64_t, MetricSet> per_run;
  for (const RunSummary& r : with_samples->runs) {
    MetricSet set;
    set.context = r.context;
    per_run.emplace(r.id, std::move(set));
  }
  for (const MetricHistory& h : with_samples->metrics) {
    for (const SeriesPoint& p : h.points) {
      if (!in_segment.count(p.run)) continue;
      Metric m = h.metric;
      m.samples = p.samples;
      m.group_sizes = p.group_sizes;
      m.session_sizes = p.session_sizes;
      per_run[p.run].metrics.push_back(std::move(m));
    }
  }
  std::vector<MetricSet> sets;
  // Newest first, so the newest run's context wins where runs differ.
  for (auto it = with_samples->runs.rbegin(); it != with_samples->runs.rend(); ++it) {
    sets.push_back(std::move(per_run[it->id]));
  }
  auto merged = MergeMetricSets(sets);
  if (!merged.ok()) return merged.error();
  baseline.nights.assign(std::make_move_iterator(sets.rbegin()),
                         std::make_move_iterator(sets.rend()));
  baseline.metrics = std::move(merged).value();
  baseline.runs_used = with_samples->runs.size();
  baseline.first_commit = with_samples->runs.front().git_commit;
  const std::string runs = std::to_string(baseline.runs_used) + (before_tonight ? " earlier" : "") +
                           " run" + (baseline.runs_used == 1 ? "" : "s");
  if (start != 0) {
    baseline.note = runs + " since the change point at " + window->runs[start].git_commit + " (" +
                    window->runs[start].time + ")";
  } else if (before_tonight) {
    baseline.note = runs + " (no change point before tonight)";
  } else {
    baseline.note = runs + " (no change point in " + std::to_string(baseline.runs_available) +
                    (baseline.runs_available == 1 ? " run)" : " runs)");
  }
  return baseline;
}

}  // namespace

Result<HistoryBaseline> BaselineFromHistory(HistoryStore& store, const RunFilter& filter,
                                            const DetectOptions& options,
                                            bool restart_at_machine_shifts) {
  return StableSegment(store, filter, options, restart_at_machine_shifts,
                       /*before_tonight=*/false);
}

Result<HistoryBaseline> BaselineForCandidate(HistoryStore& store, const MetricSet& candidate,
                                             const Thresholds& thresholds, bool every_part) {
  const RunFilter filter = CandidateFilter(candidate);
  // The nightly model removes the machine's level night by night, so a
  // machine shift does not restart its baseline (only a change point does).
  return StableSegment(store, filter, GateOptions(thresholds, every_part),
                       /*restart_at_machine_shifts=*/false, /*before_tonight=*/true);
}

Result<HistoryBaseline> BaselineForCandidate(const std::string& spec, const MetricSet& candidate,
                                             const Thresholds& thresholds, bool every_part) {
  auto store = OpenHistory(spec);
  if (!store.ok()) return store.error();
  return BaselineForCandidate(*store.value(), candidate, thresholds, every_part);
}

Result<HistoryBaseline> BaselineForSuite(const std::string& spec, const std::string& suite) {
  auto store = OpenHistory(spec);
  if (!store.ok()) return store.error();
  return BaselineForSuite(*store.value(), suite);
}

Result<HistoryBaseline> BaselineForSuite(HistoryStore& store, const std::string& suite) {
  RunFilter filter;
  filter.suite = suite;
  auto runs = store.ListRuns(filter);
  if (!runs.ok()) return runs.error();
  if (runs->empty()) return HistoryBaseline{};
  filter.device = runs->back().device;
  filter.host = runs->back().host;
  // A baseline file is also compared by Compare (fewer than 5 runs), which
  // judges every operator on its own: a segment spanning an operator's two
  // levels would leave it inconclusive, so every part's change restarts it.
  return BaselineFromHistory(store, filter, GateOptions(DefaultThresholds(), /*every_part=*/true));
}

ConfirmedTonight ConfirmedByNewestRun(const HistoryWindow& window, const DetectOptions& options,
                                      const std::set<std::string>& acknowledged) {
  ConfirmedTonight out;
  if (window.runs.size() < 2) return out;
  const Detection now = DetectChangePoints(window, options, acknowledged);
  const Detection before = DetectChangePoints(WithoutNewest(window), options, acknowledged);
  const auto known = [&before](const ChangePoint& cp) {
    return std::any_of(before.change_points.begin(), before.change_points.end(),
                       [&cp](const ChangePoint& b) {
                         const std::size_t apart =
                             b.index > cp.index ? b.index - cp.index : cp.index - b.index;
                         return b.regression && b.key == cp.key && apart <= 2;
                       });
  };
  for (const ChangePoint& cp : now.change_points) {
    if (!cp.regression || cp.acknowledged) continue;
    // Tonight must be the change's min_segment-th run at the new level: a
    // change point that only moved, or an old one that just crossed the
    // false discovery rate, is not tonight's news (on the idle VM's A/A
    // nights those were most of the "new" ones).
    const bool tonights = cp.index + options.min_segment >= window.runs.size();
    if (known(cp) || !tonights) {
      ++out.older_open;
    } else {
      out.confirmed.push_back(cp);
    }
  }
  return out;
}

HistoryWindow WithNewestFaster(HistoryWindow window, const MetricSet& confirmation) {
  if (window.runs.empty()) return window;
  const int64_t newest = window.runs.back().id;
  std::map<MetricKey, double> again;
  for (const Metric& m : confirmation.metrics) {
    // As the store keeps a run's value (SqlHistoryStore::AddRun).
    if (!m.samples.empty()) again.emplace(m.key, StatisticOf(m.samples, Statistic::kP10));
  }
  for (MetricHistory& h : window.metrics) {
    auto it = again.find(h.metric.key);
    if (it == again.end()) continue;
    for (SeriesPoint& p : h.points) {
      if (p.run == newest) p.p10 = std::min(p.p10, it->second);
    }
  }
  return window;
}

Result<ConfirmedTonight> RegressionsConfirmedTonight(const std::string& spec,
                                                     const MetricSet& candidate,
                                                     const Thresholds& thresholds,
                                                     bool every_part,
                                                     const MetricSet* confirmation) {
  auto store = OpenHistory(spec);
  if (!store.ok()) return store.error();
  return RegressionsConfirmedTonight(*store.value(), candidate, thresholds, every_part,
                                     confirmation);
}

Result<ConfirmedTonight> RegressionsConfirmedTonight(HistoryStore& store,
                                                     const MetricSet& candidate,
                                                     const Thresholds& thresholds,
                                                     bool every_part,
                                                     const MetricSet* confirmation) {
  auto window = store.Load(CandidateFilter(candidate), "*", false);
  if (!window.ok()) return window.error();
  auto acknowledged = store.Acknowledged();
  if (!acknowledged.ok()) return acknowledged.error();
  return ConfirmedByNewestRun(
      confirmation ? WithNewestFaster(std::move(window).value(), *confirmation) : window.value(),
      GateOptions(thresholds, every_part), acknowledged.value());
}

}  // namespace etbench::history
