// Comparison → terminal text.

#include "etbench/reports/comparison_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "etbench/base/display_units.h"

namespace etbench {
namespace {

std::string Format(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), format, value);
  return buffer;
}

// A change on its scale: "+9.9%" or "+0.52 pp" / "+12 B".
std::string Change(const MetricComparison& r, double value) {
  if (!std::isfinite(value)) return std::isnan(value) ? "-" : (value > 0 ? "+inf" : "-inf");
  if (r.scale == ChangeScale::kRelative) return Format("%+.1f%%", value * 100);
  const std::string unit = r.unit == "percent" ? "pp" : r.unit;
  return Format("%+.3g", value) + " " + unit;
}

// For people: in the unit that fits the value ("411 ns", "1.5%").
std::string Value(double value, const std::string& unit) {
  return FormatForPeople(value, unit);
}

std::string PValue(double p) {
  if (std::isnan(p)) return "-";
  return p < 1e-3 ? Format("%.1e", p) : Format("%.3f", p);
}

std::string Plural(std::size_t n, const char* word, const char* plural) {
  return std::to_string(n) + " " + (n == 1 ? word : plural);
}

void Table(std::ostringstream& out, const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> width;
  for (const auto& row : rows) {
    width.resize(std::max(width.size(), row.size()));
    for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  for (const auto& row : rows) {
    std::string line = " ";
    for (std::size_t i = 0; i < row.size(); ++i) {
      line += (i == 0 ? " " : "  ") + row[i];
      if (i + 1 < row.size()) line += std::string(width[i] - row[i].size(), ' ');
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
  table.push_back({"metric", "stat", "baseline", "candidate", "change",
                   Format("%.0f%% CI", c.settings.confidence * 100), "p(adj)", "threshold",
                   inconclusive ? "why" : ""});
  std::size_t shown = 0;
  for (const MetricComparison* r : rows) {
    if (options.max_rows != 0 && shown == options.max_rows) break;
    ++shown;
    std::string why;
    if (inconclusive) {
      why = r->reason;
      if (std::isfinite(r->mde) && r->mde > r->threshold) {
        why += "; MDE " + Change(*r, r->mde).substr(1);
        if (r->iterations_needed) {
          why += ", ~" + std::to_string(*r->iterations_needed) + " iterations needed";
        }
      }
    }
    const std::string label = r->label + (r->gated ? "" : " (not gated)");
    table.push_back({label, StatisticName(r->statistic), Value(r->baseline_value, r->unit),
                     Value(r->candidate_value, r->unit), Change(*r, r->change),
                     "[" + Change(*r, r->ci_low) + ", " + Change(*r, r->ci_high) + "]",
                     PValue(r->p_adjusted.value_or(r->p_value)), Change(*r, r->threshold).substr(1),
                     why});
  }
  Table(out, table);
  if (shown < rows.size()) out << "  … and " << rows.size() - shown << " more\n";
}

}  // namespace

std::string OutcomeLine(const Comparison& c) {
  std::string word = c.outcome == GateOutcome::kRegression     ? "REGRESSION"
                     : c.outcome == GateOutcome::kInconclusive ? "INCONCLUSIVE"
                                                               : "PASS";
  return word + ": " + Plural(c.counts.regressions, "regression", "regressions") + ", " +
         Plural(c.counts.improvements, "improvement", "improvements") + ", " +
         std::to_string(c.counts.inconclusive) + " inconclusive, " +
         std::to_string(c.counts.unchanged) + " unchanged";
}

std::string RenderComparisonText(const Comparison& c, const TextRenderOptions& options) {
  std::ostringstream out;
  out << OutcomeLine(c) << " (" << c.rows.size() << " comparisons; FDR q=" << c.settings.fdr
      << " over " << c.settings.family_size << " per-operator metrics";
  if (c.settings.threshold_protected > 0) {
    out << " + " << c.settings.threshold_protected << " protected by their threshold";
  }
  out << ", alpha=" << c.settings.alpha << " end to end)\n";
  for (const std::string& w : c.warnings) out << "warning: " << w << "\n";
  Section(out, c, Verdict::kRegression, "Regressions", options);
  Section(out, c, Verdict::kImprovement, "Improvements", options);
  Section(out, c, Verdict::kInconclusive, "Inconclusive", options);
  if (options.show_unchanged) Section(out, c, Verdict::kUnchanged, "Unchanged", options);
  if (!c.attributions.empty()) {
    out << "\nAttribution of Method::execute (median):\n";
    for (const Attribution& a : c.attributions) {
      out << "  " << a.model << "/" << a.block << ": " << AttributionSentence(a) << "\n";
    }
  }
  if (!c.structure_changes.empty()) {
    out << "\nStructure changes (" << c.structure_changes.size() << "):\n";
    for (const StructureChange& s : c.structure_changes) {
      out << "  " << StructureChangeKindName(s.kind) << ": ";
      if (s.kind == StructureChange::Kind::kRenamed) {
        out << MetricLabel(*s.baseline_key) << " -> " << s.candidate_key->name;
      } else {
        out << MetricLabel(s.baseline_key ? *s.baseline_key : *s.candidate_key);
      }
      out << "\n";
    }
  }
  return out.str();
}

}  // namespace etbench
