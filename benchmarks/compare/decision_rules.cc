// The gate-quality evaluation's judging of one comparison (decision_rules.h).

#include "decision_rules.h"

#include <algorithm>
#include <map>

#include "etbench/stats/mann_whitney.h"

namespace etbench::gate_quality {

Outcome Judge(const std::vector<Row>& rows, const Target& target, bool pass) {
  Outcome o;
  o.passed = pass;
  double best = -1;
  std::string first;
  const auto is_target_op = [&](const std::string& name) {
    return name.find(target.op) != std::string::npos;
  };
  for (const auto& [name, end_to_end, regression, change] : rows) {
    if (!regression) continue;
    o.flagged = true;
    if (target.end_to_end ? name == "Method::execute" : (!end_to_end && is_target_op(name))) {
      o.detected = true;
    }
    if (!end_to_end && change > best) {
      best = change;
      first = name;
    }
  }
  o.named_first = !first.empty() && is_target_op(first);
  return o;
}

std::vector<Row> RowsOf(const Comparison& c) {
  std::vector<Row> rows;
  for (const MetricComparison& r : c.rows) {
    if (!r.gated) continue;
    rows.emplace_back(r.key.name, r.end_to_end, r.verdict == Verdict::kRegression, r.change);
  }
  return rows;
}

std::vector<Row> GbenchRule(const MetricSet& a, const MetricSet& b) {
  std::map<MetricKey, const Metric*> by_key;
  for (const Metric& m : a.metrics) by_key[m.key] = &m;
  std::vector<Row> rows;
  for (const Metric& m : b.metrics) {
    auto it = by_key.find(m.key);
    if (it == by_key.end() || m.key.kind != MetricKind::kEvent) continue;
    if (!m.is_kernel_or_delegate_call && m.key.name != "Method::execute") continue;
    if (m.samples.empty() || it->second->samples.empty()) continue;
    const MannWhitneyResult r = MannWhitneyUUnsorted(it->second->samples, m.samples);
    std::vector<double> sa = it->second->samples, sb = m.samples;
    std::nth_element(sa.begin(), sa.begin() + static_cast<std::ptrdiff_t>(sa.size() / 2), sa.end());
    std::nth_element(sb.begin(), sb.begin() + static_cast<std::ptrdiff_t>(sb.size() / 2), sb.end());
    const double ma = sa[sa.size() / 2], mb = sb[sb.size() / 2];
    rows.emplace_back(m.key.name, m.end_to_end, r.p_value < 0.05 && mb > ma, mb / ma - 1);
  }
  return rows;
}

}  // namespace etbench::gate_quality
