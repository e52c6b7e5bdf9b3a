#pragma once
// What the history hands out to be shown, as plain data: stored runs, metric
// series, change points and the trends of the history report. The history
// library fills these (history_store.h, detect.h, history_report.h); the
// reports library renders them (etbench/reports/history_render.h,
// history_report_render.h). They live in results, the data of what runs
// produced, because both libraries may use it and neither may use the
// other (docs/architecture.md); the namespace stays the history's, whose
// data they are.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "etbench/compare/attribution.h"
#include "etbench/compare/metrics.h"

namespace etbench::history {

/// Where, when and from what a run came: what `history list` shows.
struct RunMetadata {
  /// The run's identity: SHA-256 of its canonical results JSON, so adding
  /// the same results file twice (a retried CI job) is recognised.
  std::string run_id;
  std::string suite;
  std::string device;
  std::string host;
  std::string boot_id;
  std::string git_commit;
  std::string branch;
  std::string time;  // ISO 8601 UTC, the start of the run
  std::map<std::string, std::string> labels;
  /// "ok" (every model ok), "partial" (some failed) or "interrupted".
  std::string status;
  std::string source;  // the results file it was read from ("" if none)
};

/// A stored run without its metrics (`history list`).
struct RunSummary : RunMetadata {
  int64_t id = 0;  // the database's row id: the order runs were added
  /// The run's MetricSet context (time source, unit, tick rate, …).
  std::map<std::string, std::string> context;
  std::size_t metric_count = 0;
};

/// One run's value of a metric.
struct SeriesPoint {
  int64_t run = 0;  // RunSummary::id
  double p50 = 0;   // median of the run's samples (what reports show)
  /// Lower decile of the run's samples: the statistic change points are
  /// detected on. Background load only ever adds time, so on a shared
  /// machine the fast tail of a run is what the code costs, while its
  /// median moves with whatever else the machine was doing.
  double p10 = 0;
  std::size_t n = 0;
  /// Raw samples with their groups (only when asked for).
  std::vector<double> samples;
  std::vector<uint64_t> group_sizes;
  std::vector<uint64_t> session_sizes;
};

/// A metric over the runs that recorded it, in run order.
struct MetricHistory {
  /// The metric's identity and attributes (samples empty).
  Metric metric;
  std::string label;  // MetricLabel(metric.key)
  std::vector<SeriesPoint> points;
};

/// A filtered window of the history: the runs and every matching metric.
struct HistoryWindow {
  std::vector<RunSummary> runs;  // in order
  std::vector<MetricHistory> metrics;
};

struct ChangePoint {
  /// ChangePointId of the metric and the first run of the new segment
  /// (what `history ack` takes).
  std::string id;
  std::string label;  // the metric
  MetricKey key;
  std::string unit;
  bool end_to_end = false;
  std::size_t index = 0;  // first run of the new segment, in the window's runs
  /// The commit range the change entered in: last commit before → first after.
  std::string commit_before;
  std::string commit_after;
  std::string time_after;
  /// Medians of the per-run statistic (each run's lower decile) in the
  /// segments around the change.
  double before = 0;
  double after = 0;
  std::size_t runs_before = 0;
  std::size_t runs_after = 0;
  /// (after − before) / before with a 95% bootstrap interval.
  double change = 0;
  double change_low = 0;
  double change_high = 0;
  double p_value = 1;
  /// Every metric here is "lower is better", so an increase is a regression.
  bool regression = false;
  bool acknowledged = false;
  /// Labels of the other change points of this model within
  /// `together_within` runs.
  std::vector<std::string> moved_together;
  /// For Method::execute: where its change went (the segments' medians).
  std::optional<Attribution> attribution;
};

/// A change point of the machine's level.
struct MachineShift {
  /// ChangePointId("machine", run id of the first run of the new level);
  /// for a group's shift ChangePointId("machine/" + group, …).
  std::string id;
  /// "" when every time metric shifted (the machine); else the block whose
  /// time metrics, across models, shifted together after the machine's own
  /// shifts were removed ("Default": the load path, Program::load_method
  /// and Method::init of every model).
  std::string group;
  std::size_t index = 0;  // first run of the new level, in the window's runs
  std::string commit_before;
  std::string commit_after;
  std::string time_after;
  std::size_t runs_before = 0;
  std::size_t runs_after = 0;
  /// exp(median level after − median level before) − 1, with a 95%
  /// bootstrap interval: how much slower (+) every operator got.
  double change = 0;
  double change_low = 0;
  double change_high = 0;
  double p_value = 1;
  /// The new level lasts to the newest run of the window.
  bool persists = false;
  /// Slower, persisting to the newest run, the commit changed across it,
  /// and a level this window has not seen before: a machine shift or a
  /// code change that slowed every operator — the numbers cannot tell, so
  /// it counts as a regression until acknowledged.
  bool possible_code_change = false;
  /// Counts as a regression: possible_code_change, or any slower shift when
  /// history::DetectOptions::machine_shifts_are_regressions (set by detection).
  bool regression = false;
  bool acknowledged = false;
};

/// The change points that are regressions and not acknowledged.
std::size_t CountOpenRegressions(const std::vector<ChangePoint>& change_points);
/// The machine shifts that are regressions and not acknowledged.
std::size_t CountOpenRegressions(const std::vector<MachineShift>& machine_shifts);

struct Detection {
  std::vector<RunSummary> runs;
  std::size_t metrics_tested = 0;
  std::vector<ChangePoint> change_points;  // by run index, then label
  /// Change points of the machine's level (empty unless
  /// DetectOptions::machine_level), by run index.
  std::vector<MachineShift> machine_shifts;
  /// Change points of parts of Method::execute (operators, delegates, the
  /// framework tax) that were found but left out as too small to move it
  /// (history's DetectOptions::end_to_end_only; --every-part lists them).
  /// Kept, not only counted, so that `--since` can leave out the older ones
  /// as it does change_points; reports show their number.
  std::vector<ChangePoint> parts_not_counted;

  /// Change points and machine shifts that are regressions and not
  /// acknowledged.
  std::size_t OpenRegressions() const;
};

/// The change points of one (suite, device) history: what `history detect`
/// shows per group.
struct SuiteDetection {
  std::string suite;
  std::string device;
  Detection detection;
};

struct TrendPoint {
  std::size_t run = 0;  // position in HistoryReport::runs
  double p50 = 0;
  /// Distribution-free 95% interval of the run's median (order statistics
  /// n/2 ∓ 0.98·√n); samples of one repetition vary together, so read it
  /// as a lower bound of the uncertainty.
  double low = 0;
  double high = 0;
};

struct Trend {
  std::string label;
  std::string unit;
  std::vector<TrendPoint> points;
  std::vector<ChangePoint> change_points;  // of this metric
};

struct ModelTrends {
  std::string model;
  std::vector<Trend> trends;  // Method::execute first, then the top operators
  std::vector<Trend> framework_tax;
};

/// The model of `etbench history report` for one (suite, device).
struct HistoryReport {
  std::string suite;
  std::string device;
  std::vector<RunSummary> runs;
  std::size_t metrics_tested = 0;
  std::vector<ModelTrends> models;
  std::vector<ChangePoint> change_points;  // every one, acknowledged or not
  /// Every change point of the machine's level, by run index (the same as
  /// Detection::machine_shifts): every operator moved together there.
  std::vector<MachineShift> machine_shifts;

  /// Change points and machine shifts that are regressions and not
  /// acknowledged: what `history detect` exits 1 on.
  std::size_t OpenRegressions() const;
};

}  // namespace etbench::history
