// A comparison's warnings in words (see warning_text.h).

#include "etbench/reports/warning_text.h"

#include <string>
#include <type_traits>
#include <variant>

#include "etbench/compare/metrics.h"
#include "etbench/compare/run_context.h"
#include "history_text.h"
#include "report_text.h"

namespace etbench::reports {
namespace {

using internal::Printf;

std::string Quote(const std::string& s) { return "'" + s + "'"; }

std::string ImplausibleText(const ImplausibleValuesWarning& w) {
  const char* what = w.what == ImplausibleValue::kTaxOutOfRange
                         ? "a framework tax outside -100%..100%"
                         : "a sample longer than a day";
  return "implausible values in the " + w.side + ": " + MetricLabel(w.key) + " has " + what +
         Printf(" (%g..%g %s)", w.low, w.high, w.unit.c_str()) + "; is the file corrupt?";
}

}  // namespace

std::string WarningText(const ComparisonWarning& warning) {
  return std::visit(
      [](const auto& w) -> std::string {
        using T = std::decay_t<decltype(w)>;
        if constexpr (std::is_same_v<T, ImplausibleValuesWarning>) {
          return ImplausibleText(w);
        } else if constexpr (std::is_same_v<T, ContextDiffersWarning>) {
          return "different " + w.key + ": " + Quote(w.baseline) + " (baseline) vs " +
                 Quote(w.candidate) + " (candidate)";
        } else if constexpr (std::is_same_v<T, TickRateDiffersWarning>) {
          return "different tick rate: " + FormatTickRate(w.baseline_hz) + " Hz (baseline) vs " +
                 FormatTickRate(w.candidate_hz) +
                 " Hz (candidate); times in ticks are not comparable";
        } else if constexpr (std::is_same_v<T, ModelFileChangedWarning>) {
          return "model file of " + Quote(w.model) + " changed (sha256 " +
                 w.baseline_sha256.substr(0, 12) + "\u2026 vs " +
                 w.candidate_sha256.substr(0, 12) + "\u2026)";
        } else if constexpr (std::is_same_v<T, MinDeltaUnitWarning>) {
          return "min_delta " + std::to_string(w.value) + w.unit + " of " + w.rule +
                 " does not apply to metrics in " + w.metric_unit +
                 " (set a rule with a min_delta in that unit)";
        } else if constexpr (std::is_same_v<T, DroppedBlocksWarning>) {
          return std::to_string(w.blocks) +
                 " block(s) of a model left out: its run was hit by interference "
                 "(Method::execute more than " +
                 Printf("max(%g MAD, %g%%)", w.mads, 100 * w.floor) + " from its side's median)";
        } else if constexpr (std::is_same_v<T, BaselineDeviceWarning>) {
          return "WARNING: baseline was recorded on device " + Quote(w.baseline_device) +
                 ", this run is on " + Quote(w.run_device);
        } else if constexpr (std::is_same_v<T, BaselineTickRateWarning>) {
          return "WARNING: baseline tick rate " + FormatTickRate(w.baseline_hz) +
                 " Hz differs from this run's " + FormatTickRate(w.run_hz) + " Hz";
        } else if constexpr (std::is_same_v<T, DisturbedModelWarning>) {
          return Quote(w.model) + " was slower tonight as a whole process (load path " +
                 internal::SignedPercent(w.load_change) + ", Method::execute " +
                 internal::SignedPercent(w.execute_change) +
                 "): one night cannot tell its code from its process, so its regressions are "
                 "listed, not counted, and the night is no pass; a change "
                 "that lasts fails the sustained look or history detect on the nights after";
        } else {
          static_assert(std::is_same_v<T, TextWarning>);
          return w.text;
        }
      },
      warning);
}

}  // namespace etbench::reports
