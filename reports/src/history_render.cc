#include "etbench/reports/history_render.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "etbench/base/csv.h"
#include "etbench/base/join.h"
#include "etbench/base/terminal_text.h"
#include "etbench/base/units.h"
#include "etbench/base/utf8.h"
#include "etbench/inspector/format_units.h"
#include "history_text.h"

namespace etbench::reports {
namespace {

using history::ChangePoint;
using history::Detection;
using history::HistoryWindow;
using history::MachineShift;
using history::MetricHistory;
using history::RunSummary;
using history::SeriesPoint;
using history::SuiteDetection;
using internal::ChangeVerdict;
using internal::CommitRange;
using internal::MachineShiftVerdict;
using internal::ShortCommit;
using internal::ShiftName;
using internal::ShiftedMetrics;
using internal::SignedInterval;
using internal::SignedPercent;

std::string Number(double v) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  return buffer;
}

nlohmann::json ChangePointJson(const ChangePoint& c) {
  nlohmann::json j = {{"id", c.id},
                      {"metric", c.label},
                      {"unit", c.unit},
                      {"end_to_end", c.end_to_end},
                      {"run_index", c.index},
                      {"commit_before", c.commit_before},
                      {"commit_after", c.commit_after},
                      {"time", c.time_after},
                      {"before", c.before},
                      {"after", c.after},
                      {"runs_before", c.runs_before},
                      {"runs_after", c.runs_after},
                      {"change", c.change},
                      {"change_ci", {c.change_low, c.change_high}},
                      {"p_value", c.p_value},
                      {"regression", c.regression},
                      {"acknowledged", c.acknowledged},
                      {"moved_together", c.moved_together}};
  if (c.attribution) {
    nlohmann::json items = nlohmann::json::array();
    for (const AttributionItem& item : c.attribution->items) {
      items.push_back({{"label", item.label}, {"delta", item.delta}, {"share", item.share}});
    }
    j["attribution"] = {{"before", c.attribution->baseline_execute},
                        {"after", c.attribution->candidate_execute},
                        {"delta", c.attribution->delta},
                        {"items", items}};
  }
  return j;
}

nlohmann::json MachineShiftJson(const MachineShift& m) {
  nlohmann::json j = {{"id", m.id},
          {"run_index", m.index},
          {"commit_before", m.commit_before},
          {"commit_after", m.commit_after},
          {"time", m.time_after},
          {"runs_before", m.runs_before},
          {"runs_after", m.runs_after},
          {"change", m.change},
          {"change_ci", {m.change_low, m.change_high}},
          {"p_value", m.p_value},
          {"persists", m.persists},
          {"possible_code_change", m.possible_code_change},
          {"regression", m.regression},
          {"acknowledged", m.acknowledged}};
  if (!m.group.empty()) j["group"] = m.group;
  return j;
}

}  // namespace

std::string RenderRunList(const std::vector<RunSummary>& runs, const std::string& format) {
  if (format == "json") {
    nlohmann::json j = nlohmann::json::array();
    for (const RunSummary& r : runs) {
      j.push_back({{"run_id", r.run_id},   {"suite", r.suite},   {"device", r.device},
                   {"host", r.host},       {"boot_id", r.boot_id}, {"commit", r.git_commit},
                   {"branch", r.branch},   {"time", r.time},     {"status", r.status},
                   {"labels", r.labels},   {"source", r.source}, {"metrics", r.metric_count}});
    }
    return j.dump(2) + "\n";
  }
  // One row per run under a header, columns as wide as their widest cell;
  // cells (names from the history) by TerminalText.
  std::vector<std::vector<std::string>> rows{
      {"time", "run", "suite", "device", "host", "branch@commit", "status", "metrics"}};
  for (const RunSummary& r : runs) {
    rows.push_back({r.time, r.run_id.substr(0, 12), r.suite, r.device, r.host,
                    (r.branch.empty() ? "?" : r.branch) + "@" +
                        (r.git_commit.empty() ? "?" : ShortCommit(r.git_commit)),
                    r.status, std::to_string(r.metric_count)});
  }
  for (auto& row : rows) {
    for (std::string& cell : row) cell = TerminalText(cell);
  }
  std::vector<std::size_t> widths(rows.front().size(), 0);
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], Utf8Length(row[i]));
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      const bool last = i + 1 == row.size();
      line += last ? PadLeft(row[i], widths[i]) : PadRight(row[i], widths[i]) + "  ";
    }
    out += line + "\n";
  }
  return out + std::to_string(runs.size()) + " run" + (runs.size() == 1 ? "" : "s") + "\n";
}

