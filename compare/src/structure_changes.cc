// Metrics on one side only, with renames paired by instruction id.

#include "etbench/compare/structure_changes.h"

#include <algorithm>
#include <set>

namespace etbench {

const char* StructureChangeKindName(StructureChange::Kind kind) {
  switch (kind) {
    case StructureChange::Kind::kAdded: return "added";
    case StructureChange::Kind::kRemoved: return "removed";
    case StructureChange::Kind::kRenamed: return "renamed";
  }
  return "?";
}

std::vector<StructureChange> DetectStructureChanges(const MetricSet& baseline,
                                                    const MetricSet& candidate) {
  std::set<MetricKey> keys_b, keys_c;
  for (const Metric& m : baseline.metrics) keys_b.insert(m.key);
  for (const Metric& m : candidate.metrics) keys_c.insert(m.key);
  std::vector<MetricKey> removed, added;
  for (const MetricKey& k : keys_b) {
    if (!keys_c.count(k)) removed.push_back(k);
  }
  for (const MetricKey& k : keys_c) {
    if (!keys_b.count(k)) added.push_back(k);
  }

  std::vector<StructureChange> changes;
  std::vector<bool> added_used(added.size(), false);
  for (const MetricKey& r : removed) {
    std::size_t match = added.size();
    if (r.instruction_id) {
      for (std::size_t i = 0; i < added.size(); ++i) {
        const MetricKey& a = added[i];
        if (!added_used[i] && a.model == r.model && a.block == r.block && a.kind == r.kind &&
            a.instruction_id == r.instruction_id && a.occurrence == r.occurrence &&
            a.delegate_id.empty() == r.delegate_id.empty()) {
          match = i;
          break;
        }
      }
    }
    StructureChange change;
    change.model = r.model;
    change.block = r.block;
    change.baseline_key = r;
    if (match < added.size()) {
      added_used[match] = true;
      change.kind = StructureChange::Kind::kRenamed;
      change.candidate_key = added[match];
    } else {
      change.kind = StructureChange::Kind::kRemoved;
    }
    changes.push_back(std::move(change));
  }
  for (std::size_t i = 0; i < added.size(); ++i) {
    if (added_used[i]) continue;
    StructureChange change;
    change.kind = StructureChange::Kind::kAdded;
    change.model = added[i].model;
    change.block = added[i].block;
    change.candidate_key = added[i];
    changes.push_back(std::move(change));
  }
  std::stable_sort(changes.begin(), changes.end(),
                   [](const StructureChange& x, const StructureChange& y) {
                     const MetricKey& kx = x.baseline_key ? *x.baseline_key : *x.candidate_key;
                     const MetricKey& ky = y.baseline_key ? *y.baseline_key : *y.candidate_key;
                     return kx < ky;
                   });
  return changes;
}

}  // namespace etbench
