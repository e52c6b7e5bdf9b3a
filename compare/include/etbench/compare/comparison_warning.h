#pragma once
// What a comparison warns about, as data. The guards, Compare, the
// interleaved comparison and the baseline check say what they noticed as a
// kind and its values; the reports library words them
// (etbench/reports/warning_text.h, the one place with the sentences), as
// row_note.h does for a row's verdict.

#include <cstddef>
#include <string>
#include <variant>

#include "etbench/compare/metrics.h"

namespace etbench {

/// Values no real measurement has (a corrupt or hand-edited file) in one
/// side's metric: its samples span [low, high] in `unit`.
enum class ImplausibleValue {
  kTaxOutOfRange,  // a framework tax outside -100%..100%
  kLongerThanADay,  // a time sample longer than a day
};
struct ImplausibleValuesWarning {
  std::string side;  // "baseline" or "candidate"
  MetricKey key;
  ImplausibleValue what = ImplausibleValue::kLongerThanADay;
  double low = 0;
  double high = 0;
  std::string unit;
};

/// The sides' run contexts differ at `key` ("suite", "device", "cpu").
struct ContextDiffersWarning {
  std::string key;
  std::string baseline;
  std::string candidate;
};

/// The sides' tick rates differ (SameTickRate): times in ticks are not
/// comparable.
struct TickRateDiffersWarning {
  double baseline_hz = 0;
  double candidate_hz = 0;
};

/// A model's file changed between the sides (the full sha256 of each).
struct ModelFileChangedWarning {
  std::string model;
  std::string baseline_sha256;
  std::string candidate_sha256;
};

/// A thresholds rule's min_delta (`value` `unit`) cannot apply to the
/// metrics in `metric_unit` it matched (another family of units).
struct MinDeltaUnitWarning {
  double value = 0;
  std::string unit;
  std::string rule;  // ResolvedRule::name
  std::string metric_unit;
};

/// Interleaved runs: `blocks` blocks of a model were left out because its
/// run was hit by interference (Method::execute more than max(`mads` MAD,
/// `floor`) from its side's median; `floor` a fraction).
struct DroppedBlocksWarning {
  std::size_t blocks = 0;
  double mads = 0;
  double floor = 0;
};

/// The gate's baseline was recorded on another device than this run's.
struct BaselineDeviceWarning {
  std::string baseline_device;
  std::string run_device;
};

/// The gate's baseline has another tick rate than this run (SameTickRate).
struct BaselineTickRateWarning {
  double baseline_hz = 0;
  double run_hz = 0;
};

/// Night gate: `model` was slower tonight as a whole process (its load path
/// by `load_change` with its Method::execute's `execute_change`, fractions;
/// NightGateOptions::load_path_control): its regressions are listed, not
/// counted, and the night is no pass.
struct DisturbedModelWarning {
  std::string model;
  double load_change = 0;
  double execute_change = 0;
};

/// A warning already in words: read back from a stored comparison (the
/// comparison JSON keeps its text as written), or worded by the reports
/// library for what compare cannot hold (the history's change points
/// confirmed tonight, which the gate adds).
struct TextWarning {
  std::string text;
};

using ComparisonWarning =
    std::variant<ImplausibleValuesWarning, ContextDiffersWarning, TickRateDiffersWarning,
                 ModelFileChangedWarning, MinDeltaUnitWarning, DroppedBlocksWarning,
                 BaselineDeviceWarning, BaselineTickRateWarning, DisturbedModelWarning,
                 TextWarning>;

}  // namespace etbench
