// The history report's two formats: Markdown and one self-contained HTML
// page with inline SVG trend charts.
#include "etbench/reports/history_report_render.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "etbench/base/terminal_text.h"
#include "etbench/base/units.h"
#include "etbench/reports/history_render.h"
#include "history_text.h"
#include "svg_plot.h"
#include "xml_text.h"

namespace etbench::reports {
namespace {

using history::ChangePoint;
using history::HistoryReport;
using history::MachineShift;
using history::ModelTrends;
using history::SuiteDetection;
using history::Trend;
using history::TrendPoint;
using internal::ChangeVerdict;
using internal::CommitRange;
using internal::MachineShiftKind;
using internal::ShiftName;
using internal::ShiftedMetrics;
using internal::SignedInterval;
using internal::SignedPercent;
using ::etbench::DisplayUnit;

std::string Escape(const std::string& s) { return internal::XmlEscape(s); }

std::string Fixed(double v, int digits = 1) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, v);
  return buffer;
}

constexpr double kWidth = 900, kHeight = 236, kLeft = 64, kRight = 20, kTop = 22, kBottom = 50;
// Room for "machine +10.0%" in 10px type, with a gap.
constexpr double kMachineLabelWidth = 80;
// Runs labelled on the x-axis (first and last always): commit and date.
constexpr std::size_t kRunTicks = 7;

// The runs that get an x-axis label: every run of a short history, else
// kRunTicks spread evenly from the first to the last.
std::vector<std::size_t> LabelledRuns(std::size_t runs) {
  std::vector<std::size_t> out;
  if (runs <= kRunTicks) {
    for (std::size_t i = 0; i < runs; ++i) out.push_back(i);
    return out;
  }
  for (std::size_t k = 0; k < kRunTicks; ++k) {
    out.push_back((k * (runs - 1) + (kRunTicks - 1) / 2) / (kRunTicks - 1));
  }
  return out;
}

// The x-axis date of each labelled run, from ISO 8601 times: the day
// ("2026-11-26") when the labelled runs fall on different days, else the
// day and time without the year ("11-26 03:00"); other text as it is.
std::vector<std::string> RunDates(const std::vector<history::RunSummary>& runs,
                                  const std::vector<std::size_t>& labelled) {
  auto iso = [](const std::string& t) { return t.size() >= 16 && t[10] == 'T'; };
  bool distinct_days = true;
  for (std::size_t k = 1; k < labelled.size(); ++k) {
    const std::string& a = runs[labelled[k - 1]].time;
    const std::string& b = runs[labelled[k]].time;
    if (a.substr(0, 10) == b.substr(0, 10)) distinct_days = false;
  }
  std::vector<std::string> dates;
  for (std::size_t i : labelled) {
    const std::string& t = runs[i].time;
    if (!iso(t)) {
      dates.push_back(t);
    } else {
      dates.push_back(distinct_days ? t.substr(0, 10) : t.substr(5, 5) + " " + t.substr(11, 5));
    }
  }
  return dates;
}