std::string RenderSeries(const HistoryWindow& window, const std::string& format) {
  std::map<int64_t, const RunSummary*> runs;
  for (const RunSummary& r : window.runs) runs[r.id] = &r;
  if (format == "csv") {
    std::string out = "metric,unit,run_id,commit,branch,time,device,p50,n\n";
    for (const MetricHistory& h : window.metrics) {
      for (const SeriesPoint& p : h.points) {
        const RunSummary& r = *runs.at(p.run);
        out += CsvField(h.label) + "," + CsvField(h.metric.unit) + "," + r.run_id + "," +
               CsvField(r.git_commit) + "," + CsvField(r.branch) + "," + r.time + "," +
               CsvField(r.device) + "," + Number(p.p50) + "," + std::to_string(p.n) + "\n";
      }
    }
    return out;
  }
  if (format == "json") {
    nlohmann::json j = nlohmann::json::array();
    for (const MetricHistory& h : window.metrics) {
      nlohmann::json points = nlohmann::json::array();
      for (const SeriesPoint& p : h.points) {
        const RunSummary& r = *runs.at(p.run);
        points.push_back({{"run_id", r.run_id}, {"commit", r.git_commit}, {"time", r.time},
                          {"p50", p.p50}, {"n", p.n}});
      }
      j.push_back({{"metric", h.label}, {"unit", h.metric.unit}, {"points", points}});
    }
    return j.dump(2) + "\n";
  }
  std::ostringstream out;
  for (const MetricHistory& h : window.metrics) {
    out << TerminalText(h.label) << " (p50 per run)\n";
    for (const SeriesPoint& p : h.points) {
      const RunSummary& r = *runs.at(p.run);
      out << "  " << TerminalText(r.time) << "  "
          << (r.git_commit.empty() ? "?" : TerminalText(ShortCommit(r.git_commit)))
          << "  " << FormatQuantity(p.p50, h.metric.unit) << "  n=" << p.n << "\n";
    }
  }
  if (window.metrics.empty()) out << "no metric matches\n";
  return out.str();
}

std::string RenderDetection(const std::vector<SuiteDetection>& groups, const std::string& format) {
  if (format == "json") {
    nlohmann::json j = nlohmann::json::array();
    for (const SuiteDetection& g : groups) {
      nlohmann::json cps = nlohmann::json::array();
      for (const ChangePoint& c : g.detection.change_points) cps.push_back(ChangePointJson(c));
      j.push_back({{"suite", g.suite},
                   {"device", g.device},
                   {"runs", g.detection.runs.size()},
                   {"metrics_tested", g.detection.metrics_tested},
                   {"open_regressions", g.detection.OpenRegressions()},
                   {"change_points", cps}});
      if (!g.detection.machine_shifts.empty()) {
        nlohmann::json shifts = nlohmann::json::array();
        for (const MachineShift& m : g.detection.machine_shifts) {
          shifts.push_back(MachineShiftJson(m));
        }
        j.back()["machine_shifts"] = shifts;
      }
      if (!g.detection.parts_not_counted.empty()) {
        j.back()["parts_not_counted"] = g.detection.parts_not_counted.size();
      }
    }
    return j.dump(2) + "\n";
  }
  // Names from the history (suites, devices, labels, commits) by
  // TerminalText, in the text and the Markdown form alike.
  const auto T = [](const std::string& text) { return TerminalText(text); };
  const bool md = format == "markdown";
  std::ostringstream out;
  for (const SuiteDetection& g : groups) {
    const Detection& d = g.detection;
    out << (md ? "### " : "") << T(g.suite) << " on " << T(g.device) << ": " << d.runs.size()
        << " runs, " << d.metrics_tested << " metrics tested, " << d.change_points.size()
        << " change point" << (d.change_points.size() == 1 ? "" : "s") << ", "
        << d.OpenRegressions() << " open regression" << (d.OpenRegressions() == 1 ? "" : "s");
    if (!d.machine_shifts.empty()) {
      out << ", " << d.machine_shifts.size() << " machine shift"
          << (d.machine_shifts.size() == 1 ? "" : "s");
    }
    if (!d.parts_not_counted.empty()) {
      out << "; " << d.parts_not_counted.size() << " operator, delegate or framework-tax change"
          << (d.parts_not_counted.size() == 1 ? "" : "s")
          << " too small to move Method::execute not counted (--every-part lists them)";
    }
    out << "\n";
    // Every operator moved together: reported apart, and removed from each
    // metric before its own test.
    if (md && !d.machine_shifts.empty()) {
      out << "\n| id | machine shift | commits | every operator | 95% CI | verdict |\n"
             "|---|---|---|--:|---|---|\n";
    }
    for (const MachineShift& m : d.machine_shifts) {
      const std::string range = T(CommitRange(m));
      const std::string ci = SignedInterval(m.change_low, m.change_high);
      if (md) {
        out << "| `" << m.id << "` | run " << m.index + 1
            << (m.group.empty() ? "" : ", block " + T(m.group)) << " | `" << range << "` | **"
            << SignedPercent(m.change) << "** | " << ci << " | " << MachineShiftVerdict(m) << " |\n";
        continue;
      }
      out << "  " << m.id << "  " << T(ShiftName(m)) << "  " << range << " (" << T(m.time_after)
          << ")\n      " << T(ShiftedMetrics(m)) << " " << SignedPercent(m.change) << " " << ci << "  "
          << MachineShiftVerdict(m) << "  (" << m.runs_before << " runs before, " << m.runs_after
          << " after)\n";
    }
    if (md && !d.machine_shifts.empty()) out << "\n";
    if (d.change_points.empty()) continue;
    if (md) {
      out << "\n| id | metric | commits | before | after | change | 95% CI | verdict |\n"
             "|---|---|---|--:|--:|--:|---|---|\n";
    }
    for (const ChangePoint& c : d.change_points) {
      const std::string ci = SignedInterval(c.change_low, c.change_high);
      if (md) {
        out << "| `" << c.id << "` | `" << T(c.label) << "` | `" << T(CommitRange(c)) << "` | "
            << FormatQuantity(c.before, c.unit) << " | " << FormatQuantity(c.after, c.unit) << " | **"
            << SignedPercent(c.change) << "** | " << ci << " | " << ChangeVerdict(c) << " |\n";
        continue;
      }
      out << "  " << c.id << "  " << T(c.label) << "  " << T(CommitRange(c)) << " (" << T(c.time_after)
          << ")\n      " << FormatQuantity(c.before, c.unit) << " → " << FormatQuantity(c.after, c.unit)
          << "  " << SignedPercent(c.change) << " " << ci << "  " << ChangeVerdict(c) << "  ("
          << c.runs_before << " runs before, " << c.runs_after << " after)\n";
      if (!c.moved_together.empty()) {
        out << "      moved together:";
        for (const std::string& other : c.moved_together) out << " " << T(other);
        out << "\n";
      }
      if (c.attribution) out << "      " << T(AttributionSentence(*c.attribution)) << "\n";
    }
    if (md) {
      for (const ChangePoint& c : d.change_points) {
        if (c.attribution) {
          out << "\n**" << T(c.label) << "** `" << T(CommitRange(c))
              << "`: " << T(AttributionSentence(*c.attribution)) << "\n";
        }
      }
    }
    out << "\n";
  }
  if (groups.empty()) out << "the history has no runs\n";
  return out.str();
}

