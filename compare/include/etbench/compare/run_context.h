#pragma once
// The typed part of a run's context: what ToMetricSet flattens into
// MetricSet::context as strings ("tick_rate_hz", "interrupted",
// "model_status:<model>", "model_sha256:<model>", "label:<key>") and the
// comparison reads back. This header and run_context.cc are the one place
// that knows those keys and the one rule on them (tick-rate tolerance,
// unfinished models): the strings stay what baselines, results views and
// the history keep, so files written before and after read the same.

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "etbench/compare/metrics.h"

namespace etbench {

/// What a run says of one of its models; nullopt where it says nothing.
struct ModelRunContext {
  std::optional<std::string> status;  ///< "ok", "failed", "interrupted"
  std::optional<std::string> sha256;  ///< of the model file
};

struct RunContext {
  /// Ticks per second of the clock the samples came from; nullopt when the
  /// context does not say (a value that does not parse reads as 0).
  std::optional<double> tick_rate_hz;
  /// The run was stopped before every model ran.
  bool interrupted = false;
  /// By model name.
  std::map<std::string, ModelRunContext> models;
  /// The run's labels (--label key=value), by key.
  std::map<std::string, std::string> labels;
};

/// Reads the typed context back from `set.context` (any other key is left
/// to ContextValue).
RunContext RunContextOf(const MetricSet& set);

/// Writes `context` into `out` under the keys RunContextOf reads (a model's
/// status and sha256 only when said; "interrupted" only when true).
void WriteRunContext(const RunContext& context, std::map<std::string, std::string>& out);

/// The tick rate as the context writes it ("%.17g": exact and short).
std::string FormatTickRate(double hz);

/// The one tick-rate rule: two rates measure the same clock when both are
/// said and equal, or both positive within 0.1% (a measured rate varies
/// that much between runs). A rate one side does not say is no difference.
bool SameTickRate(std::optional<double> a, std::optional<double> b);

/// The models whose status is said and is not "ok", with that status, by
/// name.
std::vector<std::pair<std::string, std::string>> UnfinishedModels(const RunContext& context);

}  // namespace etbench