// One trend: the interval band, the p50 line, a dotted purple line at each
// machine shift (labelled at the bottom, "machine" and its change), a dashed
// red line at each of the metric's change points labelled with its commit
// range. The y-axis is in one display unit (the caption names it and the
// range, and whether it starts at zero); the x-axis labels runs with their
// commit and date.
std::string TrendSvg(const Trend& t, const std::vector<history::RunSummary>& runs,
                     const std::vector<MachineShift>& shifts) {
  double lo = 0, hi = 1;
  if (!t.points.empty()) {
    lo = t.points.front().low, hi = t.points.front().high;
    for (const TrendPoint& p : t.points) {
      lo = std::min({lo, p.low, p.p50});
      hi = std::max({hi, p.high, p.p50});
    }
  }
  const DisplayUnit unit = ColumnDisplayUnit(t.unit, std::max(std::fabs(lo), std::fabs(hi)));
  double a = lo * unit.factor, b = hi * unit.factor;
  if (!(b > a)) b = a + (a == 0 ? 1 : std::fabs(a) * 0.01);
  const double pad = (b - a) * 0.05;
  // The axis runs from tick to tick, so its range reads as round numbers.
  std::vector<double> ticks = internal::NiceTicks(a - pad, b + pad, 4);
  if (ticks.size() >= 2 && ticks.back() < b + pad) ticks.push_back(ticks.back() + (ticks[1] - ticks[0]));
  a = std::min(a - pad, ticks.front());
  b = std::max(b + pad, ticks.back());
  const std::string unit_name = unit.name.empty() ? "" : " " + unit.name;
  const std::string range = internal::TickLabel(a) + "\u2013" + internal::TickLabel(b) + unit_name;
  std::ostringstream svg;
  svg << "<figure><figcaption><code>" << Escape(t.label) << "</code> p50 per run, in "
      << Escape(unit.name.empty() ? "its unit" : unit.name)
      << " (band: 95% interval of the run's median; y-axis " << Escape(range)
      << (a <= 0 && b >= 0 ? ", from zero" : ", not from zero") << ")</figcaption>"
      << "<svg class=\"trend-chart\" width=\"" << kWidth << "\" height=\"" << kHeight
      << "\" viewBox=\"0 0 " << kWidth << " " << kHeight << "\" role=\"img\">";
  if (t.points.empty()) return svg.str() + "</svg></figure>";
  const double span = std::max<double>(1, static_cast<double>(runs.size()) - 1);
  auto x = [&](std::size_t run) {
    return kLeft + (kWidth - kLeft - kRight) * static_cast<double>(run) / span;
  };
  auto y = [&](double v) {
    return kTop + (kHeight - kTop - kBottom) * (b - v * unit.factor) / (b - a);
  };
  // Between the last run before a change and its first run.
  auto edge = [&](std::size_t index) { return (x(index) + x(index > 0 ? index - 1 : 0)) / 2; };
  const double bottom = kHeight - kBottom;
  svg << "<line class=\"axis\" x1=\"" << kLeft << "\" y1=\"" << bottom << "\" x2=\""
      << kWidth - kRight << "\" y2=\"" << bottom << "\"/>";
  for (double v : ticks) {
    const double ty = kTop + (bottom - kTop) * (b - v) / (b - a);
    svg << "<line class=\"grid\" x1=\"" << kLeft << "\" y1=\"" << Fixed(ty) << "\" x2=\""
        << kWidth - kRight << "\" y2=\"" << Fixed(ty) << "\"/><text class=\"tick\" x=\""
        << kLeft - 6 << "\" y=\"" << Fixed(ty + 3) << "\">"
        << Escape(internal::TickLabel(v) + unit_name) << "</text>";
  }
  const std::vector<std::size_t> labelled = LabelledRuns(runs.size());
  const std::vector<std::string> dates = RunDates(runs, labelled);
  for (std::size_t k = 0; k < labelled.size(); ++k) {
    const std::size_t i = labelled[k];
    const history::RunSummary& r = runs[i];
    const std::string commit =
        r.git_commit.empty() ? "run " + std::to_string(i + 1) : r.git_commit.substr(0, 8);
    // The outer labels align with the plot's edges, so none is cut off.
    const char* align = labelled.size() < 2 ? ""
                        : k == 0             ? " first"
                        : k + 1 == labelled.size() ? " last"
                                                   : "";
    svg << "<g class=\"run-tick\"><line class=\"axis\" x1=\"" << Fixed(x(i)) << "\" y1=\""
        << bottom << "\" x2=\"" << Fixed(x(i)) << "\" y2=\"" << bottom + 4
        << "\"/><text class=\"xtick" << align << "\" x=\"" << Fixed(x(i)) << "\" y=\""
        << bottom + 16 << "\">" << Escape(commit) << "</text><text class=\"xtick date" << align
        << "\" x=\"" << Fixed(x(i)) << "\" y=\"" << bottom + 29 << "\">" << Escape(dates[k])
        << "</text></g>";
  }
  svg << "<polygon class=\"band\" points=\"";
  for (const TrendPoint& p : t.points) svg << Fixed(x(p.run)) << "," << Fixed(y(p.high)) << " ";
  for (auto it = t.points.rbegin(); it != t.points.rend(); ++it) {
    svg << Fixed(x(it->run)) << "," << Fixed(y(it->low)) << " ";
  }
  svg << "\"/><polyline class=\"p50\" points=\"";
  for (const TrendPoint& p : t.points) svg << Fixed(x(p.run)) << "," << Fixed(y(p.p50)) << " ";
  svg << "\"/>";
  // A label only where it does not run into the previous one (a shift
  // every few runs is common on a shared VM); the tooltip has every one.
  double labelled_until = 0;
  for (const MachineShift& m : shifts) {
    // A block's shift (e.g. the load path) is marked only on that block's trends.
    if (!m.group.empty() && t.label.find("/" + m.group + "/") == std::string::npos) continue;
    const double mx = edge(m.index);
    svg << "<g class=\"machine-mark\"><title>"
        << Escape(ShiftName(m) + " " + CommitRange(m) + " " + SignedPercent(m.change) + ": " +
                  ShiftedMetrics(m) + " moved together")
        << "</title><line class=\"machine-line\" x1=\"" << Fixed(mx) << "\" y1=\"" << kTop
        << "\" x2=\"" << Fixed(mx) << "\" y2=\"" << bottom << "\"/>";
    if (mx >= labelled_until) {
      svg << "<text x=\"" << Fixed(mx + 3) << "\" y=\"" << bottom - 4
          << "\">" << Escape(m.group.empty() ? "machine" : m.group) << " "
          << SignedPercent(m.change) << "</text>";
      labelled_until = mx + kMachineLabelWidth;
    }
    svg << "</g>";
  }
  for (const ChangePoint& c : t.change_points) {
    const double cx = edge(c.index);
    svg << "<g class=\"change-point\"><title>"
        << Escape(CommitRange(c) + " " + SignedPercent(c.change))
        << "</title><line class=\"change-line\" x1=\"" << Fixed(cx) << "\" y1=\"" << kTop
        << "\" x2=\"" << Fixed(cx) << "\" y2=\"" << bottom << "\"/><text x=\""
        << Fixed(cx + 3) << "\" y=\"" << kTop - 6 << "\">" << Escape(CommitRange(c)) << " "
        << SignedPercent(c.change) << "</text></g>";
  }
  svg << "</svg></figure>";
  return svg.str();
}

