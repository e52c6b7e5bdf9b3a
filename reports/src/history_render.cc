#include "etbench/reports/history_render.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "etbench/base/csv.h"
#include "etbench/base/join.h"
#include "etbench/base/json_writer.h"
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

// The history commands' JSON lists each object's keys in alphabetical order
// (as they always have): the writes below follow that order.

void WriteChangePoint(JsonWriter& json, const ChangePoint& c) {
  json.BeginObject();
  json.Key("acknowledged").Bool(c.acknowledged);
  json.Key("after").Double(c.after);
  if (c.attribution) {
    json.Key("attribution").BeginObject();
    json.Key("after").Double(c.attribution->candidate_execute);
    json.Key("before").Double(c.attribution->baseline_execute);
    json.Key("delta").Double(c.attribution->delta);
    json.Key("items").BeginArray();
    for (const AttributionItem& item : c.attribution->items) {
      json.BeginObject();
      json.Key("delta").Double(item.delta);
      json.Key("label").String(item.label);
      json.Key("share").Double(item.share);
      json.EndObject();
    }
    json.EndArray();
    json.EndObject();
  }
  json.Key("before").Double(c.before);
  json.Key("change").Double(c.change);
  json.Key("change_ci").BeginArray().Double(c.change_low).Double(c.change_high).EndArray();
  json.Key("commit_after").String(c.commit_after);
  json.Key("commit_before").String(c.commit_before);
  json.Key("end_to_end").Bool(c.end_to_end);
  json.Key("id").String(c.id);
  json.Key("metric").String(c.label);
  json.Key("moved_together").StringArray(c.moved_together);
  json.Key("p_value").Double(c.p_value);
  json.Key("regression").Bool(c.regression);
  json.Key("run_index").Uint(c.index);
  json.Key("runs_after").Uint(c.runs_after);
  json.Key("runs_before").Uint(c.runs_before);
  json.Key("time").String(c.time_after);
  json.Key("unit").String(c.unit);
  json.EndObject();
}

void WriteMachineShift(JsonWriter& json, const MachineShift& m) {
  json.BeginObject();
  json.Key("acknowledged").Bool(m.acknowledged);
  json.Key("change").Double(m.change);
  json.Key("change_ci").BeginArray().Double(m.change_low).Double(m.change_high).EndArray();
  json.Key("commit_after").String(m.commit_after);
  json.Key("commit_before").String(m.commit_before);
  if (!m.group.empty()) json.Key("group").String(m.group);
  json.Key("id").String(m.id);
  json.Key("p_value").Double(m.p_value);
  json.Key("persists").Bool(m.persists);
  json.Key("possible_code_change").Bool(m.possible_code_change);
  json.Key("regression").Bool(m.regression);
  json.Key("run_index").Uint(m.index);
  json.Key("runs_after").Uint(m.runs_after);
  json.Key("runs_before").Uint(m.runs_before);
  json.Key("time").String(m.time_after);
  json.EndObject();
}

}  // namespace

