// The history report's two formats: Markdown and one self-contained HTML
// page with inline SVG trend charts.
#include "etbench/reports/history_report_render.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "etbench/reports/history_render.h"
#include "history_text.h"
#include "xml_text.h"

namespace etbench::reports {
namespace {

using history::ChangePoint;
using history::HistoryReport;
using history::ModelTrends;
using history::SuiteDetection;
using history::Trend;
using history::TrendPoint;
using internal::ChangeVerdict;
using internal::SignedPercent;

std::string Escape(const std::string& s) { return internal::XmlEscape(s); }
std::string Range(const ChangePoint& c) { return internal::CommitRange(c); }

std::string Fixed(double v, int digits = 1) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, v);
  return buffer;
}

constexpr double kWidth = 720, kHeight = 200, kLeft = 70, kRight = 16, kTop = 22, kBottom = 26;

// One trend: the interval band, the p50 line, a dashed red line at each
// change point labelled with its commit range.
std::string TrendSvg(const Trend& t, std::size_t runs) {
  std::ostringstream svg;
  svg << "<figure><figcaption><code>" << Escape(t.label) << "</code> p50 per run ("
      << Escape(t.unit) << ", band: 95% interval of the run's median)</figcaption>"
      << "<svg class=\"trend-chart\" width=\"" << kWidth << "\" height=\"" << kHeight
      << "\" viewBox=\"0 0 " << kWidth << " " << kHeight << "\" role=\"img\">";
  if (t.points.empty()) return svg.str() + "</svg></figure>";
  double lo = t.points.front().low, hi = t.points.front().high;
  for (const TrendPoint& p : t.points) {
    lo = std::min(lo, p.low);
    hi = std::max(hi, p.high);
  }
  if (hi <= lo) hi = lo + (lo == 0 ? 1 : std::fabs(lo) * 0.01);
  const double pad = (hi - lo) * 0.05;
  lo -= pad;
  hi += pad;
  const double span = std::max<double>(1, static_cast<double>(runs) - 1);
  auto x = [&](std::size_t run) {
    return kLeft + (kWidth - kLeft - kRight) * static_cast<double>(run) / span;
  };
  auto y = [&](double v) { return kTop + (kHeight - kTop - kBottom) * (hi - v) / (hi - lo); };
  svg << "<line class=\"axis\" x1=\"" << kLeft << "\" y1=\"" << kHeight - kBottom << "\" x2=\""
      << kWidth - kRight << "\" y2=\"" << kHeight - kBottom << "\"/>";
  for (int i = 0; i <= 2; ++i) {
    const double v = lo + (hi - lo) * i / 2;
    svg << "<text class=\"tick\" x=\"" << kLeft - 6 << "\" y=\"" << Fixed(y(v)) << "\">"
        << Escape(FormatValue(v, t.unit)) << "</text>";
  }
  svg << "<polygon class=\"band\" points=\"";
  for (const TrendPoint& p : t.points) svg << Fixed(x(p.run)) << "," << Fixed(y(p.high)) << " ";
  for (auto it = t.points.rbegin(); it != t.points.rend(); ++it) {
    svg << Fixed(x(it->run)) << "," << Fixed(y(it->low)) << " ";
  }
  svg << "\"/><polyline class=\"p50\" points=\"";
  for (const TrendPoint& p : t.points) svg << Fixed(x(p.run)) << "," << Fixed(y(p.p50)) << " ";
  svg << "\"/>";
  for (const ChangePoint& c : t.change_points) {
    const double cx = (x(c.index) + x(c.index > 0 ? c.index - 1 : 0)) / 2;
    svg << "<g class=\"change-point\"><title>" << Escape(Range(c) + " " + SignedPercent(c.change))
        << "</title><line class=\"change-line\" x1=\"" << Fixed(cx) << "\" y1=\"" << kTop
        << "\" x2=\"" << Fixed(cx) << "\" y2=\"" << kHeight - kBottom << "\"/><text x=\""
        << Fixed(cx + 3) << "\" y=\"" << kTop - 6 << "\">" << Escape(Range(c)) << " "
        << SignedPercent(c.change) << "</text></g>";
  }
  svg << "<text class=\"tick\" x=\"" << kLeft << "\" y=\"" << kHeight - 8 << "\">run 1</text>"
      << "<text class=\"tick end\" x=\"" << kWidth - kRight << "\" y=\"" << kHeight - 8
      << "\">run " << runs << "</text></svg></figure>";
  return svg.str();
}

constexpr const char* kStyle =
    "body{font-family:'DejaVu Sans',sans-serif;margin:24px;color:#1f2937;max-width:980px}"
    "h1{font-size:22px}h2{font-size:18px;margin-top:28px}h3{font-size:15px}"
    ".banner{padding:10px 14px;border-radius:6px;font-weight:bold;color:#fff}"
    ".banner.fail{background:#b91c1c}.banner.pass{background:#15803d}"
    "table{border-collapse:collapse;margin:8px 0;font-size:13px}"
    "td,th{border:1px solid #d1d5db;padding:4px 8px;text-align:left}"
    "td.num{text-align:right}tr.regression td{background:#fee2e2}"
    "tr.improvement td{background:#dcfce7}tr.acknowledged td{background:#f3f4f6}"
    "figure{margin:10px 0}figcaption{font-size:13px;margin-bottom:2px}"
    ".trend-chart{background:#fafafa;border:1px solid #e5e7eb}"
    ".band{fill:#fdba74;fill-opacity:.45;stroke:none}.p50{fill:none;stroke:#c2410c;stroke-width:1.6}"
    ".axis{stroke:#9ca3af}.tick{font-size:10px;fill:#4b5563;text-anchor:end}.tick.end{text-anchor:end}"
    ".change-line{stroke:#dc2626;stroke-width:1.5;stroke-dasharray:4 3}"
    ".change-point text{font-size:10px;fill:#b91c1c}";

