#include "etbench/history/detect.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

#include "etbench/base/sha256.h"
#include "etbench/base/units.h"
#include "etbench/compare/thresholds.h"
#include "etbench/history/change_points.h"
#include "etbench/stats/bootstrap.h"
#include "etbench/stats/fdr.h"
#include "etbench/stats/stats.h"

namespace etbench::history {
namespace {

// One metric's per-run statistics, the window positions of their runs, and
// the metric.
struct Series : RunSeries {
  const MetricHistory* history = nullptr;
};

// Metrics whose values the machine's speed scales (what the level is made of
// and removed from); percentages and bytes are not.
bool ScalesWithMachineSpeed(const std::string& unit) {
  const UnitInfo* u = FindUnit(unit);
  return u != nullptr && (u->family == UnitFamily::kTime || u->family == UnitFamily::kCycles);
}

double MedianOf(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return ComputeStatistic(values, Statistic::kP50);
}

// The smallest relative change of the per-run statistic that counts:
// --min-change, and for an end-to-end metric (Method::execute, the load
// path, a benchmark) or an allocator also its gate rule's `relative`
// (thresholds.yaml: 2% end to end, 10% for Program::load_method and
// Method::init, 1% allocations): what the gate calls too small is too small
// here. Allocators are not end_to_end metrics (to_metrics.cc), so they are
// named. The framework tax is judged in percentage points
// (min_percent_points and EndToEndMateriality), operators by what they do
// end to end.
double MinRelativeChange(const Metric& metric, const DetectOptions& options) {
  const bool gated = metric.end_to_end || metric.key.kind == MetricKind::kAllocation;
  if (!gated || metric.key.kind == MetricKind::kFrameworkTax) return options.min_change;
  return std::max(options.min_change, ResolveRule(options.thresholds, metric).rule.relative);
}

// The range of loadings the machine explains: Tukey's fences over the
// group's loadings, [Q1 − 1.5·IQR, Q3 + 1.5·IQR] within [0, kMaxLoading].
struct LoadingFences {
  double low = 0;
  double high = kMaxLoading;
};

// A metric's loading is its jump across the machine's shifts over the
// level's jump (MachineLoading). When the code changes the metric at the
// very run the machine shifts — a new user's slow runs recorded in another
// session than the base runs, a new machine state with every new build — its
// own step is part of that jump, and a loading of up to kMaxLoading took
// it for the machine: on a real history (new_user_history.sh) toy_cnn's
// conv2d +15% at a +5.4% shift got loading 3 and no change point at all
// (docs/history.md, "A change at a machine shift"). One edge cannot tell a
// metric that follows the machine 3× from a code change; the other metrics
// can: a code change moves a few of them, so their loadings say how
// strongly metrics of this machine follow it, and what lies beyond the
// fences is the metric's own. Too few loadings for quartiles: the fixed
// range.
LoadingFences FencesOf(std::vector<double> loadings) {
  LoadingFences fences;
  if (loadings.size() < kMinLevelMetrics) return fences;
  std::sort(loadings.begin(), loadings.end());
  // numpy's linear quantile of the sorted loadings.
  const auto quantile = [&loadings](double q) {
    const double at = q * static_cast<double>(loadings.size() - 1);
    const std::size_t below = static_cast<std::size_t>(at);
    const std::size_t above = std::min(below + 1, loadings.size() - 1);
    const double fraction = at - static_cast<double>(below);
    return loadings[below] + fraction * (loadings[above] - loadings[below]);
  };
  const double q1 = quantile(0.25), q3 = quantile(0.75);
  fences.low = std::clamp(q1 - 1.5 * (q3 - q1), 0.0, kMaxLoading);
  fences.high = std::clamp(q3 + 1.5 * (q3 - q1), fences.low, kMaxLoading);
  return fences;
}

// The level of `group` (time metrics) per run, its shifts, and their
// removal from each of the group's metrics (machine_shift.h).
std::vector<MachineShift> RemoveShiftsOf(const std::vector<Series*>& group, const std::string& name,
                                         const std::vector<RunSummary>& runs,
                                         const DetectOptions& options,
                                         const std::set<std::string>& acknowledged) {
  // No time metric (every model of every run failed, or only bytes and
  // percentages): no level, and no median of their thresholds to take.
  if (group.empty()) return {};
  const std::vector<const RunSeries*> timed(group.begin(), group.end());
  const std::vector<double> level = MachineLevel(timed, runs.size());
  MachineShiftOptions shift_options;
  shift_options.alpha = options.fdr_q;
  shift_options.min_segment = options.min_segment;
  shift_options.min_change = options.min_change;
  std::vector<double> practical;
  for (const Series* s : group) practical.push_back(MinRelativeChange(s->history->metric, options));
  shift_options.min_code_change = MedianOf(practical);
  shift_options.ack_within = options.ack_within;
  shift_options.seed = options.seed;
  shift_options.jump.alpha = options.fdr_q;
  shift_options.jump.min_segment = options.min_segment;
  shift_options.group = name;
  std::vector<MachineShift> shifts = FindMachineShifts(level, timed, runs, shift_options, acknowledged);
  for (MachineShift& m : shifts) {
    m.regression = m.possible_code_change ||
                   (options.machine_shifts_are_regressions && m.change > 0);
  }
  if (shifts.empty()) return shifts;  // a level that did not shift: nothing to remove
  const std::vector<double> shift_level = ShiftLevel(level, shifts);
  std::vector<double> loadings;
  for (const Series* s : group) {
    loadings.push_back(MachineLoading(*s, shift_level, shift_options.jump));
  }
  const LoadingFences fences = FencesOf(loadings);
  for (std::size_t i = 0; i < group.size(); ++i) {
    RemoveMachineLevel(shift_level, std::clamp(loadings[i], fences.low, fences.high), group[i]);
  }
  return shifts;
}

// The machine's level, removed from every time metric; then each block's own
// level across models, removed from its metrics. The load path (block
// Default: Program::load_method and Method::init of every model) shifts on
// its own — on the shared VM all four models' loads got 4–7% faster at one
// run while execution did not move — and with 8 of the default suite's 112
// time metrics it cannot move the machine's median. A block is a role every
// model has, so a code change of one model moves a fraction of it; a level
// per model would follow a change of a model with few operators (the
// mobilenet block: the convolution slowdown moves 6 of its 10 time metrics).
// A block that holds more than half of the time metrics decides the
// machine's median: its level is the machine's (with an injected machine
// shift, a second level of `Execute` reported ±2% "shifts" of its own that
// were only the shifted metrics' different loadings).
std::vector<MachineShift> RemoveMachineShifts(std::vector<Series>& series,
                                              const std::vector<RunSummary>& runs,
                                              const DetectOptions& options,
                                              const std::set<std::string>& acknowledged) {
  std::vector<Series*> timed;
  std::map<std::string, std::vector<Series*>> blocks;
  for (Series& s : series) {
    if (!ScalesWithMachineSpeed(s.history->metric.unit)) continue;
    timed.push_back(&s);
    blocks[s.history->metric.key.block].push_back(&s);
  }
  std::vector<MachineShift> shifts = RemoveShiftsOf(timed, "", runs, options, acknowledged);
  if (!options.group_levels) return shifts;
  for (const auto& [block, members] : blocks) {
    if (2 * members.size() > timed.size()) continue;
    std::vector<MachineShift> more = RemoveShiftsOf(members, block, runs, options, acknowledged);
    shifts.insert(shifts.end(), more.begin(), more.end());
  }
  std::stable_sort(shifts.begin(), shifts.end(), [](const MachineShift& a, const MachineShift& b) {
    return a.index < b.index;
  });
  return shifts;
}

// The series' values whose runs lie in window positions [begin, end).
std::vector<double> ValuesIn(const Series& s, std::size_t begin, std::size_t end) {
  std::vector<double> out;
  for (std::size_t i = 0; i < s.values.size(); ++i) {
    if (s.run_index[i] >= begin && s.run_index[i] < end) out.push_back(s.values[i]);
  }
  return out;
}

// Per-run medians of every metric of one model/block in [begin, end) as a
// MetricSet, so that compare's attribution can split the execute change.
MetricSet SegmentSet(const std::vector<Series>& all, const MetricKey& execute, std::size_t begin,
                     std::size_t end) {
  MetricSet set;
  for (const Series& s : all) {
    const Metric& m = s.history->metric;
    if (m.key.model != execute.model || m.key.block != execute.block) continue;
    Metric copy = m;
    copy.samples = ValuesIn(s, begin, end);
    if (!copy.samples.empty()) set.metrics.push_back(std::move(copy));
  }
  return set;
}

void AddAttribution(const std::vector<Series>& all, std::size_t segment_begin,
                    std::size_t segment_end, ChangePoint* cp) {
  const MetricSet before = SegmentSet(all, cp->key, segment_begin, cp->index);
  const MetricSet after = SegmentSet(all, cp->key, cp->index, segment_end);
  for (Attribution& a : ComputeAttribution(before, after)) {
    if (a.model == cp->key.model && a.block == cp->key.block) cp->attribution = std::move(a);
  }
}

// Drops the points of runs that background load slowed as a whole. A run's
// load on a model is the median, over the model's metrics in time units, of
// the log ratio of the run's value to the metric's median over the window:
// load slows every operator of the run, while a code change moves a few, so
// the median stays near 0 unless the whole run was slowed. Measured on the
// shared VM, loaded runs stand at +0.4 to +0.9 and quiet runs within ±0.1.
// The test itself is trimmed, but several loaded runs around a change (a
// busy afternoon) are more than trimming absorbs.
void DropLoadedRuns(std::vector<Series>& series, std::size_t run_count, double cutoff,
                    std::size_t min_segment) {
  std::unordered_map<std::string, std::vector<std::vector<double>>> ratios;  // model → run → logs
  for (const Series& s : series) {
    if (s.history->metric.unit == "percent" || s.values.size() < 3) continue;
    const double median = MedianOf(s.values);
    if (!(median > 0)) continue;
    auto& per_run = ratios[s.history->metric.key.model];
    per_run.resize(run_count);
    for (std::size_t i = 0; i < s.values.size(); ++i) {
      if (s.values[i] > 0) per_run[s.run_index[i]].push_back(std::log(s.values[i] / median));
    }
  }
  std::unordered_map<std::string, std::vector<bool>> loaded;
  for (auto& [model, per_run] : ratios) {
    std::vector<bool>& flags = loaded[model];
    flags.resize(run_count, false);
    for (std::size_t r = 0; r < run_count; ++r) {
      flags[r] = !per_run[r].empty() && MedianOf(per_run[r]) > cutoff;
    }
  }
  // Load comes and goes; a change of the code that slows a whole model
  // stays. A block of consecutive slow runs longer than 2 × min_segment is
  // such a change, and so is a block of at least min_segment runs that
  // reaches the newest run while most other models were not slow in it (load
  // slows every model of a run; a slowdown of all models at the end of the
  // window stays out until it has lasted longer than 2 × min_segment runs).
  std::vector<std::size_t> slow_models(run_count, 0);
  for (const auto& [model, flags] : loaded) {
    for (std::size_t r = 0; r < run_count; ++r) slow_models[r] += flags[r] ? 1 : 0;
  }
  for (auto& [model, flags] : loaded) {
    for (std::size_t r = 0; r < run_count;) {
      if (!flags[r]) {
        ++r;
        continue;
      }
      std::size_t end = r;
      std::size_t machine_wide = 0;
      for (; end < run_count && flags[end]; ++end) {
        const bool most_others_slow =
            loaded.size() > 1 && 2 * (slow_models[end] - 1) >= loaded.size() - 1;
        if (most_others_slow) ++machine_wide;
      }
      const std::size_t length = end - r;
      const bool newest = end == run_count && length >= min_segment && 2 * machine_wide < length;
      if (newest || length > 2 * min_segment) {
        std::fill(flags.begin() + static_cast<std::ptrdiff_t>(r),
                  flags.begin() + static_cast<std::ptrdiff_t>(end), false);
      }
      r = end;
    }
  }
  for (Series& s : series) {
    auto it = loaded.find(s.history->metric.key.model);
    if (it == loaded.end()) continue;
    std::size_t kept = 0;
    for (std::size_t i = 0; i < s.values.size(); ++i) {
      if (it->second[s.run_index[i]]) continue;
      s.values[kept] = s.values[i];
      s.run_index[kept] = s.run_index[i];
      ++kept;
    }
    s.values.resize(kept);
    s.run_index.resize(kept);
  }
}

// The smallest change of a time metric the measurement resolves: compare's
// `min_delta: auto` (MinDeltaFor), so that the history and the gate agree on
// what is too small to be the code. Two clock ticks, measured as MinDeltaFor
// measures them (the smallest gap between distinct values, here the
// window's per-run values of the two segments), and for an operator event
// the cost of recording one event (EventOverhead: how much longer an
// OPERATOR_CALL takes than the kernel call it wraps, the median over the
// window's instructions). On the shared VM the clock reads in 10 ns steps
// (tick_rate_hz says 1 ns, and the samples jitter by 1 ns around the
// steps), so two nominal or measured ticks are 2 ns; the event overhead is
// ~50 ns, and a sub-microsecond operator's lower decile moving by one 10 ns
// step (0.310 → 0.320 us, +3%) is below it, as it is below the gate's floor.
class ResolutionFloor {
 public:
  explicit ResolutionFloor(const std::vector<Series>& series) : series_(series) {}

