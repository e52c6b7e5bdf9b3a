// Attribution of the change of Method::execute.

#include "etbench/compare/attribution.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "etbench/base/units.h"
#include "etbench/inspector/perf_data.h"

namespace etbench {
namespace {

double Median(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  return Percentile(samples, 50.0);
}

std::string ItemLabel(const MetricKey& key) {
  std::string label = key.name;
  if (key.instruction_id) label += " #" + std::to_string(*key.instruction_id);
  if (key.occurrence != 0) label += " (occurrence " + std::to_string(key.occurrence) + ")";
  return label;
}

using BlockId = std::pair<std::string, std::string>;

}  // namespace

std::vector<Attribution> ComputeAttribution(const MetricSet& baseline,
                                            const MetricSet& candidate) {
  auto execute_of = [](const MetricSet& set) {
    std::map<BlockId, const Metric*> out;
    for (const Metric& m : set.metrics) {
      if (MetricEventRole(m.key) == EventRole::kMethodExecute && m.key.occurrence == 0 &&
          !m.samples.empty()) {
        out.emplace(BlockId{m.key.model, m.key.block}, &m);
      }
    }
    return out;
  };
  const auto exec_b = execute_of(baseline);
  const auto exec_c = execute_of(candidate);

  std::vector<Attribution> result;
  for (const auto& [block, mb] : exec_b) {
    auto it = exec_c.find(block);
    if (it == exec_c.end() || it->second->unit != mb->unit) continue;
    Attribution a;
    a.model = block.first;
    a.block = block.second;
    a.unit = mb->unit;
    a.baseline_execute = Median(mb->samples);
    a.candidate_execute = Median(it->second->samples);
    a.delta = a.candidate_execute - a.baseline_execute;

    // Kernel and delegate calls of this block on either side.
    std::map<MetricKey, std::pair<const Metric*, const Metric*>> calls;
    for (const Metric& m : baseline.metrics) {
      if (m.is_kernel_or_delegate_call && m.key.model == a.model && m.key.block == a.block &&
          m.unit == a.unit && !m.samples.empty()) {
        calls[m.key].first = &m;
      }
    }
    for (const Metric& m : candidate.metrics) {
      if (m.is_kernel_or_delegate_call && m.key.model == a.model && m.key.block == a.block &&
          m.unit == a.unit && !m.samples.empty()) {
        calls[m.key].second = &m;
      }
    }
    double explained = 0;
    for (const auto& [key, sides] : calls) {
      AttributionItem item;
      item.key = key;
      item.label = ItemLabel(key);
      const EventRole role = MetricEventRole(key);
      const bool delegated = role == EventRole::kDelegateCall || role == EventRole::kDelegateEvent;
      if (sides.first && sides.second) {
        item.kind = delegated ? AttributionItem::Kind::kDelegate : AttributionItem::Kind::kKernel;
        item.delta = Median(sides.second->samples) - Median(sides.first->samples);
      } else if (sides.second) {
        item.kind = AttributionItem::Kind::kAdded;
        item.delta = Median(sides.second->samples);
        item.label += " (added)";
      } else {
        item.kind = AttributionItem::Kind::kRemoved;
        item.delta = -Median(sides.first->samples);
        item.label += " (removed)";
      }
      explained += item.delta;
      a.items.push_back(std::move(item));
    }
    AttributionItem overhead;
    overhead.kind = AttributionItem::Kind::kFrameworkOverhead;
    overhead.label = "framework overhead";
    overhead.delta = a.delta - explained;
    a.items.push_back(overhead);
    for (AttributionItem& item : a.items) {
      item.share = a.delta != 0 ? item.delta / a.delta : 0;
    }
    std::stable_sort(a.items.begin(), a.items.end(),
                     [](const AttributionItem& x, const AttributionItem& y) {
                       return std::fabs(x.delta) > std::fabs(y.delta);
                     });
    result.push_back(std::move(a));
  }
  return result;
}

std::string AttributionSentence(const Attribution& attribution, std::size_t max_items) {
  // One unit for the whole sentence, scaled for people as a table column is
  // (ColumnDisplayUnit: "+27.52 us: +24.50 from …", not "+0.0275 ms: +0.0245
  // from …" in the metric's unit).
  double largest = std::fabs(attribution.delta);
  for (const AttributionItem& item : attribution.items) {
    largest = std::max(largest, std::fabs(item.delta));
  }
  const DisplayUnit unit = ColumnDisplayUnit(attribution.unit, largest);
  const auto number = [&unit](double value) {
    const std::string digits = FormatDigits(value * unit.factor);
    return digits.front() == '-' ? digits : "+" + digits;
  };
  std::string text = number(attribution.delta) + " " + unit.name + ":";
  std::size_t shown = 0;
  for (const AttributionItem& item : attribution.items) {
    if (shown == max_items) {
      text += ", …";
      break;
    }
    text += (shown == 0 ? " " : ", ") + number(item.delta) + " from " + item.label;
    ++shown;
  }
  return text;
}

}  // namespace etbench