constexpr const char* kStyle =
    "body{font-family:'DejaVu Sans',sans-serif;margin:24px;color:#1f2937;max-width:1000px}"
    "h1{font-size:22px}h2{font-size:18px;margin-top:28px}h3{font-size:15px}"
    ".banner{padding:10px 14px;border-radius:6px;font-weight:bold;color:#fff}"
    ".banner.fail{background:#b91c1c}.banner.pass{background:#15803d}"
    "table{border-collapse:collapse;margin:8px 0;font-size:13px}"
    "td,th{border:1px solid #d1d5db;padding:4px 8px;text-align:left}"
    "td.num{text-align:right;white-space:nowrap}tr.regression td{background:#fee2e2}"
    "tr.improvement td{background:#dcfce7}tr.acknowledged td{background:#f3f4f6}"
    "figure{margin:10px 0}figcaption{font-size:13px;margin-bottom:2px}"
    ".trend-chart{background:#fafafa;border:1px solid #e5e7eb}"
    ".band{fill:#fdba74;fill-opacity:.45;stroke:none}.p50{fill:none;stroke:#c2410c;stroke-width:1.6}"
    ".axis{stroke:#9ca3af}.grid{stroke:#e5e7eb}.tick{font-size:10px;fill:#4b5563;text-anchor:end}"
    ".xtick{font-size:10px;fill:#4b5563;text-anchor:middle;font-family:'DejaVu Sans Mono',monospace}"
    ".xtick.date{font-family:'DejaVu Sans',sans-serif}.xtick.first{text-anchor:start}"
    ".xtick.last{text-anchor:end}"
    ".change-line{stroke:#dc2626;stroke-width:1.5;stroke-dasharray:4 3}"
    ".change-point text{font-size:10px;fill:#b91c1c}";