  double For(const Metric& metric, const std::vector<double>& before,
             const std::vector<double>& after) {
    Metric a = metric, b = metric;
    a.samples = before;
    b.samples = after;
    const std::optional<double> floor =
        MinDeltaFor(MinDelta{0, "", true}, a, b, OverheadIn(metric.unit));
    return floor.value_or(0);
  }

 private:
  // EventOverhead over the window's per-run values, once per unit.
  double OverheadIn(const std::string& unit) {
    auto it = overhead_.find(unit);
    if (it != overhead_.end()) return it->second;
    MetricSet set;
    for (const Series& s : series_) {
      const Metric& m = s.history->metric;
      if (m.unit != unit || m.key.kind != MetricKind::kEvent || m.end_to_end ||
          !m.key.instruction_id) {
        continue;
      }
      set.metrics.push_back(m);
      set.metrics.back().samples = s.values;
    }
    return overhead_[unit] = EventOverhead(set, unit);
  }

  const std::vector<Series>& series_;
  std::map<std::string, double> overhead_;
};

bool IsExecute(const MetricKey& key) {
  return MetricEventRole(key) == EventRole::kMethodExecute;
}

// Runs between two change points.
std::size_t RunsApart(const ChangePoint& a, const ChangePoint& b) {
  return a.index > b.index ? a.index - b.index : b.index - a.index;
}

// Parts of a model's Method::execute: its operator, kernel, delegate and
// delegate-internal events and its framework tax.
bool IsPartOfExecute(const ChangePoint& cp) {
  if (cp.key.kind == MetricKind::kFrameworkTax) return true;
  return cp.key.kind == MetricKind::kEvent && !cp.end_to_end;
}

// Whether a part's change matters end to end (DetectOptions::end_to_end_only):
// it would move its model's Method::execute by at least min_change of the
// window's median Method::execute, or Method::execute itself has a change
// point within together_within runs of it (then the part is where that
// change went). Without a Method::execute in its block (Google Benchmark
// results, synthetic series) every change matters.
class EndToEndMateriality {
 public:
  EndToEndMateriality(const std::vector<Series>& series, const std::vector<ChangePoint>& found,
                      const DetectOptions& options)
      : min_change_(options.min_change), together_within_(options.together_within) {
    for (const Series& s : series) {
      const Metric& m = s.history->metric;
      if (IsExecute(m.key) && !s.values.empty()) {
        execute_[{m.key.model, m.key.block}].level = {MedianOf(s.values), m.unit};
      }
    }
    for (const ChangePoint& cp : found) {
      auto it = execute_.find({cp.key.model, cp.key.block});
      if (IsExecute(cp.key) && it != execute_.end()) it->second.changes.push_back(&cp);
    }
  }

