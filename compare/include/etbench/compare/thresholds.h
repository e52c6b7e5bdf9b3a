#pragma once
// Gate thresholds: which change counts, for which metrics, in which
// direction; loaded from YAML (configs/thresholds.yaml documents the format
// and the defaults; docs/comparison.md explains them).

#include <optional>
#include <string_view>
#include <string>
#include <vector>

#include "etbench/base/disk.h"
#include "etbench/base/result.h"
#include "etbench/compare/metrics.h"
#include "etbench/stats/stats.h"

namespace etbench {

/// Which direction of change is a regression.
enum class Direction {
  kIncrease,  // more time / bytes / tax is worse (the default)
  kDecrease,  // less is worse (throughput-like metrics)
  kBoth,      // any change is a regression; nothing is an improvement
};

const char* DirectionName(Direction direction);

/// A minimum absolute change: a value in `unit` ("" = the metric's own
/// unit). Time units convert among themselves (ns, us, ms, s), byte units
/// among themselves (B, KiB, MiB, GiB); cycles only to cycles.
struct MinDelta {
  double value = 0;
  std::string unit;
  /// `auto`: taken from the measurement itself (MeasuredMinDelta), not a
  /// fixed amount; `value` and `unit` are then unused.
  bool measured = false;
};

/// "1us", "0.5 ms", "4KiB", "250 cycles", a bare number, or "auto". Errors
/// name the accepted units.
Result<MinDelta> ParseMinDelta(const std::string& text);

/// The smallest change the measurement can resolve: two clock ticks (a
/// duration is the difference of two timestamps, each ±1 tick), the tick
/// being the smallest positive gap between distinct values of the pooled
/// samples. 0 with fewer than two distinct values. Samples in any order.
double MeasuredMinDelta(const std::vector<double>& a, const std::vector<double>& b);

/// The timer and tracer overhead of one event, in `unit`: the median over
/// instructions of how much longer an OPERATOR_CALL takes than the
/// native_call_<op> it wraps (one more event record plus the dispatch);
/// 0 when `set` has no such pairs.
double EventOverhead(const MetricSet& set, const std::string& unit);

/// The rule's min_delta for this metric, in the metric's unit: for `auto`
/// the larger of MeasuredMinDelta and `event_overhead` (per-operator events
/// only: a change smaller than what recording an empty event costs is not
/// the kernel's), else converted (nullopt when the units do not convert).
std::optional<double> MinDeltaFor(const MinDelta& delta, const Metric& baseline,
                                  const Metric& candidate, double event_overhead = 0);

/// `delta` expressed in `metric_unit`; nullopt when the units do not
/// convert (e.g. a time delta for a bytes metric).
std::optional<double> MinDeltaIn(const MinDelta& delta, const std::string& metric_unit);

/// The gate settings of one metric.
struct GateRule {
  /// Smallest relative change that matters (a fraction: 0.05 = 5%).
  double relative = 0.05;
  MinDelta min_delta;
  /// Percentage points; used instead of `relative` for framework tax.
  double max_increase_pp = 1.0;
  std::vector<Statistic> statistics{Statistic::kP50};
  Direction direction = Direction::kIncrease;
  /// false: compared and reported, but never fails the gate.
  bool gate = true;
};

/// A per-event rule. Globs use fnmatch semantics (`*`, `?`, `[...]`).
struct ThresholdRule {
  std::string match = "*";  // the metric name (event, allocator, benchmark)
  std::string model = "*";
  std::string block = "*";
  std::optional<MetricKind> kind;
  // Overrides; unset fields keep the section's value.
  std::optional<double> relative;
  std::optional<MinDelta> min_delta;
  std::optional<double> max_increase_pp;
  std::optional<std::vector<Statistic>> statistics;
  std::optional<Direction> direction;
  std::optional<bool> gate;
  /// "file:line:column" of the rule, for reports.
  std::string location;
};

struct Thresholds {
  /// Benjamini–Hochberg false discovery rate over per-operator metrics.
  double fdr = 0.02;
  /// Weight the per-operator family by each metric's power to see a
  /// threshold-sized change (fdr.h OptimalWeights); false: plain BH.
  bool noise_aware_fdr = true;
  /// Roeder–Wasserman weights inside the family (fdr.h OptimalWeights);
  /// off: plain BH. Not a file key: kept for the evaluation's ablation.
  bool optimal_fdr_weights = false;
  /// Two-sided significance level of each end-to-end metric.
  double alpha = 0.01;
  /// Level of the bootstrap confidence intervals.
  double confidence = 0.95;
  int bootstrap_resamples = 2000;
  /// Fewer samples on either side → inconclusive.
  int min_samples = 5;
  /// Power at which the minimum detectable effect is reported.
  double power = 0.8;

  GateRule per_operator;   // YAML `default`
  GateRule end_to_end{0.02, {}, 1.0, {Statistic::kP50}, Direction::kIncrease, true};
  GateRule framework_tax;  // gated on max_increase_pp
  GateRule allocations{0.01, {}, 1.0, {Statistic::kP50}, Direction::kIncrease, true};
  /// First matching rule wins. Built in: Program::load_method and
  /// Method::init at 10%; a file's `rules:` replaces them.
  std::vector<ThresholdRule> rules;
  /// Where these came from ("<built-in>" or the file path).
  std::string source = "<built-in>";
};

/// The built-in defaults (the same as configs/thresholds.yaml).
Thresholds DefaultThresholds();

/// Why `pattern` is not a valid fnmatch glob (a '[' without its ']', a
/// trailing backslash), or nothing when it is. fnmatch itself would take
/// such a pattern literally, so a typo would silently match nothing.
std::optional<std::string> GlobProblem(std::string_view pattern);

/// Parses thresholds YAML; `source_name` stands for the path in messages.
/// Errors are one line: "file:line:column: what is wrong" (unknown keys,
/// wrong types, percentages without '%' or out of range, unknown
/// statistics, directions, kinds or units).
Result<Thresholds> ParseThresholdsYaml(const std::string& text,
                                       const std::string& source_name = "<memory>");

/// Reads (through `disk`) and parses a thresholds file.
Result<Thresholds> LoadThresholdsFile(const std::string& path, Disk& disk = DefaultDisk());

/// The settings for one metric and where they came from.
struct ResolvedRule {
  GateRule rule;
  /// "default", "end_to_end", "framework_tax", "allocations", or
  /// "rules[i] (match: GLOB) at file:line:column".
  std::string name;
};

/// The section for the metric's kind (framework tax, allocations, end to
/// end, else per-operator `default`), overridden by the first rule that
/// matches the metric's name, model, block and kind.
ResolvedRule ResolveRule(const Thresholds& thresholds, const Metric& metric);

}  // namespace etbench
