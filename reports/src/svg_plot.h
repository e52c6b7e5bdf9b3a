#pragma once
// Inline SVG charts for the HTML report: grouped horizontal bars, box plots
// with the raw samples, and per-run series. The caller supplies finished
// numbers (quantiles come from the inspector's Percentile); these functions
// only draw.

#include <cstddef>
#include <string>
#include <vector>

namespace etbench::reports::internal {

/// A data series (baseline, candidate, or a run); `css_class` colours it.
struct Series {
  std::string name;
  std::string css_class;
};

/// One group of bars: a label and one value per series (NaN = absent).
struct BarGroup {
  std::string label;
  std::vector<double> values;
};

/// Horizontal grouped bars, one group per row, with a legend and an axis in
/// a display unit chosen from the largest value (values are in `unit`).
std::string SvgBarChart(const std::vector<Series>& series, const std::vector<BarGroup>& groups,
                        const std::string& unit);

/// One box: quantiles and the raw points drawn over it.
struct BoxData {
  double min = 0, q1 = 0, median = 0, q3 = 0, max = 0;
  /// Tukey whiskers: the most extreme samples within 1.5 IQR of the box.
  double whisker_low = 0, whisker_high = 0;
  std::size_t count = 0;
  std::vector<double> points;  // already thinned by the caller
};

/// One small box plot: a box per series (absent boxes are skipped) on a
/// shared axis spanning the whiskers (outliers beyond it are drawn at its
/// edge and counted); `title` above it.
std::string SvgBoxPlot(const std::string& title, const std::vector<Series>& series,
                       const std::vector<const BoxData*>& boxes, const std::string& unit);

/// "Nice" axis ticks (1, 2, 5 × 10^k) covering [lo, hi], about `target`
/// of them (at most 51).
std::vector<double> NiceTicks(double lo, double hi, int target);

/// Tick labels without trailing zeros ("0.5", "10", "2.25").
std::string TickLabel(double value);

/// Runs drawn one by one up to this many; longer series are drawn in groups.
constexpr std::size_t kMaxRunPoints = 120;

/// Consecutive runs per drawn point for a series of `runs` runs (1 up to
/// kMaxRunPoints runs).
std::size_t RunsPerGroup(std::size_t runs);

/// Values per run index, one polyline (with dots) per series; past
/// kMaxRunPoints runs, per group of RunsPerGroup consecutive runs a line
/// through their medians over a band from their 10th to 90th percentile.
std::string SvgRunChart(const std::string& title, const std::vector<Series>& series,
                        const std::vector<std::vector<double>>& values, const std::string& unit);

}  // namespace etbench::reports::internal
