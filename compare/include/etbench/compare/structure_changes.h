#pragma once
// Metrics present on one side only: operators added, removed or renamed
// between baseline and candidate (listed, never silently dropped).

#include <optional>
#include <string>
#include <vector>

#include "etbench/compare/metrics.h"

namespace etbench {

struct StructureChange {
  enum class Kind { kAdded, kRemoved, kRenamed };
  Kind kind = Kind::kAdded;
  std::string model;
  std::string block;
  std::optional<MetricKey> baseline_key;   // removed, renamed
  std::optional<MetricKey> candidate_key;  // added, renamed
};

/// "added", "removed", "renamed".
const char* StructureChangeKindName(StructureChange::Kind kind);

/// Keys only in `baseline` are removed, keys only in `candidate` added;
/// a removed and an added metric of the same model, block, kind, instruction
/// id and occurrence (instruction id known) are a rename. Ordered by model,
/// block, then key.
std::vector<StructureChange> DetectStructureChanges(const MetricSet& baseline,
                                                    const MetricSet& candidate);

}  // namespace etbench