// Added to kStyle only on pages with a machine shift, so that a page without
// one stays as it was.
constexpr const char* kMachineStyle =
    ".machine-line{stroke:#7c3aed;stroke-width:2.5;stroke-dasharray:1 4;stroke-linecap:round}"
    ".machine-mark text{font-size:10px;fill:#6d28d9}.machine-note{font-size:13px}"
    "tr.machine-shift.passes td{background:#f5f3ff}tr.machine-shift.fails td{background:#fee2e2}"
    "tr.machine-shift.acknowledged td{background:#f3f4f6}"
    ".legend{font-size:12px;color:#4b5563;margin:4px 0}"
    ".swatch{display:inline-block;width:24px;height:0;vertical-align:middle;margin:0 4px 0 14px}"
    ".swatch.change{border-top:2px dashed #dc2626;margin-left:0}"
    ".swatch.machine{border-top:3px dotted #7c3aed}";

// What a machine shift means, and when one fails the gate (docs/history.md,
// "Machine shifts"); both formats say it under their table.
constexpr const char* kMachineMeaning =
    "Every operator moved together: the machine, not the code. Its level is taken out of "
    "every time metric before the metrics' change points are tested, so it is not among them.";
constexpr const char* kBlockMeaning =
    "A shift of block B: every metric of block B (e.g. Default, the load path) moved together "
    "in every model while the operators did not: the machine's, not the code's.";
constexpr const char* kPossibleCodeChange =
    "A shift that could be a code change that slowed every operator is slower, lasts to the "
    "newest run, came with a commit change and reached a level this history has not seen: "
    "timing alone cannot tell the two apart, so it fails the gate until acknowledged";

// Whether the shift fails `history detect` (the nightly gate).
std::string Gate(const MachineShift& m) {
  if (!m.regression) return "passes";
  return m.acknowledged ? "acknowledged" : "FAILS until acknowledged";
}

bool AnyBlockShift(const std::vector<MachineShift>& shifts) {
  return std::any_of(shifts.begin(), shifts.end(),
                     [](const MachineShift& m) { return !m.group.empty(); });
}

bool AnyPossibleCodeChange(const std::vector<MachineShift>& shifts) {
  return std::any_of(shifts.begin(), shifts.end(),
                     [](const MachineShift& m) { return m.possible_code_change; });
}

// " · 2 machine shifts" / ", 2 machine shifts": nothing without one.
std::string ShiftCount(const HistoryReport& r, const std::string& separator) {
  const std::size_t n = r.machine_shifts.size();
  if (n == 0) return "";
  return separator + std::to_string(n) + " machine shift" + (n == 1 ? "" : "s");
}

// Rows of a nightly issue's machine-shift table: every open one, then the
// newest others, kMarkdownShifts in all, in run order.
constexpr std::size_t kMarkdownShifts = 8;
std::vector<const MachineShift*> ShiftsForIssue(const std::vector<MachineShift>& all) {
  std::vector<bool> listed(all.size(), false);
  std::size_t count = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (all[i].regression && !all[i].acknowledged) {
      listed[i] = true;
      ++count;
    }
  }
  for (std::size_t i = all.size(); i-- > 0 && count < kMarkdownShifts;) {
    if (!listed[i]) {
      listed[i] = true;
      ++count;
    }
  }
  std::vector<const MachineShift*> rows;
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (listed[i]) rows.push_back(&all[i]);
  }
  return rows;
}

