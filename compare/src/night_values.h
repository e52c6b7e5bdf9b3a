#pragma once
// What the nightly gate (night_gate.cc) reads of its nights: a metric's
// value for one night over its sessions, tonight's with its confirmation
// run, and each model's machine level night by night.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "etbench/base/result.h"
#include "etbench/compare/metrics.h"
#include "etbench/stats/stats.h"

namespace etbench::internal {

using MetricIndex = std::map<MetricKey, const Metric*>;

/// The set's metrics by key; a key twice is an input error naming `side`.
Result<MetricIndex> IndexOf(const MetricSet& set, const std::string& side);

/// A time metric: an event not in percent or bytes.
bool IsTime(const Metric& m);

/// A night's value of `statistic`: for a time metric under p50 the lower
/// decile over its sessions (session_sizes) of each session's lower decile,
/// else the median over sessions of each session's median over
/// repetitions; none without samples.
std::optional<double> NightValue(const Metric& m, Statistic statistic);

/// Tonight's value: the faster of the run's and the confirmation run's
/// (`confirmation` may be null or lack the metric).
std::optional<double> TonightValue(const Metric& m, const MetricIndex* confirmation,
                                   Statistic statistic);

/// Per model, per night (the baseline nights, then tonight last): the
/// machine's level from the other models' time metrics (MachineLevel with
/// kMinLevelMetrics; OPERATOR_CALL wrappers take no part), 0 where too few.
std::map<std::string, std::vector<double>> ModelLevels(const std::vector<MetricIndex>& nights,
                                                       const MetricIndex& tonight,
                                                       const MetricIndex* confirmation);

}  // namespace etbench::internal
