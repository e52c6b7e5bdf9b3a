#pragma once
// Recorded run traces for the trace-driven simulation (gate_quality
// --traces): the runs of a real A/A `etbench ab` session, in the order the
// machine produced them, each reduced to a compact, exactly replayable form.
//
// A run keeps, per metric, its sample count n and K = kTraceQuantiles order
// statistics of its samples (all of them when n ≤ K); the middle one is the
// run's median exactly (numpy's p50, the paired engine's per-run location).
// Expanding a run gives n samples, sample j being stored value
// ⌊(j + ½)·K / n⌋, so the expanded run has the recorded median, count and
// quantiles, and its values are recorded values (coarse ticks stay coarse).
// Outlier runs and bursts stay whole: a burst moves a run's upper quantiles
// and its median the way it did on the machine. Lost: the order of the
// samples within a run and the alignment of samples across metrics (no
// statistic of the engines uses either). OPERATOR_CALL wrappers (never
// gated) keep only their median (expanded: n copies of it), which is all
// the engines read of them: the event overhead (wrapper − kernel medians)
// that sets the per-operator floor (thresholds.h, MinDeltaFor).
//
// File format (CSV, one file per recorded session):
//   # etbench-run-trace 1
//   # note: free text (how, when, where it was recorded)
//   context,KEY,VALUE
//   metric,ID,MODEL,BLOCK,KIND,NAME,INSTRUCTION_ID|-,DELEGATE_ID,OCCURRENCE,UNIT,END_TO_END,KERNEL
//   run,INDEX,A|B,SECONDS
//   METRIC_ID,N,V0,D1,D2,…        the run's samples of one metric: values in
//                                 ns for ms (1e-4 for percent), V0 absolute,
//                                 then differences (one value: the median)
// Values are rounded to half a stored unit (exact for ns ticks and their
// medians).

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "etbench/base/result.h"
#include "etbench/compare/metrics.h"

namespace etbench::gate_quality {

inline constexpr std::size_t kTraceQuantiles = 7;

/// One metric of one run: its sample count and stored order statistics.
struct TraceSamples {
  std::size_t count = 0;
  /// Ascending: K order statistics; every sample when count ≤ K; or only
  /// the median (wrappers).
  std::vector<double> values;
};

struct TraceRun {
  char variant = 'A';   // as recorded (arbitrary in an A/A session)
  double seconds = 0;   // wall time of the run, as the ab loop saw it
  /// Index into RunTrace::metrics → samples (metrics absent from the run
  /// are absent here).
  std::map<std::size_t, TraceSamples> samples;
};

struct RunTrace {
  std::string name;  // file stem
  std::string note;
  std::map<std::string, std::string> context;
  /// Every metric's identity and flags (samples empty).
  std::vector<Metric> metrics;
  std::vector<TraceRun> runs;
};

/// Reduces a metric's samples (in `unit`) to count + order statistics, or
/// count + median when `median_only` (see above), rounded as stored.
TraceSamples ReduceSamples(std::vector<double> samples, const std::string& unit,
                           bool median_only = false);

/// The n samples of a reduced metric (see above).
std::vector<double> ExpandSamples(const TraceSamples& reduced);

/// Adds a run's metric set to `trace` (metrics matched by key; new ones
/// are appended). Keeps the kEvent metrics, OPERATOR_CALL wrappers by
/// their median; leaves framework tax out (never gated by default: the
/// kernels and Method::execute carry the time), which keeps the committed
/// traces under 1 MB.
void AppendRun(const MetricSet& run, char variant, double seconds, RunTrace* trace);

/// The run as a metric set: every stored metric expanded, one repetition
/// (group_sizes {n}), the trace's context.
MetricSet RunMetrics(const RunTrace& trace, const TraceRun& run);

std::string TraceToCsv(const RunTrace& trace);
/// Errors name `name` and the line.
Result<RunTrace> TraceFromCsv(const std::string& text, const std::string& name);

/// Every *.csv trace in `dir`, sorted by file name.
Result<std::vector<RunTrace>> LoadTraces(const std::string& dir);

}  // namespace etbench::gate_quality
