// Terminal report: per-model tables with verdict symbols and colour. Names
// from outside (models, blocks, labels, context, errors) are shown by
// TerminalText (base/terminal_text.h); table cells by RenderTextTable.

#include "etbench/reports/terminal_report.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "etbench/base/terminal_text.h"
#include "etbench/base/utf8.h"
#include "etbench/inspector/event_role.h"
#include "etbench/reports/row_reason.h"
#include "etbench/reports/warning_text.h"
#include "report_text.h"
#include "text_table.h"

namespace etbench::reports {
namespace {

using internal::Cell;
using internal::Colorize;
using internal::Column;
using internal::DisplayUnit;

const char* VerdictColor(Verdict verdict) {
  switch (verdict) {
    case Verdict::kRegression: return internal::kRed;
    case Verdict::kImprovement: return internal::kGreen;
    case Verdict::kInconclusive: return internal::kYellow;
    case Verdict::kUnchanged: return internal::kDim;
  }
  return nullptr;
}

const char* OutcomeColor(GateOutcome outcome) {
  switch (outcome) {
    case GateOutcome::kPass: return internal::kGreen;
    case GateOutcome::kRegression: return internal::kRed;
    case GateOutcome::kInconclusive: return internal::kYellow;
  }
  return nullptr;
}

const char* OutcomeSymbol(GateOutcome outcome) {
  switch (outcome) {
    case GateOutcome::kPass: return internal::VerdictSymbol(Verdict::kImprovement);
    case GateOutcome::kRegression: return internal::VerdictSymbol(Verdict::kRegression);
    case GateOutcome::kInconclusive: return internal::VerdictSymbol(Verdict::kInconclusive);
  }
  return " ";
}

std::string Quantity(double value, const std::string& unit,
                     const std::map<std::string, DisplayUnit>& units) {
  return internal::FormatInColumn(value, unit, units);
}

// Shrinks column `name_column` so the table fits `width`.
void FitNames(std::vector<std::vector<Cell>>& rows, const std::vector<Column>& columns,
              std::size_t name_column, std::size_t width, std::size_t indent) {
  std::size_t others = indent;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (i == name_column) continue;
    std::size_t w = Utf8Length(columns[i].header);
    for (const auto& row : rows) w = std::max(w, Utf8Length(row[i].text));
    others += w + 2;
  }
  const std::size_t room = width > others + 16 ? width - others : 16;
  for (auto& row : rows) row[name_column].text = internal::TruncateMiddle(row[name_column].text, room);
}

void ContextLine(std::string& out, const char* side, const std::map<std::string, std::string>& ctx) {
  std::string text;
  auto add = [&](const char* key, std::size_t max_len = std::string::npos) {
    auto it = ctx.find(key);
    if (it == ctx.end() || it->second.empty()) return;
    if (!text.empty()) text += " ";
    text += TerminalText(it->second.substr(0, max_len));
  };
  add("branch");
  add("git_commit", 12);
  add("device");
  add("date");
  if (!text.empty()) out += std::string("  ") + side + ": " + text + "\n";
}

// Appends the rows it lists to `listed` (for the legend under the tables).
void ModelTable(std::string& out, const ReportInput& input, const std::string& model,
                const ReportOptions& options, std::vector<const MetricComparison*>& listed) {
  const Comparison& c = *input.comparison;
  std::vector<Verdict> verdicts{Verdict::kRegression, Verdict::kInconclusive, Verdict::kImprovement};
  if (options.show_unchanged) verdicts.push_back(Verdict::kUnchanged);
  const auto rows = internal::WithoutUngatedInconclusive(internal::RowsForDisplay(c, model, verdicts));
  ComparisonCounts counts;
  for (const MetricComparison& r : c.rows) {
    if (r.key.model != model || !r.gated) continue;
    switch (r.verdict) {
      case Verdict::kRegression: ++counts.regressions; break;
      case Verdict::kImprovement: ++counts.improvements; break;
      case Verdict::kInconclusive: ++counts.inconclusive; break;
      case Verdict::kUnchanged: ++counts.unchanged; break;
    }
  }
  out += "\n" + Colorize(TerminalText(model), internal::kBold, options.color) + "  (" +
         internal::CountsPhrase(counts) + ")\n";
  const std::size_t shown =
      options.max_rows == 0 ? rows.size() : std::min(rows.size(), options.max_rows);
  if (shown > 0) {
    std::vector<std::pair<std::string, double>> values;
    for (std::size_t i = 0; i < shown; ++i) {
      values.emplace_back(rows[i]->unit, rows[i]->baseline_value);
      values.emplace_back(rows[i]->unit, rows[i]->candidate_value);
    }
    const auto units = internal::ColumnUnits(values);
    const std::vector<Column> columns{
        {"", false},         {"metric", false},    {"stat", false},
        {"baseline", true},  {"candidate", true},  {"change", true},
        {"interval", false},
        {"p", true},         {"verdict", false}};
    std::vector<std::vector<Cell>> table;
    for (std::size_t i = 0; i < shown; ++i) {
      const MetricComparison& r = *rows[i];
      const char* color = VerdictColor(r.verdict);
      listed.push_back(&r);
      table.push_back({Cell{internal::VerdictSymbol(r.verdict), color},
                       Cell{internal::LabelWithinModel(r)},
                       Cell{StatisticName(r.statistic)},
                       Cell{Quantity(r.baseline_value, r.unit, units)},
                       Cell{Quantity(r.candidate_value, r.unit, units)},
                       Cell{internal::FormatRowChange(r), color},
                       Cell{internal::FormatInterval(r)},
                       // The p its interval pairs with; the family's
                       // adjusted p is in the other reports (width).
                       Cell{internal::FormatP(r.p_value)},
                       Cell{std::string(VerdictName(r.verdict)) + (r.gated ? "" : " (not gated)"),
                            color}});
    }
    FitNames(table, columns, 1, options.terminal_width, 2);
    out += internal::RenderTextTable(columns, table, options.color, "  ");
    // One line under the table per row that needs its reason said.
    const auto explain = [&](const MetricComparison& r, const std::string& symbol,
                             const char* color, const std::string& why) {
      out += "  " + Colorize(symbol, color, options.color) + " " +
             internal::TruncateMiddle(TerminalText(internal::LabelWithinModel(r)), 48) + " " +
             StatisticName(r.statistic) + ": " + why + "\n";
    };
    for (std::size_t i = 0; i < shown; ++i) {
      const MetricComparison& r = *rows[i];
      if (r.verdict != Verdict::kInconclusive) continue;
      explain(r, "?", internal::kYellow, internal::InconclusiveExplanation(r, "threshold "));
    }
    // A part the night gate did not count (it moves Method::execute too
    // little) is a red row under what may be a PASS: say why it does not
    // fail the gate, as the reports' reason does.
    for (std::size_t i = 0; i < shown; ++i) {
      const MetricComparison& r = *rows[i];
      if (r.gated || r.verdict != Verdict::kRegression || !NotCounted(r.notes)) continue;
      explain(r, internal::VerdictSymbol(r.verdict), internal::kRed, TerminalText(RowReason(r)));
    }
  }
  if (shown < rows.size()) {
    out += "  \u2026 and " + std::to_string(rows.size() - shown) + " more\n";
  }
  if (!options.show_unchanged && counts.unchanged > 0) {
    out += "  " + Colorize(std::string(internal::VerdictSymbol(Verdict::kUnchanged)) + " " +
                               std::to_string(counts.unchanged) + " unchanged not listed",
                           internal::kDim, options.color) +
           "\n";
  }
}

void AttributionSection(std::string& out, const Comparison& c, const ReportOptions& options) {
  if (c.attributions.empty()) return;
  // One engine made them all: one statistic.
  out += std::string("\nWhere the change of Method::execute (") +
         StatisticName(c.attributions.front().statistic) + ") went:\n";
  for (const Attribution& a : c.attributions) {
    const DisplayUnit unit = internal::ValueDisplayUnit(
        a.unit, std::max(std::fabs(a.baseline_execute), std::fabs(a.candidate_execute)));
    const std::size_t shown = std::min<std::size_t>(a.items.size(), 5);
    const auto units = internal::AttributionUnits(a, shown);
    out += "  " + TerminalText(a.model + "/" + a.block) + ": " + internal::FormatQuantity(a.baseline_execute, unit) +
           " \u2192 " + internal::FormatQuantity(a.candidate_execute, unit) + " (" +
           internal::SignedInColumn(a.delta, a.unit, units) + ")\n";
    std::vector<std::vector<Cell>> table;
    for (std::size_t i = 0; i < shown; ++i) {
      const AttributionItem& item = a.items[i];
      table.push_back({Cell{internal::SignedInColumn(item.delta, a.unit, units)},
                       Cell{internal::FormatShare(item.share)}, Cell{item.label}});
    }
    const std::vector<Column> columns{{"change", true}, {"share", true}, {"contributor", false}};
    FitNames(table, columns, 2, options.terminal_width, 4);
    out += internal::RenderTextTable(columns, table, options.color, "    ");
    if (shown < a.items.size()) {
      out += "    \u2026 and " + std::to_string(a.items.size() - shown) + " more\n";
    }
  }
}

void FrameworkTaxSection(std::string& out, const Comparison& c, const ReportOptions& options) {
  const auto rows = internal::FrameworkTaxRows(c, "");
  if (rows.empty()) return;
  out += "\nFramework tax:\n";
  std::vector<std::vector<Cell>> table;
  for (const MetricComparison* r : rows) {
    const char* color = VerdictColor(r->verdict);
    table.push_back({Cell{r->key.model + "/" + r->key.block}, Cell{StatisticName(r->statistic)},
                     Cell{internal::FormatQuantity(r->baseline_value, r->unit)},
                     Cell{internal::FormatQuantity(r->candidate_value, r->unit)},
                     Cell{internal::FormatRowChange(*r), color},
                     Cell{VerdictName(r->verdict), color}});
  }
  const std::vector<Column> columns{{"block", false},    {"stat", false},   {"baseline", true},
                                    {"candidate", true}, {"change", true}, {"verdict", false}};
  FitNames(table, columns, 0, options.terminal_width, 2);
  out += internal::RenderTextTable(columns, table, options.color, "  ");
}

void StructureSection(std::string& out, const Comparison& c, const ReportOptions& options) {
  if (c.structure_changes.empty()) return;
  out += "\nStructure changes (" + std::to_string(c.structure_changes.size()) + "):\n";
  for (const StructureChange& s : c.structure_changes) {
    const char* symbol = s.kind == StructureChange::Kind::kAdded     ? "+"
                         : s.kind == StructureChange::Kind::kRemoved ? "-"
                                                                     : "~";
    std::string what = s.kind == StructureChange::Kind::kRenamed
                           ? TerminalText(MetricLabel(*s.baseline_key)) + " -> " +
                                 TerminalText(MetricLabel(*s.candidate_key))
                           : TerminalText(MetricLabel(s.baseline_key ? *s.baseline_key
                                                                     : *s.candidate_key));
    out += "  " + Colorize(symbol, internal::kBold, options.color) + " " +
           internal::Printf("%-8s", StructureChangeKindName(s.kind)) +
           internal::TruncateMiddle(what, options.terminal_width > 14 ? options.terminal_width - 13 : 1) +
           "\n";
  }
}

}  // namespace

