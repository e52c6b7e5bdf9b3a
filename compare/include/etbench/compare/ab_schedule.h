#pragma once
// Local before/after runs (`etbench ab`): the interleaved order of the two
// variants, and merging each variant's runs into one metric set.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "etbench/base/result.h"
#include "etbench/compare/metrics.h"

namespace etbench {

enum class AbVariant { kA, kB };

/// 0 for A, 1 for B (an index into per-side arrays).
inline std::size_t VariantIndex(AbVariant v) { return v == AbVariant::kA ? 0 : 1; }
/// "A"/"B" (what people read) and "a"/"b" (file and directory names).
inline const char* VariantName(AbVariant v) { return v == AbVariant::kA ? "A" : "B"; }
inline const char* VariantFileName(AbVariant v) { return v == AbVariant::kA ? "a" : "b"; }

/// `blocks` ABBA blocks, each randomly ABBA or BAAB (seeded): every variant
/// runs 2·blocks times and slow drifts of the machine cancel within a block.
std::vector<AbVariant> AbbaSchedule(int blocks, uint64_t seed);

/// One MetricSet with the samples of equal keys concatenated in order, and
/// their repetition groups: every part is at least one session (its own
/// session_sizes, or one), and a part without group sizes contributes one
/// group per sample (its samples taken as independent, as an empty
/// group_sizes means). The first set's context and metadata win; context
/// values that differ between sets are dropped. Errors: the same key with
/// different units.
Result<MetricSet> MergeMetricSets(const std::vector<MetricSet>& sets);

}  // namespace etbench
