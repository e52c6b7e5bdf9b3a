// ABBA scheduling and merging of repeated runs.

#include "etbench/compare/ab_schedule.h"

#include <map>

#include "etbench/stats/rng.h"

namespace etbench {

std::vector<AbVariant> AbbaSchedule(int blocks, uint64_t seed) {
  internal::Xoshiro256 rng(seed);
  std::vector<AbVariant> order;
  for (int i = 0; i < blocks; ++i) {
    const bool abba = (rng.Next() >> 63) == 0;
    const AbVariant first = abba ? AbVariant::kA : AbVariant::kB;
    const AbVariant second = abba ? AbVariant::kB : AbVariant::kA;
    order.insert(order.end(), {first, second, second, first});
  }
  return order;
}

Result<MetricSet> MergeMetricSets(const std::vector<MetricSet>& sets) {
  MetricSet merged;
  std::map<MetricKey, std::size_t> position;
  bool first = true;
  for (const MetricSet& set : sets) {
    if (first) {
      merged.context = set.context;
      first = false;
    } else {
      for (auto it = merged.context.begin(); it != merged.context.end();) {
        auto other = set.context.find(it->first);
        it = (other == set.context.end() || other->second != it->second) ? merged.context.erase(it)
                                                                         : std::next(it);
      }
    }
    for (const Metric& m : set.metrics) {
      auto [it, inserted] = position.emplace(m.key, merged.metrics.size());
      if (inserted) {
        merged.metrics.push_back(m);
        continue;
      }
      Metric& target = merged.metrics[it->second];
      if (target.unit != m.unit) {
        return InputError("cannot merge " + MetricLabel(m.key) + ": unit '" + target.unit +
                          "' and '" + m.unit + "'");
      }
      // Every part stays a session of its own, with its groups: a part
      // without group sizes has samples of unknown grouping, taken as
      // independent (one group each: what empty group sizes mean). Dropping
      // every group instead would turn one older results file in a history
      // into a baseline of independent samples.
      const auto groups_of = [](const Metric& metric) {
        return metric.group_sizes.empty() ? std::vector<uint64_t>(metric.samples.size(), 1)
                                          : metric.group_sizes;
      };
      if (target.group_sizes.empty()) target.group_sizes = groups_of(target);
      if (target.session_sizes.empty()) target.session_sizes = {target.group_sizes.size()};
      const std::vector<uint64_t> groups = groups_of(m);
      if (m.session_sizes.empty() || m.group_sizes.empty()) {
        target.session_sizes.push_back(groups.size());
      } else {
        target.session_sizes.insert(target.session_sizes.end(), m.session_sizes.begin(),
                                    m.session_sizes.end());
      }
      target.group_sizes.insert(target.group_sizes.end(), groups.begin(), groups.end());
      target.samples.insert(target.samples.end(), m.samples.begin(), m.samples.end());
    }
  }
  return merged;
}

}  // namespace etbench