std::string ChangePointTable(const std::vector<ChangePoint>& cps) {
  std::ostringstream out;
  out << "<table class=\"change-points\"><thead><tr><th>id</th><th>metric</th><th>commits</th>"
         "<th>before</th><th>after</th><th>change</th><th>95% CI</th><th>verdict</th>"
         "</tr></thead><tbody>";
  for (const ChangePoint& c : cps) {
    const std::string cls =
        !c.regression ? "improvement" : (c.acknowledged ? "acknowledged" : "regression");
    out << "<tr class=\"" << cls << "\"><td><code>" << c.id << "</code></td><td><code>"
        << Escape(c.label) << "</code></td><td><code>" << Escape(CommitRange(c)) << "</code></td>"
        << "<td class=\"num\">" << Escape(FormatQuantity(c.before, c.unit)) << "</td><td class=\"num\">"
        << Escape(FormatQuantity(c.after, c.unit)) << "</td><td class=\"num\">" << SignedPercent(c.change)
        << "</td><td>" << SignedInterval(c.change_low, c.change_high) << "</td><td>"
        << ChangeVerdict(c)
        << "</td></tr>";
  }
  out << "</tbody></table>";
  return out.str();
}

std::string MachineShiftTable(const std::vector<MachineShift>& shifts) {
  std::ostringstream out;
  out << "<table class=\"machine-shifts\"><thead><tr><th>id</th><th>first run</th>"
         "<th>commits</th><th>shift</th><th>95% CI</th><th>gate</th><th>what it is</th>"
         "</tr></thead><tbody>";
  for (const MachineShift& m : shifts) {
    const std::string cls = !m.regression ? "passes" : (m.acknowledged ? "acknowledged" : "fails");
    out << "<tr class=\"machine-shift " << cls << "\"><td><code>" << m.id
        << "</code></td><td class=\"num\">" << m.index + 1 << "</td><td><code>"
        << Escape(CommitRange(m)) << "</code></td><td class=\"num\">" << SignedPercent(m.change)
        << "</td><td>" << SignedInterval(m.change_low, m.change_high) << "</td><td>" << Gate(m)
        << "</td><td>" << MachineShiftKind(m) << "</td></tr>";
  }
  out << "</tbody></table><p class=\"machine-note\">" << kMachineMeaning;
  if (AnyBlockShift(shifts)) out << " " << kBlockMeaning;
  if (AnyPossibleCodeChange(shifts)) {
    out << " " << Escape(kPossibleCodeChange) << " (<code>etbench history ack ID</code>).";
  }
  out << "</p>";
  return out.str();
}

// Above a model's charts when the page marks machine shifts on them.
constexpr const char* kLegend =
    "<p class=\"legend\"><span class=\"swatch change\"></span>change point of the metric "
    "(the code)<span class=\"swatch machine\"></span>machine shift (every operator moved "
    "together: the machine, not the code)</p>";

std::string MachineShiftsMarkdown(const std::vector<MachineShift>& shifts) {
  const std::vector<const MachineShift*> rows = ShiftsForIssue(shifts);
  std::ostringstream out;
  out << "#### Machine shifts\n\n" << kMachineMeaning
      << (AnyBlockShift(shifts) ? std::string(" ") + kBlockMeaning : std::string())
      << "\n\n| id | commits | shift | 95% CI | gate | what it is |\n"
         "|---|---|--:|---|---|---|\n";
  bool possible_code_change = false;
  for (const MachineShift* m : rows) {
    possible_code_change = possible_code_change || m->possible_code_change;
    const std::string gate = Gate(*m);
    out << "| `" << m->id << "` | `" << CommitRange(*m) << "` | **" << SignedPercent(m->change)
        << "** | " << SignedInterval(m->change_low, m->change_high) << " | "
        << (m->regression && !m->acknowledged ? "**" + gate + "**" : gate) << " | "
        << MachineShiftKind(*m) << " |\n";
  }
  if (rows.size() < shifts.size()) {
    const std::size_t left = shifts.size() - rows.size();
    out << "\n" << left << " earlier machine shift" << (left == 1 ? "" : "s")
        << " not listed (the HTML report lists every one).\n";
  }
  if (possible_code_change) out << "\n" << kPossibleCodeChange << " (`etbench history ack ID`).\n";
  out << "\n";
  return out.str();
}

}  // namespace

