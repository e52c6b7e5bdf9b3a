#include "etbench/history/machine_shift.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "etbench/compare/bootstrap.h"
#include "etbench/compare/stats.h"
#include "etbench/history/change_points.h"
#include "etbench/history/detect.h"

namespace etbench::history {
namespace {

double Median(std::vector<double> values) {
  const std::size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
  const double upper = values[mid];
  if (values.size() % 2 == 1) return upper;
  return (upper + *std::max_element(values.begin(),
                                    values.begin() + static_cast<std::ptrdiff_t>(mid))) / 2;
}

}  // namespace

std::vector<double> MachineLevel(const std::vector<const RunSeries*>& series,
                                 std::size_t run_count, std::size_t min_metrics) {
  std::vector<std::vector<double>> per_run(run_count);
  for (const RunSeries* s : series) {
    if (s->values.size() < 3) continue;
    const double median = Median(s->values);
    if (!(median > 0)) continue;
    for (std::size_t i = 0; i < s->values.size(); ++i) {
      if (s->values[i] > 0) per_run[s->run_index[i]].push_back(std::log(s->values[i] / median));
    }
  }
  std::vector<double> level(run_count, std::numeric_limits<double>::quiet_NaN());
  for (std::size_t r = 0; r < run_count; ++r) {
    if (per_run[r].size() >= std::max<std::size_t>(min_metrics, 1)) level[r] = Median(per_run[r]);
  }
  return level;
}

void RemoveMachineLevel(const std::vector<double>& level, RunSeries* series) {
  for (std::size_t i = 0; i < series->values.size(); ++i) {
    const double l = level[series->run_index[i]];
    if (std::isfinite(l)) series->values[i] *= std::exp(-l);
  }
}

std::vector<MachineShift> FindMachineShifts(const std::vector<double>& level,
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
  const std::vector<SeriesChangePoint> found =
      FindChangePoints(values, options.alpha, options.min_segment);
  BootstrapCache cache;
  BootstrapSettings bootstrap;
  bootstrap.resamples = 1000;
  // Segment medians, to tell a level seen before from a new one.
  std::vector<double> segment_level;
  for (std::size_t c = 0; c <= found.size(); ++c) {
    const std::size_t lo = c == 0 ? 0 : found[c - 1].index;
    const std::size_t hi = c == found.size() ? values.size() : found[c].index;
    segment_level.push_back(
        Median(std::vector<double>(values.begin() + static_cast<std::ptrdiff_t>(lo),
                                   values.begin() + static_cast<std::ptrdiff_t>(hi))));
  }
  for (std::size_t c = 0; c < found.size(); ++c) {
    const std::size_t split = found[c].index;
    const std::size_t lo = c == 0 ? 0 : found[c - 1].index;
    const std::size_t hi = c + 1 == found.size() ? values.size() : found[c + 1].index;
    MachineShift shift;
    shift.change = std::exp(segment_level[c + 1] - segment_level[c]) - 1;
    if (std::fabs(shift.change) < options.min_change) continue;
    shift.index = at[split];
    shift.p_value = found[c].p_value;
    shift.runs_before = split - lo;
    shift.runs_after = hi - split;
    const RunSummary& first = runs[shift.index];
    shift.commit_before = runs[at[split - 1]].git_commit;
    shift.commit_after = first.git_commit;
    shift.time_after = first.time;
    shift.id = ChangePointId("machine", first.run_id);
    shift.persists = c + 1 == found.size();
    double highest_before = segment_level[0];
    for (std::size_t k = 1; k <= c; ++k) highest_before = std::max(highest_before, segment_level[k]);
    shift.possible_code_change =
        shift.persists && shift.change >= options.min_change &&
        shift.commit_before != shift.commit_after &&
        std::exp(segment_level[c + 1] - highest_before) - 1 >= options.min_change;
    const std::size_t from = shift.index > options.ack_within ? shift.index - options.ack_within : 0;
    const std::size_t to = std::min(runs.size(), shift.index + options.ack_within + 1);
    for (std::size_t r = from; r < to && !shift.acknowledged; ++r) {
      shift.acknowledged = acknowledged.count(ChangePointId("machine", runs[r].run_id)) > 0;
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
