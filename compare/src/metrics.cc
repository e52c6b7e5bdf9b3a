// MetricKey ordering and labels (the contract in metrics.h).

#include "etbench/compare/metrics.h"

#include <algorithm>
#include <tuple>

namespace etbench {

bool MetricKey::operator<(const MetricKey& o) const {
  return std::tie(model, block, kind, name, instruction_id, delegate_id, occurrence) <
         std::tie(o.model, o.block, o.kind, o.name, o.instruction_id, o.delegate_id,
                  o.occurrence);
}

std::string MetricLabel(const MetricKey& key) {
  std::string label = key.model;
  if (!key.block.empty()) label += "/" + key.block;
  label += "/";
  if (key.kind == MetricKind::kAllocation) label += "allocator:";
  label += key.name;
  if (key.instruction_id) label += "#" + std::to_string(*key.instruction_id);
  // Delegated events are named by their id already; say it only when not.
  if (!key.delegate_id.empty() && key.delegate_id != key.name) {
    label += "[delegate " + key.delegate_id + "]";
  }
  if (key.occurrence != 0) label += " (occurrence " + std::to_string(key.occurrence) + ")";
  return label;
}

EventRole MetricEventRole(const MetricKey& key) {
  if (key.kind != MetricKind::kEvent) return EventRole::kFrameworkEvent;
  return EventRoleOf(key.name, !key.delegate_id.empty());
}

std::string ContextValue(const MetricSet& set, const std::string& key) {
  auto it = set.context.find(key);
  return it == set.context.end() ? std::string() : it->second;
}

std::size_t SessionCount(const MetricSet& set) {
  std::size_t sessions = 1;
  for (const Metric& m : set.metrics) sessions = std::max(sessions, m.session_sizes.size());
  return sessions;
}

}  // namespace etbench