std::vector<std::string> RenderConfirmedChangePoints(
    const std::vector<history::ChangePoint>& confirmed, std::size_t older_open) {
  using internal::SignedInterval;
  using internal::SignedPercent;
  std::map<std::string, std::vector<const history::ChangePoint*>> by_model;
  for (const history::ChangePoint& cp : confirmed) by_model[cp.key.model].push_back(&cp);
  std::vector<std::string> lines;
  for (auto& [model, cps] : by_model) {
    std::stable_sort(cps.begin(), cps.end(), [](const auto* a, const auto* b) {
      if (a->end_to_end != b->end_to_end) return a->end_to_end;
      return (a->after - a->before) > (b->after - b->before);
    });
    const history::ChangePoint& head = *cps.front();
    std::string line = "change point confirmed tonight: " + head.label + " " +
                       SignedPercent(head.change) + " " +
                       SignedInterval(head.change_low, head.change_high) + " (" +
                       FormatQuantity(head.before, head.unit) + " -> " +
                       FormatQuantity(head.after, head.unit) + ") since " +
                       (head.commit_after.empty() ? "the run of " + head.time_after
                                                  : head.commit_after + " (" + head.time_after + ")") +
                       ", " + std::to_string(head.runs_before) + " nights before it, " +
                       std::to_string(head.runs_after) + " at the new level";
    std::vector<std::string> ids = {head.id};
    const std::string prefix = model + "/";  // parts are named within the model
    for (std::size_t i = 1; i < cps.size(); ++i) {
      const std::string& label = cps[i]->label;
      line += (i == 1 ? "; with it: " : ", ") +
              (label.rfind(prefix, 0) == 0 ? label.substr(prefix.size()) : label) + " " +
              SignedPercent(cps[i]->change);
      ids.push_back(cps[i]->id);
    }
    lines.push_back(line + "; found by history detect (if intended: etbench history ack " +
                    JoinStrings(ids, " ") + ")");
  }
  if (older_open > 0) {
    lines.push_back(std::to_string(older_open) + " older regression change point" +
                    (older_open == 1 ? "" : "s") +
                    " still open, not acknowledged (etbench history detect lists them)");
  }
  return lines;
}

}  // namespace etbench::reports
