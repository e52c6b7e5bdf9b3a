// What the nightly gate reads of its nights (see night_values.h).

#include "night_values.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "etbench/compare/machine_level.h"
#include "operator_call_wrappers.h"

namespace etbench::internal {

Result<MetricIndex> IndexOf(const MetricSet& set, const std::string& side) {
  MetricIndex index;
  for (const Metric& m : set.metrics) {
    if (!index.emplace(m.key, &m).second) {
      return InputError("duplicate metric in " + side + ": " + MetricLabel(m.key));
    }
  }
  return index;
}

bool IsTime(const Metric& m) {
  return m.key.kind == MetricKind::kEvent && m.unit != "percent" && m.unit != "bytes";
}

namespace {

// One session's value. Time metrics under a p50 rule: the lower decile of
// the run's samples — background load only ever adds time, so on a shared
// machine the fast tail is what the code costs, while the median moves with
// whatever else ran (history detect reads the same statistic; on this VM's
// recorded nights its robust spread between nights was 1–2% against 3–6%
// for the median). Otherwise the median over repetitions of each
// repetition's statistic (without usable group sizes the run is one
// repetition).
std::optional<double> SessionValue(const Metric& m, Statistic statistic) {
  if (m.samples.empty()) return std::nullopt;
  if (IsTime(m) && statistic == Statistic::kP50) {
    return StatisticOf(m.samples, Statistic::kP10);
  }
  std::vector<uint64_t> groups = m.group_sizes;
  uint64_t total = 0;
  for (uint64_t g : groups) total += g;
  if (groups.empty() || total != m.samples.size()) groups = {m.samples.size()};
  std::vector<double> values;
  std::size_t at = 0;
  for (uint64_t g : groups) {
    if (g == 0) continue;
    std::vector<double> rep(m.samples.begin() + static_cast<std::ptrdiff_t>(at),
                            m.samples.begin() + static_cast<std::ptrdiff_t>(at + g));
    at += g;
    std::sort(rep.begin(), rep.end());
    values.push_back(ComputeStatistic(rep, statistic));
  }
  return MedianOf(values);
}

}  // namespace

// A night of several sessions (fresh processes: `gate --sessions N`, its
// session_sizes). Time metrics under a p50 rule: the lower decile over the
// sessions of each session's value (with 6 sessions the mean of the two
// fastest). A fresh process lands in one of a few memory-layout modes (on
// the idle VM mlp's Method::execute at ~293 or ~306 us, 4% apart, about
// 60/40) and load only adds time, so the fast side is what the code
// costs; the median of 6 flipped between the modes from night to night and
// failed 6.5% of 336 unchanged recorded nights, the lower decile 2.4%
// (docs/comparison.md, "Native six-session nights"). Other
// metrics: the median over sessions, which keeps one disturbed session
// from moving the night.
std::optional<double> NightValue(const Metric& m, Statistic statistic) {
  uint64_t reps = 0, total = 0;
  for (uint64_t s : m.session_sizes) reps += s;
  for (uint64_t g : m.group_sizes) total += g;
  if (m.session_sizes.size() < 2 || reps != m.group_sizes.size() || total != m.samples.size()) {
    return SessionValue(m, statistic);
  }
  std::vector<double> values;
  std::size_t group = 0, at = 0;
  for (uint64_t s : m.session_sizes) {
    Metric one;
    one.key = m.key;
    one.unit = m.unit;
    for (uint64_t r = 0; r < s; ++r, ++group) {
      const uint64_t g = m.group_sizes[group];
      one.group_sizes.push_back(g);
      one.samples.insert(one.samples.end(), m.samples.begin() + static_cast<std::ptrdiff_t>(at),
                         m.samples.begin() + static_cast<std::ptrdiff_t>(at + g));
      at += g;
    }
    if (auto v = SessionValue(one, statistic)) values.push_back(*v);
  }
  if (values.empty()) return std::nullopt;
  if (IsTime(m) && statistic == Statistic::kP50) {
    std::sort(values.begin(), values.end());
    return ComputeStatistic(values, Statistic::kP10);
  }
  return MedianOf(values);
}

// Tonight's value: the faster of the run and its confirmation run (a
// second session of the suspect models), since load only adds time.
std::optional<double> TonightValue(const Metric& m, const MetricIndex* confirmation,
                                   Statistic statistic) {
  std::optional<double> v = NightValue(m, statistic);
  if (!confirmation) return v;
  auto it = confirmation->find(m.key);
  if (it == confirmation->end()) return v;
  const std::optional<double> again = NightValue(*it->second, statistic);
  if (!v || !again) return v ? v : again;
  return std::min(*v, *again);
}

// Per model, per night (baseline nights then tonight): the machine's level
// from the other models' time metrics (the model's own change must not be
// removed as the machine's). 0 where too few metrics. OPERATOR_CALL
// wrappers of measured kernels take no part: a wrapper measures its kernel
// again (plus dispatch), and counting it would let a model of 6 metrics pass
// for the kMinLevelMetrics a level needs — on configs/executorch.yaml,
// bundled_program's 6 metrics and 3 wrappers gave `add` a level that took a
// shared kernel's regression for the machine's (docs/comparison.md, "Nights
// of a real runner"), and the recorded nights the gate is measured on hold
// no wrappers (benchmarks/history/night_data.h).
std::map<std::string, std::vector<double>> ModelLevels(const std::vector<MetricIndex>& nights,
                                                       const MetricIndex& tonight,
                                                       const MetricIndex* confirmation) {
  std::map<MetricKey, RunSeries> series;
  std::set<std::string> models;
  const auto add = [&](const MetricIndex& index, std::size_t night) {
    const bool is_tonight = night == nights.size();
    std::vector<const Metric*> metrics;
    for (const auto& [key, m] : index) metrics.push_back(m);
    const std::vector<bool> wrappers = OperatorCallWrappers(metrics);
    for (std::size_t i = 0; i < metrics.size(); ++i) {
      const MetricKey& key = metrics[i]->key;
      const Metric* m = metrics[i];
      models.insert(key.model);
      if (!IsTime(*m) || wrappers[i]) continue;
      const std::optional<double> v = is_tonight
                                          ? TonightValue(*m, confirmation, Statistic::kP50)
                                          : NightValue(*m, Statistic::kP50);
      if (!v || !(*v > 0)) continue;
      series[key].values.push_back(*v);
      series[key].run_index.push_back(night);
    }
  };
  for (std::size_t n = 0; n < nights.size(); ++n) add(nights[n], n);
  add(tonight, nights.size());
  std::map<std::string, std::vector<double>> levels;
  for (const std::string& model : models) {
    std::vector<const RunSeries*> others;
    for (const auto& [key, s] : series) {
      if (key.model != model) others.push_back(&s);
    }
    // kMinLevelMetrics of the other models: with fewer (two small models,
    // configs/executorch.yaml) a runtime change moves the other model too,
    // and its "level" would take the change away (docs/comparison.md,
    // "Nights of a real runner").
    std::vector<double> level = MachineLevel(others, nights.size() + 1);
    for (double& l : level) {
      if (!std::isfinite(l)) l = 0;
    }
    levels[model] = std::move(level);
  }
  return levels;
}

}  // namespace etbench::internal
