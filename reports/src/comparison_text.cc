// Comparison → terminal text. Names from outside are shown by TerminalText
// (base/terminal_text.h).

#include "etbench/reports/comparison_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "etbench/base/terminal_text.h"
#include "etbench/base/utf8.h"
#include "etbench/reports/row_reason.h"
#include "etbench/reports/warning_text.h"
#include "report_text.h"

namespace etbench {
namespace {

namespace internal = reports::internal;

void Table(std::ostringstream& out, std::vector<std::vector<std::string>> rows) {
  for (auto& row : rows) {
    for (std::string& cell : row) cell = TerminalText(cell);
  }
  std::vector<std::size_t> width;
  for (const auto& row : rows) {
    width.resize(std::max(width.size(), row.size()));
    for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], Utf8Length(row[i]));
  }
  for (const auto& row : rows) {
    std::string line = " ";
    for (std::size_t i = 0; i < row.size(); ++i) {
      line += (i == 0 ? " " : "  ") + row[i];
      if (i + 1 < row.size()) line += std::string(width[i] - Utf8Length(row[i]), ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << "\n";
  }
}

void Section(std::ostringstream& out, const Comparison& c, Verdict verdict, const char* title,
             const TextRenderOptions& options) {
  std::vector<const MetricComparison*> rows;
  for (const MetricComparison& r : c.rows) {
    if (r.verdict == verdict) rows.push_back(&r);
  }
  if (rows.empty()) return;
  // Largest changes first.
  std::stable_sort(rows.begin(), rows.end(), [](const MetricComparison* a, const MetricComparison* b) {
    const double x = std::isfinite(a->change) ? std::fabs(a->change) : 0;
    const double y = std::isfinite(b->change) ? std::fabs(b->change) : 0;
    return x > y;
  });
  out << "\n" << title << " (" << rows.size() << "):\n";
  const bool inconclusive = verdict == Verdict::kInconclusive;
  std::vector<std::vector<std::string>> table;
  table.push_back({"metric", "stat", "baseline", "candidate", "change", "interval", "p(adj)",
                   "threshold", inconclusive ? "why" : ""});
  std::size_t shown = 0;
  for (const MetricComparison* r : rows) {
    if (options.max_rows != 0 && shown == options.max_rows) break;
    ++shown;
    std::string why;
    if (inconclusive) {
      why = reports::RowReason(*r);
      if (std::isfinite(r->mde) && r->mde > r->threshold) {
        why += "; MDE " + internal::FormatChange(*r, r->mde).substr(1);
        if (r->iterations_needed) {
          why += ", ~" + std::to_string(*r->iterations_needed) + " iterations needed";
        }
      }
    }
    const std::string label = r->label + (r->gated ? "" : " (not gated)");
    const internal::DisplayUnit unit = internal::RowUnit(*r);
    table.push_back({label, StatisticName(r->statistic),
                     internal::FormatQuantity(r->baseline_value, unit),
                     internal::FormatQuantity(r->candidate_value, unit), internal::FormatRowChange(*r),
                     internal::FormatInterval(*r), internal::FormatPCell(*r),
                     internal::FormatThreshold(*r), why});
  }
  Table(out, table);
  if (shown < rows.size()) out << "  … and " << rows.size() - shown << " more\n";
  out << internal::WrapText(internal::EstimateLegend(rows), 100, "  ");
}

}  // namespace

std::string OutcomeLine(const Comparison& c) {
  std::string word = c.outcome == GateOutcome::kRegression     ? "REGRESSION"
                     : c.outcome == GateOutcome::kInconclusive ? "INCONCLUSIVE"
                                                               : "PASS";
  return word + ": " + reports::internal::CountsPhrase(c.counts);
}

std::string RenderComparisonText(const Comparison& c, const TextRenderOptions& options) {
  std::ostringstream out;
  out << OutcomeLine(c) << " (" << c.rows.size() << " comparisons; FDR q=" << c.settings.fdr
      << " over " << c.settings.family_size << " per-operator metrics";
  if (c.settings.threshold_protected > 0) {
    out << " + " << c.settings.threshold_protected << " protected by their threshold";
  }
  out << ", alpha=" << c.settings.alpha << " end to end)\n";
  for (const ComparisonWarning& w : c.warnings) {
    out << "warning: " << TerminalText(reports::WarningText(w)) << "\n";
  }
  Section(out, c, Verdict::kRegression, "Regressions", options);
  Section(out, c, Verdict::kImprovement, "Improvements", options);
  Section(out, c, Verdict::kInconclusive, "Inconclusive", options);
  if (options.show_unchanged) Section(out, c, Verdict::kUnchanged, "Unchanged", options);
  if (!c.attributions.empty()) {
    out << "\nAttribution of Method::execute (median):\n";
    for (const Attribution& a : c.attributions) {
      out << "  " << TerminalText(a.model + "/" + a.block) << ": "
          << TerminalText(AttributionSentence(a)) << "\n";
    }
  }
  if (!c.structure_changes.empty()) {
    out << "\nStructure changes (" << c.structure_changes.size() << "):\n";
    for (const StructureChange& s : c.structure_changes) {
      out << "  " << StructureChangeKindName(s.kind) << ": ";
      if (s.kind == StructureChange::Kind::kRenamed) {
        out << TerminalText(MetricLabel(*s.baseline_key)) << " -> "
            << TerminalText(s.candidate_key->name);
      } else {
        out << TerminalText(MetricLabel(s.baseline_key ? *s.baseline_key : *s.candidate_key));
      }
      out << "\n";
    }
  }
  return out.str();
}

}  // namespace etbench