std::string ChangePointTable(const std::vector<ChangePoint>& cps) {
  std::ostringstream out;
  out << "<table class=\"change-points\"><thead><tr><th>id</th><th>metric</th><th>commits</th>"
         "<th>before</th><th>after</th><th>change</th><th>95% CI</th><th>verdict</th>"
         "</tr></thead><tbody>";
  for (const ChangePoint& c : cps) {
    const std::string cls =
        !c.regression ? "improvement" : (c.acknowledged ? "acknowledged" : "regression");
    out << "<tr class=\"" << cls << "\"><td><code>" << c.id << "</code></td><td><code>"
        << Escape(c.label) << "</code></td><td><code>" << Escape(Range(c)) << "</code></td>"
        << "<td class=\"num\">" << Escape(FormatValue(c.before, c.unit)) << "</td><td class=\"num\">"
        << Escape(FormatValue(c.after, c.unit)) << "</td><td class=\"num\">" << SignedPercent(c.change)
        << "</td><td>[" << SignedPercent(c.change_low) << ", " << SignedPercent(c.change_high) << "]</td><td>"
        << ChangeVerdict(c)
        << "</td></tr>";
  }
  out << "</tbody></table>";
  return out.str();
}

}  // namespace

std::string RenderHistoryHtml(const std::vector<HistoryReport>& reports) {
  std::ostringstream out;
  out << "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>etbench history"
         "</title><style>"
      << kStyle << "</style></head><body><h1>etbench history</h1>";
  if (reports.empty()) out << "<p>The history has no runs.</p>";
  for (const HistoryReport& r : reports) {
    const std::size_t open = history::CountOpenRegressions(r.change_points);
    out << "<section class=\"suite\"><h2>" << Escape(r.suite) << " on " << Escape(r.device)
        << "</h2><div class=\"banner " << (open ? "fail" : "pass") << "\">" << open
        << " open regression" << (open == 1 ? "" : "s") << " · " << r.change_points.size()
        << " change point" << (r.change_points.size() == 1 ? "" : "s") << " · " << r.runs.size()
        << " runs";
    if (!r.runs.empty()) {
      out << " · " << Escape(r.runs.front().time) << " → " << Escape(r.runs.back().time);
    }
    out << "</div><h3>Open change points</h3>";
    std::vector<ChangePoint> open_points;
    for (const ChangePoint& c : r.change_points) {
      if (c.regression && !c.acknowledged) open_points.push_back(c);
    }
    out << (open_points.empty() ? std::string("<p>None.</p>") : ChangePointTable(open_points));
    for (const ModelTrends& m : r.models) {
      out << "<section class=\"model\"><h3>" << Escape(m.model) << "</h3>";
      for (const Trend& t : m.trends) out << TrendSvg(t, r.runs.size());
      for (const Trend& t : m.framework_tax) out << TrendSvg(t, r.runs.size());
      out << "</section>";
    }
    if (!r.change_points.empty()) {
      out << "<h3>Every change point</h3>" << ChangePointTable(r.change_points);
    }
    out << "</section>";
  }
  out << "</body></html>\n";
  return out.str();
}

std::string RenderHistoryMarkdown(const std::vector<HistoryReport>& reports) {
  std::ostringstream out;
  for (const HistoryReport& r : reports) {
    const std::size_t open = history::CountOpenRegressions(r.change_points);
    out << "### " << (open ? "❌ " : "✅ ") << r.suite << " on " << r.device << ": " << open
        << " open regression" << (open == 1 ? "" : "s") << ", " << r.change_points.size()
        << " change point" << (r.change_points.size() == 1 ? "" : "s") << " in " << r.runs.size()
        << " runs\n\n| model | `Method::execute` p50 (last run) | change over the history |\n"
           "|---|--:|--:|\n";
    for (const ModelTrends& m : r.models) {
      if (m.trends.empty() || m.trends.front().points.empty()) continue;
      const Trend& e = m.trends.front();
      out << "| " << m.model << " | " << FormatValue(e.points.back().p50, e.unit) << " | "
          << SignedPercent(e.points.back().p50 / e.points.front().p50 - 1) << " |\n";
    }
    out << "\n";
    std::vector<SuiteDetection> group(1);
    group[0].suite = r.suite;
    group[0].device = r.device;
    group[0].detection.runs = r.runs;
    group[0].detection.metrics_tested = r.metrics_tested;
    for (const ChangePoint& c : r.change_points) {
      if (c.regression && !c.acknowledged) group[0].detection.change_points.push_back(c);
    }
    if (!group[0].detection.change_points.empty()) {
      out << "#### Open change points\n\n";
      const std::string table = RenderDetection(group, "markdown");
      out << table.substr(table.find('\n') + 1);  // without its heading line
    }
  }
  if (reports.empty()) out << "The history has no runs.\n";
  return out.str();
}

}  // namespace etbench::reports