std::string RenderRunList(const std::vector<RunSummary>& runs, const std::string& format) {
  if (format == "json") {
    JsonWriter json(2);
    json.BeginArray();
    for (const RunSummary& r : runs) {
      json.BeginObject();
      json.Key("boot_id").String(r.boot_id);
      json.Key("branch").String(r.branch);
      json.Key("commit").String(r.git_commit);
      json.Key("device").String(r.device);
      json.Key("host").String(r.host);
      json.Key("labels").StringMap(r.labels);
      json.Key("metrics").Uint(r.metric_count);
      json.Key("run_id").String(r.run_id);
      json.Key("source").String(r.source);
      json.Key("status").String(r.status);
      json.Key("suite").String(r.suite);
      json.Key("time").String(r.time);
      json.EndObject();
    }
    json.EndArray();
    return json.Take() + "\n";
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
    // p10 last: the columns before it keep their places.
    std::string out = "metric,unit,run_id,commit,branch,time,device,p50,n,p10\n";
    for (const MetricHistory& h : window.metrics) {
      for (const SeriesPoint& p : h.points) {
        const RunSummary& r = *runs.at(p.run);
        out += CsvField(h.label) + "," + CsvField(h.metric.unit) + "," + r.run_id + "," +
               CsvField(r.git_commit) + "," + CsvField(r.branch) + "," + r.time + "," +
               CsvField(r.device) + "," + Number(p.p50) + "," + std::to_string(p.n) + "," +
               Number(p.p10) + "\n";
      }
    }
    return out;
  }
  if (format == "json") {
    JsonWriter json(2);
    json.BeginArray();
    for (const MetricHistory& h : window.metrics) {
      json.BeginObject();
      json.Key("metric").String(h.label);
      json.Key("points").BeginArray();
      for (const SeriesPoint& p : h.points) {
        const RunSummary& r = *runs.at(p.run);
        json.BeginObject();
        json.Key("commit").String(r.git_commit);
        json.Key("n").Uint(p.n);
        json.Key("p10").Double(p.p10);
        json.Key("p50").Double(p.p50);
        json.Key("run_id").String(r.run_id);
        json.Key("time").String(r.time);
        json.EndObject();
      }
      json.EndArray();
      json.Key("unit").String(h.metric.unit);
      json.EndObject();
    }
    json.EndArray();
    return json.Take() + "\n";
  }
  std::ostringstream out;
  for (const MetricHistory& h : window.metrics) {
    // The lower decile first: what history detect judges (its rows say
    // p10), so its numbers can be found here. The nightly gate's night of
    // several sessions is the lower decile of the sessions' p10s, close to
    // it but not the same number: said, so a reader does not expect it here.
    out << TerminalText(h.label)
        << " (per run: p10 of its samples, what detect judges; the gate's night value is the "
           "lower decile of its sessions' p10s; p50)\n";
    for (const SeriesPoint& p : h.points) {
      const RunSummary& r = *runs.at(p.run);
      out << "  " << TerminalText(r.time) << "  "
          << (r.git_commit.empty() ? "?" : TerminalText(ShortCommit(r.git_commit)))
          << "  p10 " << FormatQuantity(p.p10, h.metric.unit) << "  p50 "
          << FormatQuantity(p.p50, h.metric.unit) << "  n=" << p.n << "\n";
    }
  }
  if (window.metrics.empty()) out << "no metric matches\n";
  return out.str();
}

std::string RenderDetection(const std::vector<SuiteDetection>& groups, const std::string& format) {
  if (format == "json") {
    JsonWriter json(2);
    json.BeginArray();
    for (const SuiteDetection& g : groups) {
      const Detection& d = g.detection;
      json.BeginObject();
      json.Key("change_points").BeginArray();
      for (const ChangePoint& c : d.change_points) WriteChangePoint(json, c);
      json.EndArray();
      json.Key("device").String(g.device);
      if (!d.machine_shifts.empty()) {
        json.Key("machine_shifts").BeginArray();
        for (const MachineShift& m : d.machine_shifts) WriteMachineShift(json, m);
        json.EndArray();
      }
      json.Key("metrics_tested").Uint(d.metrics_tested);
      json.Key("open_regressions").Uint(d.OpenRegressions());
      if (!d.parts_not_counted.empty()) {
        json.Key("parts_not_counted").Uint(d.parts_not_counted.size());
      }
      json.Key("runs").Uint(d.runs.size());
      json.Key("suite").String(g.suite);
      json.EndObject();
    }
    json.EndArray();
    return json.Take() + "\n";
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
                       SignedInterval(head.change_low, head.change_high) +
                       // detect's numbers (the medians of the runs' p10 on
                       // each side), not the night row's: said, so the two
                       // are not read as one estimate that disagrees.
                       " (p10, medians of the segments: " +
                       FormatQuantity(head.before, head.unit) + " -> " +
                       FormatQuantity(head.after, head.unit) + ") since " +
                       (head.commit_after.empty() ? "the run of " + head.time_after
                                                  : ShortCommit(head.commit_after) + " (" + head.time_after + ")") +
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

std::string RenderNotJudged(std::size_t nights, std::size_t min_nights, const std::string& suite,
                            const std::string& machine, const std::string& history_name,
                            const std::string& restarted_at, bool fails) {
  // Which change point, when the baseline restarted at one: the nights
  // before it are there, in history show, and do not count.
  const std::string since =
      restarted_at.empty()
          ? std::string("the last change point")
          : "the change point at " + ShortCommit(restarted_at) + " (the nights before it do not count)";
  return "history too short: " + std::to_string(nights) + " of " + std::to_string(min_nights) +
         " nights of " + suite + " on this machine (" + machine + ") before this run, since " +
         since + "; this run is recorded in " +
         history_name + " and not judged" +
         // It fails all the same when tonight confirmed a change point.
         (fails ? " (exit 1: tonight confirmed a regression change point; etbench history "
                  "detect lists it)"
                : " (exit 0)") +
         "; gating starts once " + std::to_string(min_nights) +
         " nights show how much this machine varies from night to night";
}

}  // namespace etbench::reports