std::string RenderTerminalComparison(const ReportInput& input, const ReportOptions& options) {
  const Comparison& c = *input.comparison;
  std::string out;
  if (c.advisory) {
    out += Colorize("advisory: these verdicts do not fail the job (" +
                        TerminalText(c.advisory_reason) + ")",
                    internal::kBold, options.color) +
           "\n";
  }
  if (!input.title.empty()) {
    out += Colorize(TerminalText(input.title), internal::kBold, options.color) + "\n";
  }
  out += Colorize(std::string(OutcomeSymbol(c.outcome)) + " " + internal::OutcomeWord(c.outcome),
                  OutcomeColor(c.outcome), options.color) +
         ": " + internal::CountsPhrase(c.counts) + "\n";
  if (c.not_judged) {
    // A comparison file of a night the gate did not judge (`etbench report`).
    out += internal::WrapText("not judged: " + TerminalText(c.not_judged->message),
                              options.terminal_width, "  ");
  }
  if (const std::string at = internal::AtResolutionPhrase(c); !at.empty()) {
    // A pass that is not the threshold's promise says so where it is read.
    out += Colorize(internal::WrapText("unchanged at the nights' resolution, not at the threshold "
                                       "(--strict-threshold): " + TerminalText(at),
                                       options.terminal_width, "  "),
                    internal::kDim, options.color);
  }
  out += "  " + internal::SettingsPhrase(c, false) + " \u00b7 thresholds " +
         (c.settings.thresholds_source.empty() ? "<built-in>"
                                               : TerminalText(c.settings.thresholds_source)) +
         "\n";
  ContextLine(out, "baseline ", c.baseline_context);
  ContextLine(out, "candidate", c.candidate_context);
  for (const ComparisonWarning& w : c.warnings) {
    out += Colorize("warning: ", internal::kYellow, options.color) + TerminalText(WarningText(w)) +
           "\n";
  }
  std::vector<const MetricComparison*> listed;
  for (const std::string& model : internal::ModelsOf(c)) {
    ModelTable(out, input, model, options, listed);
  }
  if (!listed.empty()) {
    out += "\n" + Colorize(internal::WrapText(internal::EstimateLegend(listed),
                                               options.terminal_width, "  "),
                           internal::kDim, options.color);
  }
  AttributionSection(out, c, options);
  FrameworkTaxSection(out, c, options);
  StructureSection(out, c, options);
  return out;
}

