// A baseline in words (see baseline_summary.h).

#include "etbench/reports/baseline_summary.h"

#include <algorithm>
#include <sstream>
#include <vector>

#include "etbench/base/terminal_text.h"
#include "etbench/base/units.h"
#include "etbench/inspector/perf_data.h"

namespace etbench::reports {

std::string RenderBaselineSummary(const Baseline& baseline) {
  // Names from the file are shown by TerminalText (base/terminal_text.h).
  std::ostringstream out;
  out << "Baseline '" << TerminalText(baseline.name) << "' created "
      << TerminalText(baseline.created) << ", " << baseline.metrics.metrics.size() << " metrics\n";
  for (const auto& [k, v] : baseline.metrics.context) {
    out << "  " << TerminalText(k) << ": " << TerminalText(v) << "\n";
  }
  std::string current;
  for (const Metric& m : baseline.metrics.metrics) {
    const std::string group = m.key.model + (m.key.block.empty() ? "" : "/" + m.key.block);
    if (group != current) {
      out << TerminalText(group) << "\n";
      current = group;
    }
    std::vector<double> sorted = m.samples;
    std::sort(sorted.begin(), sorted.end());
    // For people: the p50 in the unit that fits it ("411 ns").
    const std::string p50 =
        sorted.empty() ? "-" : FormatQuantity(Percentile(sorted, 50), m.unit);
    std::string label = MetricLabel(m.key).substr(group.size() + 1);
    out << "  " << TerminalText(label) << "  n=" << m.samples.size() << "  p50=" << p50 << "\n";
  }
  return out.str();
}

}  // namespace etbench::reports
