// SVG drawing for the HTML report.

#include "svg_plot.h"

#include <algorithm>
#include <cmath>

#include "etbench/inspector/perf_data.h"
#include "report_text.h"
#include "xml_text.h"

#include "etbench/base/utf8.h"

namespace etbench::reports::internal {
namespace {

std::string Num(double v) { return Printf("%.1f", v); }

std::string Legend(const std::vector<Series>& series, double x, double y) {
  std::string out;
  for (const Series& s : series) {
    out += "<rect class=\"" + s.css_class + "\" x=\"" + Num(x) + "\" y=\"" + Num(y - 9) +
           "\" width=\"10\" height=\"10\"/><text x=\"" + Num(x + 14) + "\" y=\"" + Num(y) + "\">" +
           XmlEscape(s.name) + "</text>";
    x += 24 + 7.0 * static_cast<double>(Utf8Length(s.name));
  }
  return out;
}

// The display unit of an axis over [0, max] and its ticks.
struct Axis {
  DisplayUnit unit;
  double lo = 0, hi = 1;  // in display units
  std::vector<double> ticks;
};

Axis MakeAxis(double lo, double hi, const std::string& unit, bool from_zero) {
  Axis axis;
  axis.unit = ColumnDisplayUnit(unit, std::max(std::fabs(lo), std::fabs(hi)));
  double a = lo * axis.unit.factor, b = hi * axis.unit.factor;
  if (from_zero) a = std::min(0.0, a);
  if (!(b > a)) {
    const double pad = a == 0 ? 1 : std::fabs(a) * 0.05;
    a -= pad;
    b += pad;
  }
  axis.ticks = NiceTicks(a, b, 5);
  axis.lo = std::min(a, axis.ticks.front());
  axis.hi = std::max(b, axis.ticks.back());
  return axis;
}

std::string UnitName(const DisplayUnit& unit) { return unit.name == "%" ? "percent" : unit.name; }

// Vertical grid lines with labels for a horizontal value axis.
std::string XAxis(const Axis& axis, double x0, double width, double y_top, double y_bottom,
                  bool labels_on_top) {
  std::string out;
  for (double t : axis.ticks) {
    const double x = x0 + (t - axis.lo) / (axis.hi - axis.lo) * width;
    out += "<line class=\"grid\" x1=\"" + Num(x) + "\" x2=\"" + Num(x) + "\" y1=\"" + Num(y_top) +
           "\" y2=\"" + Num(y_bottom) + "\"/>";
    out += "<text class=\"tick\" text-anchor=\"middle\" x=\"" + Num(x) + "\" y=\"" +
           Num(labels_on_top ? y_top - 4 : y_bottom + 13) + "\">" + TickLabel(t) + "</text>";
  }
  return out;
}

}  // namespace

std::vector<double> NiceTicks(double lo, double hi, int target) {
  if (!(hi > lo)) hi = lo + 1;
  const double raw = (hi - lo) / target;
  const double magnitude = std::pow(10, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    step = m * magnitude;
    if (step >= raw) break;
  }
  std::vector<double> ticks;
  for (double t = std::floor(lo / step) * step; t <= hi + step * 1e-9; t += step) {
    ticks.push_back(std::fabs(t) < step * 1e-9 ? 0 : t);
    if (ticks.size() > 50) break;
  }
  return ticks;
}

std::string TickLabel(double v) {
  std::string s = Printf("%.6g", v);
  return s;
}

std::string SvgBarChart(const std::vector<Series>& series, const std::vector<BarGroup>& groups,
                        const std::string& unit) {
  double max = 0;
  for (const BarGroup& g : groups) {
    for (double v : g.values) {
      if (std::isfinite(v)) max = std::max(max, v);
    }
  }
  const Axis axis = MakeAxis(0, max, unit, true);
  const double label_width = 270, plot_width = 560, bar = 11, gap = 9;
  const double group_height = bar * static_cast<double>(series.size()) + gap;
  const double top = 46;
  const double height = top + group_height * static_cast<double>(groups.size()) + 8;
  const double width = label_width + plot_width + 30;
  std::string out = "<svg class=\"bar-chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                    Num(width) + "\" height=\"" + Num(height) + "\" viewBox=\"0 0 " + Num(width) +
                    " " + Num(height) + "\" role=\"img\">";
  out += Legend(series, label_width, 14);
  out += "<text class=\"axis-unit\" x=\"" + Num(label_width + plot_width) + "\" y=\"14\" "
         "text-anchor=\"end\">" + XmlEscape(UnitName(axis.unit)) + "</text>";
  out += XAxis(axis, label_width, plot_width, top - 8, height - 8, true);
  double y = top;
  for (const BarGroup& g : groups) {
    out += "<g class=\"bar-group\"><title>" + XmlEscape(g.label) + "</title>";
    out += "<text class=\"label\" text-anchor=\"end\" x=\"" + Num(label_width - 6) + "\" y=\"" +
           Num(y + group_height / 2 - gap / 2 + 4) + "\">" + XmlEscape(TruncateMiddle(g.label, 40)) +
           "</text>";
    for (std::size_t s = 0; s < series.size() && s < g.values.size(); ++s) {
      const double v = g.values[s];
      if (!std::isfinite(v)) continue;
      const double w = (v * axis.unit.factor - axis.lo) / (axis.hi - axis.lo) * plot_width;
      out += "<rect class=\"bar " + series[s].css_class + "\" x=\"" + Num(label_width) + "\" y=\"" +
             Num(y + bar * static_cast<double>(s)) + "\" width=\"" + Num(std::max(0.5, w)) +
             "\" height=\"" + Num(bar - 1) + "\"><title>" +
             XmlEscape(series[s].name + ": " + FormatQuantity(v, axis.unit)) + "</title></rect>";
    }
    out += "</g>";
    y += group_height;
  }
  return out + "</svg>";
}

std::string SvgBoxPlot(const std::string& title, const std::vector<Series>& series,
                       const std::vector<const BoxData*>& boxes, const std::string& unit) {
  // The axis spans the whiskers: one far outlier must not squash the boxes.
  double lo = INFINITY, hi = -INFINITY;
  for (const BoxData* b : boxes) {
    if (b == nullptr) continue;
    lo = std::min(lo, b->whisker_low);
    hi = std::max(hi, b->whisker_high);
  }
  if (!std::isfinite(lo)) lo = 0, hi = 1;
  const Axis axis = MakeAxis(lo, hi, unit, false);
  auto clamp = [&](double v) {
    return std::min(std::max(v * axis.unit.factor, axis.lo), axis.hi) / axis.unit.factor;
  };
  const double left = 78, plot_width = 330, row = 38, top = 28;
  const double height = top + row * static_cast<double>(series.size()) + 22;
  const double width = left + plot_width + 16;
  auto x_of = [&](double v) {
    return left + (clamp(v) * axis.unit.factor - axis.lo) / (axis.hi - axis.lo) * plot_width;
  };
  std::string out = "<svg class=\"box-plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                    Num(width) + "\" height=\"" + Num(height) + "\" viewBox=\"0 0 " + Num(width) +
                    " " + Num(height) + "\" role=\"img\"><title>" + XmlEscape(title) + "</title>";
  out += "<text class=\"plot-title\" x=\"4\" y=\"13\">" + XmlEscape(TruncateMiddle(title, 58)) +
         "</text>";
  out += "<text class=\"axis-unit\" text-anchor=\"end\" x=\"" + Num(left + plot_width) +
         "\" y=\"13\">" + XmlEscape(UnitName(axis.unit)) + "</text>";
  out += XAxis(axis, left, plot_width, top, height - 22, false);
  for (std::size_t s = 0; s < series.size(); ++s) {
    const double cy = top + row * static_cast<double>(s) + row / 2;
    out += "<text class=\"label\" text-anchor=\"end\" x=\"" + Num(left - 6) + "\" y=\"" +
           Num(cy + 4) + "\">" + XmlEscape(series[s].name) + "</text>";
    const BoxData* b = s < boxes.size() ? boxes[s] : nullptr;
    if (b == nullptr) {
      out += "<text class=\"tick\" x=\"" + Num(left + 4) + "\" y=\"" + Num(cy + 4) +
             "\">absent</text>";
      continue;
    }
    const std::string cls = series[s].css_class;
    out += "<g class=\"box " + cls + "\"><title>" +
           XmlEscape(series[s].name + ": n=" + std::to_string(b->count) + ", min " +
                     FormatQuantity(b->min, axis.unit) + ", q1 " + FormatQuantity(b->q1, axis.unit) +
                     ", median " + FormatQuantity(b->median, axis.unit) + ", q3 " +
                     FormatQuantity(b->q3, axis.unit) + ", max " + FormatQuantity(b->max, axis.unit)) +
           "</title>";
    out += "<line class=\"whisker\" x1=\"" + Num(x_of(b->whisker_low)) + "\" x2=\"" +
           Num(x_of(b->whisker_high)) + "\" y1=\"" + Num(cy) + "\" y2=\"" + Num(cy) + "\"/>";
    for (double v : {b->whisker_low, b->whisker_high}) {
      out += "<line class=\"whisker\" x1=\"" + Num(x_of(v)) + "\" x2=\"" + Num(x_of(v)) +
             "\" y1=\"" + Num(cy - 5) + "\" y2=\"" + Num(cy + 5) + "\"/>";
    }
    out += "<rect class=\"iqr\" x=\"" + Num(x_of(b->q1)) + "\" y=\"" + Num(cy - 9) +
           "\" width=\"" + Num(std::max(1.0, x_of(b->q3) - x_of(b->q1))) + "\" height=\"18\"/>";
    out += "<line class=\"median\" x1=\"" + Num(x_of(b->median)) + "\" x2=\"" +
           Num(x_of(b->median)) + "\" y1=\"" + Num(cy - 9) + "\" y2=\"" + Num(cy + 9) + "\"/>";
    // Raw samples, jittered vertically by a fixed pattern (deterministic);
    // those beyond the axis sit on its edge and are counted.
    std::size_t below = 0, above = 0;
    for (std::size_t i = 0; i < b->points.size(); ++i) {
      const double v = b->points[i];
      below += v * axis.unit.factor < axis.lo;
      above += v * axis.unit.factor > axis.hi;
      const double jitter = static_cast<double>((i * 7919) % 17) - 8;
      out += "<circle class=\"pt\" cx=\"" + Num(x_of(v)) + "\" cy=\"" + Num(cy + jitter) +
             "\" r=\"1.6\"/>";
    }
    if (above > 0) {
      out += "<text class=\"tick outliers\" x=\"" + Num(left + plot_width + 2) + "\" y=\"" +
             Num(cy - 11) + "\" text-anchor=\"end\">" + std::to_string(above) + " \u2192 max " +
             XmlEscape(FormatQuantity(b->max, axis.unit)) + "</text>";
    }
    if (below > 0) {
      out += "<text class=\"tick outliers\" x=\"" + Num(left) + "\" y=\"" + Num(cy - 11) +
             "\">\u2190 " + std::to_string(below) + " (min " +
             XmlEscape(FormatQuantity(b->min, axis.unit)) + ")</text>";
    }
    out += "</g>";
  }
  return out + "</svg>";
}

namespace {

// One group of consecutive runs of a long series: its median and its 10th
// and 90th percentiles (the inspector's Percentile), at the group's middle.
struct RunGroup {
  double middle = 0;  // run index
  double p10 = 0, median = 0, p90 = 0;
};

std::vector<RunGroup> GroupRuns(const std::vector<double>& values, std::size_t per_group) {
  std::vector<RunGroup> groups;
  for (std::size_t start = 0; start < values.size(); start += per_group) {
    const std::size_t end = std::min(values.size(), start + per_group);
    std::vector<double> finite;
    for (std::size_t i = start; i < end; ++i) {
      if (std::isfinite(values[i])) finite.push_back(values[i]);
    }
    if (finite.empty()) continue;
    std::sort(finite.begin(), finite.end());
    groups.push_back({static_cast<double>(start + end - 1) / 2, Percentile(finite, 10),
                      Percentile(finite, 50), Percentile(finite, 90)});
  }
  return groups;
}

}  // namespace

std::size_t RunsPerGroup(std::size_t runs) {
  return runs <= kMaxRunPoints ? 1 : (runs + kMaxRunPoints - 1) / kMaxRunPoints;
}

std::string SvgRunChart(const std::string& title, const std::vector<Series>& series,
                        const std::vector<std::vector<double>>& values, const std::string& unit) {
  std::size_t runs = 0;
  for (const auto& v : values) runs = std::max(runs, v.size());
  const std::size_t per_group = RunsPerGroup(runs);
  // Long series are drawn as groups of consecutive runs: a line through
  // their medians and a band from their 10th to 90th percentile, so the
  // size and the ink stay bounded whatever the number of runs.
  std::vector<std::vector<RunGroup>> grouped;
  double lo = INFINITY, hi = -INFINITY;
  for (const auto& v : values) {
    grouped.push_back(per_group > 1 ? GroupRuns(v, per_group) : std::vector<RunGroup>{});
    if (per_group > 1) {
      for (const RunGroup& g : grouped.back()) lo = std::min(lo, g.p10), hi = std::max(hi, g.p90);
      continue;
    }
    for (double x : v) {
      if (!std::isfinite(x)) continue;
      lo = std::min(lo, x);
      hi = std::max(hi, x);
    }
  }
  if (!std::isfinite(lo)) lo = 0, hi = 1;
  const Axis axis = MakeAxis(lo, hi, unit, false);
  const double left = 52, plot_width = 360, top = 40, plot_height = 110;
  const double width = left + plot_width + 16, height = top + plot_height + 30;
  auto x_of = [&](double i) {
    return left + (runs <= 1 ? plot_width / 2 : i / static_cast<double>(runs - 1) * plot_width);
  };
  auto y_of = [&](double v) {
    return top + plot_height - (v * axis.unit.factor - axis.lo) / (axis.hi - axis.lo) * plot_height;
  };
  std::string out = "<svg class=\"run-chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                    Num(width) + "\" height=\"" + Num(height) + "\" viewBox=\"0 0 " + Num(width) +
                    " " + Num(height) + "\" role=\"img\"><title>" + XmlEscape(title) + "</title>";
  out += "<text class=\"plot-title\" x=\"4\" y=\"13\">" + XmlEscape(TruncateMiddle(title, 58)) +
         "</text>";
  out += Legend(series, left, 30);
  for (double t : axis.ticks) {
    const double y = top + plot_height - (t - axis.lo) / (axis.hi - axis.lo) * plot_height;
    out += "<line class=\"grid\" x1=\"" + Num(left) + "\" x2=\"" + Num(left + plot_width) +
           "\" y1=\"" + Num(y) + "\" y2=\"" + Num(y) + "\"/><text class=\"tick\" text-anchor=\"end\" x=\"" +
           Num(left - 4) + "\" y=\"" + Num(y + 4) + "\">" + TickLabel(t) +
           (axis.unit.name == "%" ? "%" : "") + "</text>";
  }
  // Runs are numbered from 1 for people.
  out += "<text class=\"tick\" x=\"" + Num(left) + "\" y=\"" + Num(height - 8) + "\">run 1</text>";
  out += "<text class=\"tick\" text-anchor=\"end\" x=\"" + Num(left + plot_width) + "\" y=\"" +
         Num(height - 8) + "\">run " + std::to_string(runs) + "</text>";
  if (per_group > 1) {
    out += "<text class=\"tick\" text-anchor=\"middle\" x=\"" + Num(left + plot_width / 2) +
           "\" y=\"" + Num(height - 8) + "\">" + std::to_string(per_group) +
           " runs per point</text>";
  }
  for (std::size_t s = 0; s < series.size() && s < values.size(); ++s) {
    std::string points;
    std::string extra;  // dots, or the band
    if (per_group > 1) {
      std::string band;
      for (const RunGroup& g : grouped[s]) {
        points += Num(x_of(g.middle)) + "," + Num(y_of(g.median)) + " ";
        band += Num(x_of(g.middle)) + "," + Num(y_of(g.p90)) + " ";
      }
      for (auto it = grouped[s].rbegin(); it != grouped[s].rend(); ++it) {
        band += Num(x_of(it->middle)) + "," + Num(y_of(it->p10)) + " ";
      }
      if (!band.empty()) band.pop_back();
      extra = "<polygon class=\"band\" points=\"" + band + "\"/>";
    } else {
      for (std::size_t i = 0; i < values[s].size(); ++i) {
        const double v = values[s][i];
        if (!std::isfinite(v)) continue;
        points += Num(x_of(static_cast<double>(i))) + "," + Num(y_of(v)) + " ";
        if (values[s].size() <= 200) {
          extra += "<circle class=\"pt\" cx=\"" + Num(x_of(static_cast<double>(i))) + "\" cy=\"" +
                   Num(y_of(v)) + "\" r=\"1.8\"/>";
        }
      }
    }
    if (!points.empty()) points.pop_back();
    out += "<g class=\"series " + series[s].css_class + "\">" +
           (per_group > 1 ? extra : std::string()) + "<polyline points=\"" + points + "\"/>" +
           (per_group > 1 ? std::string() : extra) + "</g>";
  }
  return out + "</svg>";
}

}  // namespace etbench::reports::internal
