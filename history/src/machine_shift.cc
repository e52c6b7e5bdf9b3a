#include "etbench/history/machine_shift.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "etbench/history/change_points.h"
#include "etbench/history/detect.h"
#include "etbench/stats/bootstrap.h"
#include "etbench/stats/stats.h"

namespace etbench::history {
namespace {

// Binary segmentation tests one split per segment: a shift that comes and
// goes inside a segment (a VM neighbour for ten runs of forty) leaves
// shifted runs on both sides of any single split, which then is not
// significant. Where no single split is, the best interval [a, b) against
// the rest of the segment (the "epidemic" alternative) is tested too, with
// the same trimmed test, corrected for the number of intervals.
std::vector<SeriesChangePoint> LevelChangePoints(const std::vector<double>& level, double alpha,
                                                 std::size_t min_segment) {
  min_segment = std::max<std::size_t>(min_segment, 2);
  std::vector<double> scale(level.size());  // BestSplit takes logs of positive series
  for (std::size_t i = 0; i < level.size(); ++i) scale[i] = std::exp(level[i]);
  std::vector<double> prefix(level.size() + 1, 0);
  for (std::size_t i = 0; i < level.size(); ++i) prefix[i + 1] = prefix[i] + level[i];
  std::vector<SeriesChangePoint> found;
  std::vector<std::pair<std::size_t, std::size_t>> pending{{0, level.size()}};
  while (!pending.empty()) {
    const auto [lo, hi] = pending.back();
    pending.pop_back();
    const SplitTest split = BestSplit(scale, lo, hi, min_segment);
    if (split.p_value <= alpha) {
      found.push_back({split.index, split.p_value});
      pending.push_back({lo, split.index});
      pending.push_back({split.index, hi});
      continue;
    }
    if (hi < lo + 3 * min_segment) continue;
    const double n = static_cast<double>(hi - lo), total = prefix[hi] - prefix[lo];
    double best = -1, intervals = 0;
    std::size_t best_a = 0, best_b = 0;
    for (std::size_t a = lo + min_segment; a + 2 * min_segment <= hi; ++a) {
      for (std::size_t b = a + min_segment; b + min_segment <= hi; ++b) {
        const double inside = static_cast<double>(b - a), outside = n - inside;
        const double in_sum = prefix[b] - prefix[a];
        const double d = std::fabs(in_sum / inside - (total - in_sum) / outside) *
                         std::sqrt(inside * outside / n);
        intervals += 1;
        if (d > best) {
          best = d;
          best_a = a;
          best_b = b;
        }
      }
    }
    std::vector<double> in(level.begin() + static_cast<std::ptrdiff_t>(best_a),
                           level.begin() + static_cast<std::ptrdiff_t>(best_b));
    std::vector<double> out(level.begin() + static_cast<std::ptrdiff_t>(lo),
                            level.begin() + static_cast<std::ptrdiff_t>(best_a));
    out.insert(out.end(), level.begin() + static_cast<std::ptrdiff_t>(best_b),
               level.begin() + static_cast<std::ptrdiff_t>(hi));
    const double p = std::min(1.0, intervals * TrimmedTwoSampleP(in, out));
    if (!(best > 0) || p > alpha) continue;
    found.push_back({best_a, p});
    found.push_back({best_b, p});
    pending.push_back({lo, best_a});
    pending.push_back({best_a, best_b});
    pending.push_back({best_b, hi});
  }
  std::sort(found.begin(), found.end(),
            [](const SeriesChangePoint& a, const SeriesChangePoint& b) { return a.index < b.index; });
  return found;
}

}  // namespace

std::string MachineShiftLabel(const std::string& group) {
  return group.empty() ? "machine" : "machine/" + group;
}

std::optional<double> LocalJump(const RunSeries& series, std::size_t lo, std::size_t edge,
                                std::size_t hi, const JumpOptions& options) {
  const auto& runs = series.run_index;
  const auto first_at = [&](std::size_t r) {
    return static_cast<std::size_t>(std::lower_bound(runs.begin(), runs.end(), r) - runs.begin());
  };
  std::size_t begin = first_at(lo), end = first_at(hi);
  const std::size_t split = first_at(edge);
  begin = std::max(begin, split > options.window ? split - options.window : 0);
  end = std::min(end, split + options.window);
  // Inside a segment the machine's level is constant, so a significant
  // split there is the metric's own change: keep only the part next to the
  // edge (at most a few times, nearest change last).
  for (int pass = 0; pass < 3; ++pass) {
    const SplitTest own = BestSplit(series.values, begin, split, options.min_segment);
    if (own.p_value > options.alpha) break;
    begin = own.index;
  }
  for (int pass = 0; pass < 3; ++pass) {
    const SplitTest own = BestSplit(series.values, split, end, options.min_segment);
    if (own.p_value > options.alpha) break;
    end = own.index;
  }
  std::vector<double> before, after;
  for (std::size_t i = begin; i < split; ++i) {
    if (series.values[i] > 0) before.push_back(std::log(series.values[i]));
  }
  for (std::size_t i = split; i < end; ++i) {
    if (series.values[i] > 0) after.push_back(std::log(series.values[i]));
  }
  if (before.empty() || after.empty()) return std::nullopt;
  return MedianOf(after) - MedianOf(before);
}

std::vector<double> ShiftLevel(const std::vector<double>& level,
                               const std::vector<MachineShift>& shifts) {
  std::vector<double> fitted(level.size(), 0.0);
  if (shifts.empty()) return fitted;
  std::vector<std::size_t> edges{0};
  for (const MachineShift& m : shifts) edges.push_back(m.index);
  edges.push_back(level.size());
  for (std::size_t k = 0; k + 1 < edges.size(); ++k) {
    std::vector<double> known;
    for (std::size_t r = edges[k]; r < edges[k + 1]; ++r) {
      if (std::isfinite(level[r])) known.push_back(level[r]);
    }
    const double median = known.empty() ? 0.0 : MedianOf(known);
    std::fill(fitted.begin() + static_cast<std::ptrdiff_t>(edges[k]),
              fitted.begin() + static_cast<std::ptrdiff_t>(edges[k + 1]), median);
  }
  return fitted;
}

double MachineLoading(const RunSeries& series, const std::vector<double>& shift_level,
                      const JumpOptions& options) {
  std::vector<std::size_t> edges{0};
  for (std::size_t r = 1; r < shift_level.size(); ++r) {
    if (shift_level[r] != shift_level[r - 1]) edges.push_back(r);
  }
  edges.push_back(shift_level.size());
  // Least squares over the edges: a large shift weighs more than a small
  // one (a small step of the level inside a shift is often just runs left
  // out as loaded for some models, which the metric need not follow).
  double jump_times_level = 0, level_squared = 0;
  for (std::size_t k = 1; k + 1 < edges.size(); ++k) {
    const std::optional<double> jump =
        LocalJump(series, edges[k - 1], edges[k], edges[k + 1], options);
    const double level_jump = shift_level[edges[k]] - shift_level[edges[k] - 1];
    if (!jump) continue;
    jump_times_level += *jump * level_jump;
    level_squared += level_jump * level_jump;
  }
  if (!(level_squared > 0)) return 1;
  return std::clamp(jump_times_level / level_squared, 0.0, kMaxLoading);
}

void RemoveMachineLevel(const std::vector<double>& shift_level, double loading,
                        RunSeries* series) {
  for (std::size_t i = 0; i < series->values.size(); ++i) {
    series->values[i] *= std::exp(-loading * shift_level[series->run_index[i]]);
  }
}

std::vector<MachineShift> FindMachineShifts(const std::vector<double>& level,
                                            const std::vector<const RunSeries*>& series,
                                            const std::vector<RunSummary>& runs,
                                            const MachineShiftOptions& options,
                                            const std::set<std::string>& acknowledged) {
  // The level is a log already (and often exactly 0: quantised timers give
  // equal lower deciles run after run), so it is tested as it is.
  std::vector<double> values;
  std::vector<std::size_t> at;
  for (std::size_t r = 0; r < level.size(); ++r) {
    if (std::isfinite(level[r])) {
      values.push_back(level[r]);
      at.push_back(r);
    }
  }
  std::vector<MachineShift> shifts;
  if (values.size() < 2 * options.min_segment) return shifts;
  std::vector<SeriesChangePoint> found =
      LevelChangePoints(values, options.alpha, options.min_segment);
  // A machine shift moves most metrics its way; a level that moved because
  // many metrics changed at different times (or by noise) does not.
  std::vector<SeriesChangePoint> agreed;
  for (std::size_t c = 0; c < found.size(); ++c) {
    const std::size_t lo = c == 0 ? 0 : at[found[c - 1].index];
    const std::size_t edge = at[found[c].index];
    const std::size_t hi = c + 1 == found.size() ? level.size() : at[found[c + 1].index];
    std::vector<double> left, right;
    for (std::size_t r = lo; r < edge; ++r) {
      if (std::isfinite(level[r])) left.push_back(level[r]);
    }
    for (std::size_t r = edge; r < hi; ++r) {
      if (std::isfinite(level[r])) right.push_back(level[r]);
    }
    const double direction = MedianOf(right) - MedianOf(left);
    double with = 0, moved = 0;
    for (const RunSeries* s : series) {
      const std::optional<double> jump = LocalJump(*s, lo, edge, hi, options.jump);
      if (!jump || *jump == 0) continue;
      moved += 1;
      with += *jump * direction > 0 ? 1 : 0;
    }
    if (moved > 0 && with >= options.min_agreement * moved) agreed.push_back(found[c]);
  }
  found = std::move(agreed);
  BootstrapCache cache;
  BootstrapSettings bootstrap;
  bootstrap.resamples = 1000;
  // Segment medians (to size each shift and tell a level seen before from a
  // new one); shifts below min_change are merged into their neighbours, so
  // the one before a dropped shift can still last to the newest run.
  std::vector<double> segment_level;
  for (bool merged = true; merged;) {
    segment_level.clear();
    for (std::size_t c = 0; c <= found.size(); ++c) {
      const std::size_t lo = c == 0 ? 0 : found[c - 1].index;
      const std::size_t hi = c == found.size() ? values.size() : found[c].index;
      segment_level.push_back(
          MedianOf(std::vector<double>(values.begin() + static_cast<std::ptrdiff_t>(lo),
                                     values.begin() + static_cast<std::ptrdiff_t>(hi))));
    }
    merged = false;
    for (std::size_t c = 0; c < found.size() && !merged; ++c) {
      if (std::fabs(std::exp(segment_level[c + 1] - segment_level[c]) - 1) < options.min_change) {
        found.erase(found.begin() + static_cast<std::ptrdiff_t>(c));
        merged = true;
      }
    }
  }
  std::vector<double> factors;  // the segments' levels as factors (IsNewLevel's scale)
  for (const double l : segment_level) factors.push_back(std::exp(l));
  for (std::size_t c = 0; c < found.size(); ++c) {
    const std::size_t split = found[c].index;
    const std::size_t lo = c == 0 ? 0 : found[c - 1].index;
    const std::size_t hi = c + 1 == found.size() ? values.size() : found[c + 1].index;
    MachineShift shift;
    shift.change = std::exp(segment_level[c + 1] - segment_level[c]) - 1;
    shift.index = at[split];
    shift.p_value = found[c].p_value;
    shift.runs_before = split - lo;
    shift.runs_after = hi - split;
    const RunSummary& first = runs[shift.index];
    shift.commit_before = runs[at[split - 1]].git_commit;
    shift.commit_after = first.git_commit;
    shift.time_after = first.time;
    shift.group = options.group;
    shift.id = ChangePointId(MachineShiftLabel(options.group), first.run_id);
    shift.persists = c + 1 == found.size();
    shift.possible_code_change = shift.persists &&
                                 shift.change >= std::max(options.min_change, options.min_code_change) &&
                                 shift.commit_before != shift.commit_after &&
                                 IsNewLevel(factors, c + 1, options.min_change);
    const std::size_t from = shift.index > options.ack_within ? shift.index - options.ack_within : 0;
    const std::size_t to = std::min(runs.size(), shift.index + options.ack_within + 1);
    for (std::size_t r = from; r < to && !shift.acknowledged; ++r) {
      shift.acknowledged =
          acknowledged.count(ChangePointId(MachineShiftLabel(options.group), runs[r].run_id)) > 0;
    }
    std::vector<double> left, right;
    for (std::size_t i = lo; i < split; ++i) left.push_back(std::exp(values[i]));
    for (std::size_t i = split; i < hi; ++i) right.push_back(std::exp(values[i]));
    std::sort(left.begin(), left.end());
    std::sort(right.begin(), right.end());
    const ChangeInterval interval =
        BootstrapChangeInterval(left, right, Statistic::kP50, ChangeScale::kRelative, bootstrap,
                                options.seed + c * 7919, cache);
    shift.change_low = interval.low;
    shift.change_high = interval.high;
    shifts.push_back(std::move(shift));
  }
  return shifts;
}

}  // namespace etbench::history