  bool Material(const ChangePoint& cp) const {
    if (!IsPartOfExecute(cp)) return true;
    auto it = execute_.find({cp.key.model, cp.key.block});
    if (it == execute_.end()) return true;
    const Execute& execute = it->second;
    for (const ChangePoint* change : execute.changes) {
      if (RunsApart(*change, cp) <= together_within_) return true;
    }
    // The framework tax is a percentage of Method::execute.
    if (cp.key.kind == MetricKind::kFrameworkTax) {
      return std::fabs(cp.after - cp.before) >= 100 * min_change_;
    }
    // With its whole interval, as the nightly gate counts a part: the end
    // of the change's interval nearest no change (0 when it spans none).
    const double at_least = cp.change_low > 0    ? cp.change_low
                            : cp.change_high < 0 ? -cp.change_high
                                                 : 0.0;
    const double delta = at_least * std::fabs(cp.before);
    const std::optional<double> level_here = MinDeltaIn(execute.level, cp.unit);
    return !level_here || delta >= min_change_ * *level_here;
  }

 private:
  struct Execute {
    MinDelta level;  // median per-run statistic over the window, in its unit
    std::vector<const ChangePoint*> changes;  // Method::execute's own change points
  };
  double min_change_;
  std::size_t together_within_;
  std::map<std::pair<std::string, std::string>, Execute> execute_;
};

}  // namespace

constexpr std::size_t kChangePointIdDigits = 12;

std::string ChangePointId(const std::string& metric_label, const std::string& run_id) {
  return Sha256Hex(metric_label + "@" + run_id).substr(0, kChangePointIdDigits);
}

bool IsChangePointId(const std::string& id) {
  return id.size() == kChangePointIdDigits &&
         std::all_of(id.begin(), id.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

bool IsChangePointIdIn(const HistoryWindow& window, const std::string& id) {
  if (!IsChangePointId(id)) return false;
  std::unordered_map<int64_t, const std::string*> run_id;
  for (const RunSummary& r : window.runs) run_id.emplace(r.id, &r.run_id);
  std::set<std::string> shift_labels = {MachineShiftLabel("")};
  for (const MetricHistory& h : window.metrics) {
    shift_labels.insert(MachineShiftLabel(h.metric.key.block));
    for (const SeriesPoint& p : h.points) {
      auto it = run_id.find(p.run);
      if (it != run_id.end() && ChangePointId(h.label, *it->second) == id) return true;
    }
  }
  for (const std::string& label : shift_labels) {
    for (const RunSummary& r : window.runs) {
      if (ChangePointId(label, r.run_id) == id) return true;
    }
  }
  return false;
}

Detection DetectChangePoints(const HistoryWindow& window, const DetectOptions& options,
                             const std::set<std::string>& acknowledged) {
  Detection detection;
  detection.runs = window.runs;
  std::unordered_map<int64_t, std::size_t> position;
  for (std::size_t i = 0; i < window.runs.size(); ++i) position.emplace(window.runs[i].id, i);

  std::vector<Series> series;
  for (const MetricHistory& h : window.metrics) {
    Series s;
    s.history = &h;
    for (const SeriesPoint& p : h.points) {
      auto it = position.find(p.run);
      if (it == position.end() || !std::isfinite(p.p10)) continue;
      s.values.push_back(p.p10);
      s.run_index.push_back(it->second);
    }
    series.push_back(std::move(s));
  }
  if (options.load_cutoff > 0) {
    DropLoadedRuns(series, window.runs.size(), std::log1p(options.load_cutoff),
                   options.min_segment);
  }
  if (options.machine_level) {
    detection.machine_shifts = RemoveMachineShifts(series, window.runs, options, acknowledged);
  }

  // Stage 1: each metric's strongest split; Benjamini–Hochberg across metrics.
  std::vector<double> first_p(series.size(), 1.0);
  for (std::size_t i = 0; i < series.size(); ++i) {
    if (series[i].values.size() < 2 * options.min_segment) continue;
    ++detection.metrics_tested;
    first_p[i] = BestSplit(series[i].values, 0, series[i].values.size(), options.min_segment).p_value;
  }
  const std::vector<double> adjusted = BenjaminiHochberg(first_p);
  // The BH cut-off: the largest raw p-value among the discoveries; each
  // discovered metric is then segmented further at that level.
  double cutoff = 0;
  for (std::size_t i = 0; i < series.size(); ++i) {
    if (adjusted[i] <= options.fdr_q) cutoff = std::max(cutoff, first_p[i]);
  }

  BootstrapCache cache;
  BootstrapSettings bootstrap;
  bootstrap.resamples = 1000;
  ResolutionFloor resolution(series);
  for (std::size_t i = 0; i < series.size(); ++i) {
    if (adjusted[i] > options.fdr_q) continue;
    const Series& s = series[i];
    const std::vector<SeriesChangePoint> found =
        FindChangePoints(s.values, cutoff, options.min_segment);
    for (std::size_t c = 0; c < found.size(); ++c) {
      const std::size_t at = found[c].index;
      const std::size_t lo = c == 0 ? 0 : found[c - 1].index;
      const std::size_t hi = c + 1 == found.size() ? s.values.size() : found[c + 1].index;
      std::vector<double> left(s.values.begin() + static_cast<std::ptrdiff_t>(lo),
                               s.values.begin() + static_cast<std::ptrdiff_t>(at));
      std::vector<double> right(s.values.begin() + static_cast<std::ptrdiff_t>(at),
                                s.values.begin() + static_cast<std::ptrdiff_t>(hi));
      ChangePoint cp;
      cp.before = MedianOf(left);
      cp.after = MedianOf(right);
      if (cp.before == 0) continue;
      cp.change = (cp.after - cp.before) / std::fabs(cp.before);
      const MetricHistory& h = *s.history;
      if (std::fabs(cp.change) < MinRelativeChange(h.metric, options)) continue;
      if (h.metric.unit == "percent" &&
          std::fabs(cp.after - cp.before) < options.min_percent_points) {
        continue;
      }
      if (options.resolution_floor && ScalesWithMachineSpeed(h.metric.unit) &&
          std::fabs(cp.after - cp.before) < resolution.For(h.metric, left, right)) {
        continue;
      }
      cp.label = h.label;
      cp.key = h.metric.key;
      cp.unit = h.metric.unit;
      cp.end_to_end = h.metric.end_to_end;
      cp.index = s.run_index[at];
      const RunSummary& first = window.runs[cp.index];
      cp.commit_before = cp.index > 0 ? window.runs[s.run_index[at - 1]].git_commit : "";
      cp.commit_after = first.git_commit;
      cp.time_after = first.time;
      cp.runs_before = left.size();
      cp.runs_after = right.size();
      cp.p_value = found[c].p_value;
      cp.regression = cp.change > 0;
      cp.id = ChangePointId(h.label, first.run_id);
      // More runs can move the estimated start by a run or two: an
      // acknowledgement of the same metric's change starting nearby holds.
      const std::size_t from = cp.index > options.ack_within ? cp.index - options.ack_within : 0;
      const std::size_t to = std::min(window.runs.size(), cp.index + options.ack_within + 1);
      for (std::size_t r = from; r < to && !cp.acknowledged; ++r) {
        cp.acknowledged = acknowledged.count(ChangePointId(h.label, window.runs[r].run_id)) > 0;
      }
      std::sort(left.begin(), left.end());
      std::sort(right.begin(), right.end());
      const ChangeInterval interval =
          BootstrapChangeInterval(left, right, Statistic::kP50, ChangeScale::kRelative, bootstrap,
                                  options.seed + i * 7919 + c, cache);
      cp.change_low = interval.low;
      cp.change_high = interval.high;
      if (IsExecute(cp.key)) {
        AddAttribution(series, lo == 0 ? 0 : s.run_index[lo], hi == s.values.size()
                                                                  ? window.runs.size()
                                                                  : s.run_index[hi],
                       &cp);
      }
      detection.change_points.push_back(std::move(cp));
    }
  }

  std::vector<ChangePoint>& cps = detection.change_points;
  if (options.end_to_end_only) {
    const EndToEndMateriality material(series, cps, options);
    std::vector<bool> keep;
    for (const ChangePoint& cp : cps) keep.push_back(material.Material(cp));
    std::vector<ChangePoint> kept;
    for (std::size_t i = 0; i < cps.size(); ++i) {
      (keep[i] ? kept : detection.parts_not_counted).push_back(std::move(cps[i]));
    }
    cps = std::move(kept);
  }
  std::sort(cps.begin(), cps.end(), [](const ChangePoint& a, const ChangePoint& b) {
    return a.index != b.index ? a.index < b.index : a.label < b.label;
  });
  for (ChangePoint& a : cps) {
    for (const ChangePoint& b : cps) {
      if (&a == &b || a.key.model != b.key.model) continue;
      if (RunsApart(a, b) <= options.together_within) a.moved_together.push_back(b.label);
    }
  }
  return detection;
}

std::size_t StableSegmentStart(const Detection& detection) {
  std::size_t start = 0;
  for (const ChangePoint& cp : detection.change_points) start = std::max(start, cp.index);
  for (const MachineShift& m : detection.machine_shifts) start = std::max(start, m.index);
  return start;
}

}  // namespace etbench::history