std::string RenderHistoryHtml(const std::vector<HistoryReport>& reports) {
  const bool shifts = std::any_of(reports.begin(), reports.end(), [](const HistoryReport& r) {
    return !r.machine_shifts.empty();
  });
  std::ostringstream out;
  out << "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>etbench history"
         "</title><style>"
      << kStyle << (shifts ? kMachineStyle : "") << "</style></head><body><h1>etbench history</h1>";
  if (reports.empty()) out << "<p>The history has no runs.</p>";
  for (const HistoryReport& r : reports) {
    const std::size_t open = r.OpenRegressions();
    out << "<section class=\"suite\"><h2>" << Escape(r.suite) << " on " << Escape(r.device)
        << "</h2><div class=\"banner " << (open ? "fail" : "pass") << "\">" << open
        << " open regression" << (open == 1 ? "" : "s") << " · " << r.change_points.size()
        << " change point" << (r.change_points.size() == 1 ? "" : "s") << ShiftCount(r, " · ")
        << " · " << r.runs.size() << " runs";
    if (!r.runs.empty()) {
      out << " · " << Escape(r.runs.front().time) << " → " << Escape(r.runs.back().time);
    }
    out << "</div><h3>Open change points</h3>";
    std::vector<ChangePoint> open_points;
    for (const ChangePoint& c : r.change_points) {
      if (c.regression && !c.acknowledged) open_points.push_back(c);
    }
    out << (open_points.empty() ? std::string("<p>None.</p>") : ChangePointTable(open_points));
    if (!r.machine_shifts.empty()) {
      out << "<h3>Machine shifts</h3>" << MachineShiftTable(r.machine_shifts);
    }
    for (const ModelTrends& m : r.models) {
      out << "<section class=\"model\"><h3>" << Escape(m.model) << "</h3>";
      if (!r.machine_shifts.empty()) out << kLegend;
      for (const Trend& t : m.trends) out << TrendSvg(t, r.runs, r.machine_shifts);
      for (const Trend& t : m.framework_tax) out << TrendSvg(t, r.runs, r.machine_shifts);
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
    const std::size_t open = r.OpenRegressions();
    // Names from the history by TerminalText: one line each, no control codes.
    out << "### " << (open ? "❌ " : "✅ ") << TerminalText(r.suite) << " on "
        << TerminalText(r.device) << ": " << open
        << " open regression" << (open == 1 ? "" : "s") << ", " << r.change_points.size()
        << " change point" << (r.change_points.size() == 1 ? "" : "s") << ShiftCount(r, ", ")
        << " in " << r.runs.size()
        << " runs\n\n| model | `Method::execute` p50 (last run) | change over the history |\n"
           "|---|--:|--:|\n";
    for (const ModelTrends& m : r.models) {
      if (m.trends.empty() || m.trends.front().points.empty()) continue;
      const Trend& e = m.trends.front();
      out << "| " << TerminalText(m.model) << " | " << FormatQuantity(e.points.back().p50, e.unit) << " | "
          << SignedPercent(e.points.back().p50 / e.points.front().p50 - 1) << " |\n";
    }
    out << "\n";
    // Only the metrics' change points: the machine shifts get their own
    // section (RenderDetection would put them in this one).
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
    if (!r.machine_shifts.empty()) out << MachineShiftsMarkdown(r.machine_shifts);
  }
  if (reports.empty()) out << "The history has no runs.\n";
  return out.str();
}

}  // namespace etbench::reports