std::string RenderTerminalResults(const results::RunResults& results,
                                  const ReportOptions& options) {
  const results::ResultsMetadata& m = results.metadata;
  std::string out;
  const std::size_t ok = results.CountWithStatus(results::ModelStatus::kOk);
  out += Colorize("etbench results", internal::kBold, options.color) + ": suite " +
         (m.suite.empty() ? "?" : TerminalText(m.suite)) + " \u00b7 " +
         internal::Plural(results.models.size(), "model", "models") + " (" + std::to_string(ok) +
         " ok) \u00b7 runner " + TerminalText(m.runner) + " \u00b7 " + std::to_string(m.iterations) +
         " iterations \u00d7 " + std::to_string(m.repetitions) + " repetitions";
  if (!m.device.empty()) out += " \u00b7 " + TerminalText(m.device);
  if (!m.date.empty()) out += " \u00b7 " + TerminalText(m.date);
  out += "\n";
  if (results.interrupted) {
    out += Colorize("interrupted: the run was stopped before every model ran", internal::kYellow,
                    options.color) +
           "\n";
  }
  for (const results::ModelResult& model : results.models) {
    if (model.status != results::ModelStatus::kOk) {
      out += "\n" + Colorize(TerminalText(model.name), internal::kBold, options.color) + "  " +
             Colorize(std::string(results::ModelStatusName(model.status)), internal::kRed,
                      options.color) +
             (model.error.empty() ? "" : ": " + TerminalText(model.error)) + "\n";
      continue;
    }
    for (const results::BlockResult& block : model.blocks) {
      out += "\n" + Colorize(TerminalText(model.name), internal::kBold, options.color) + "  " +
             TerminalText(block.name) +
             " (" + internal::Plural(block.run_count, "run", "runs") + ")\n";
      std::vector<const results::EventResult*> events;
      for (const results::EventResult& e : block.events) {
        if (e.Role() != EventRole::kOperatorCall &&
            !e.perf_data.raw.empty()) {
          events.push_back(&e);
        }
      }
      // Framework events first (in file order), then the slowest by p50.
      std::stable_sort(events.begin(), events.end(),
                       [](const results::EventResult* a, const results::EventResult* b) {
                         const bool fa = IsFrameworkEvent(a->Role());
                         const bool fb = IsFrameworkEvent(b->Role());
                         if (fa != fb) return fa;
                         return !fa && a->perf_data.p50 > b->perf_data.p50;
                       });
      const std::size_t shown =
          options.max_rows == 0 ? events.size() : std::min(events.size(), options.max_rows);
      std::vector<std::pair<std::string, double>> values;
      for (std::size_t i = 0; i < shown; ++i) values.emplace_back(model.unit, events[i]->perf_data.max);
      const auto units = internal::ColumnUnits(values);
      std::vector<std::vector<Cell>> table;
      for (std::size_t i = 0; i < shown; ++i) {
        const results::EventResult& e = *events[i];
        const PerfData& p = e.perf_data;
        table.push_back({Cell{e.name + (e.occurrence ? " (occurrence " + std::to_string(e.occurrence) + ")" : "")},
                         Cell{e.instruction_id ? std::to_string(*e.instruction_id) : "-"},
                         Cell{std::to_string(p.count)}, Cell{Quantity(p.p10, model.unit, units)},
                         Cell{Quantity(p.p50, model.unit, units)},
                         Cell{Quantity(p.p90, model.unit, units)},
                         Cell{Quantity(p.min, model.unit, units)},
                         Cell{Quantity(p.max, model.unit, units)}});
      }
      const std::vector<Column> columns{{"event", false}, {"instr", true}, {"n", true},
                                        {"p10", true},    {"p50", true},   {"p90", true},
                                        {"min", true},    {"max", true}};
      FitNames(table, columns, 0, options.terminal_width, 2);
      out += internal::RenderTextTable(columns, table, options.color, "  ");
      if (shown < events.size()) {
        out += "  \u2026 and " + std::to_string(events.size() - shown) + " more events\n";
      }
      if (block.framework_tax) {
        const PerfData& t = *block.framework_tax;
        out += "  framework tax: p50 " + internal::Printf("%.2f%%", t.p50) + " (p10 " +
               internal::Printf("%.2f%%", t.p10) + ", p90 " + internal::Printf("%.2f%%", t.p90) +
               ")\n";
      }
    }
    for (const results::BenchmarkResult& b : model.benchmarks) {
      out += "  benchmark " + TerminalText(b.name) + " (" + TerminalText(b.metric) + "): p50 " +
             internal::FormatQuantity(b.perf_data.p50, model.unit) + " over " +
             std::to_string(b.perf_data.count) + " repetitions\n";
    }
  }
  return out;
}

}  // namespace etbench::reports
