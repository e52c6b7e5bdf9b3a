#pragma once
// Where the change of Method::execute went: per-operator and per-delegate
// contributions plus the framework overhead (the remainder).

#include <optional>
#include <string>
#include <vector>

#include "etbench/compare/metrics.h"
#include "etbench/stats/stats.h"

namespace etbench {

struct AttributionItem {
  enum class Kind { kKernel, kDelegate, kFrameworkOverhead, kAdded, kRemoved };
  Kind kind = Kind::kKernel;
  /// "native_call_convolution.out #3", "DELEGATE_CALL #2", "framework overhead".
  std::string label;
  std::optional<MetricKey> key;  // none for the framework overhead
  /// Change of the item's median, in the block's unit (added items count
  /// their candidate median, removed items minus their baseline median).
  double delta = 0;
  /// delta / Δ Method::execute (may be negative or above 1).
  double share = 0;
};

/// Δ median(Method::execute) = Σ Δ median(kernel and delegate calls)
///                            + framework overhead (the remainder).
struct Attribution {
  std::string model;
  std::string block;
  std::string unit;
  double baseline_execute = 0;   // `statistic` of Method::execute
  double candidate_execute = 0;
  /// What the values are: the medians of the samples (p50), or, for the
  /// night gate, the night values its rows print (p10: the lower decile).
  Statistic statistic = Statistic::kP50;
  double delta = 0;
  /// Largest |delta| first; the framework overhead is one of them.
  std::vector<AttributionItem> items;
};

/// One Attribution per (model, block) that has Method::execute on both
/// sides; kernel and delegate calls are the metrics with
/// is_kernel_or_delegate_call in that block (others are ignored).
std::vector<Attribution> ComputeAttribution(const MetricSet& baseline,
                                            const MetricSet& candidate);

/// "+0.41 ms: +0.33 from native_call_convolution.out #3, +0.06 from
/// framework overhead, …" (up to `max_items` items).
std::string AttributionSentence(const Attribution& attribution, std::size_t max_items = 5);

}  // namespace etbench
