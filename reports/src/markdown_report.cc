// Markdown for pull-request comments and CI job summaries, within a size
// budget (GitHub rejects comments over 65,536 characters).

#include "etbench/reports/markdown_report.h"

#include <algorithm>
#include <cmath>

#include "etbench/base/terminal_text.h"
#include "etbench/reports/row_reason.h"
#include "etbench/reports/warning_text.h"
#include "report_text.h"

namespace etbench::reports {
namespace {

// Room kept for the notes and closing tags that follow a truncated table.
constexpr std::size_t kReserve = 600;

const char* VerdictEmoji(Verdict verdict) {
  switch (verdict) {
    case Verdict::kRegression: return "\U0001F534";    // red circle
    case Verdict::kImprovement: return "\U0001F7E2";   // green circle
    case Verdict::kInconclusive: return "\U0001F7E1";  // yellow circle
    case Verdict::kUnchanged: return "\u26AA";         // white circle
  }
  return "";
}

const char* OutcomeEmoji(GateOutcome outcome) {
  switch (outcome) {
    case GateOutcome::kPass: return "\u2705";
    case GateOutcome::kRegression: return "\u274C";
    case GateOutcome::kInconclusive: return "\u26A0\uFE0F";
  }
  return "";
}

// A table cell: pipes escaped, line breaks flattened, other control bytes
// shown as TerminalText shows them ("\x1b"; base/terminal_text.h), so a
// name can neither break the table nor reach a terminal that shows the file.
std::string CellText(const std::string& text) {
  std::string out;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '|') out += "\\|";
    else if (c == '\n' || c == '\r') out += ' ';
    else if (u < 0x20 || u == 0x7f) out += TerminalText(std::string(1, c));
    else out += c;
  }
  return out;
}

// Inline code; backticks inside become quotes.
std::string Code(const std::string& text) {
  std::string inner = CellText(text);
  std::replace(inner.begin(), inner.end(), '`', '\'');
  return "`" + inner + "`";
}

std::string MarkdownRow(const std::vector<std::string>& cells) {
  std::string out = "|";
  for (const std::string& c : cells) out += " " + c + " |";
  return out + "\n";
}

std::string Header(const std::vector<std::string>& headers, const std::vector<bool>& right) {
  std::string out = MarkdownRow(headers) + "|";
  for (std::size_t i = 0; i < headers.size(); ++i) out += right[i] ? "--:|" : "---|";
  return out + "\n";
}

// The document under construction and what is left of the budget.
class Document {
 public:
  explicit Document(std::size_t limit) : limit_(limit) {}

  bool Fits(std::size_t extra) const { return text_.size() + extra + kReserve <= limit_; }
  void Add(const std::string& s) { text_ += s; }
  /// Adds `s` when it fits; otherwise records the omission once.
  bool AddIfFits(const std::string& s) {
    if (!Fits(s.size())) {
      truncated_ = true;
      return false;
    }
    text_ += s;
    return true;
  }
  /// Header then rows while they fit; a note for the rest.
  void Table(const std::string& header, const std::vector<std::string>& rows,
             std::size_t total_rows, const char* more_hint) {
    if (!Fits(header.size() + (rows.empty() ? 0 : rows.front().size()))) {
      truncated_ = true;
      text_ += "\n_" + std::to_string(total_rows) +
               " rows not shown: GitHub's comment size limit._\n";
      return;
    }
    text_ += header;
    std::size_t shown = 0;
    for (const std::string& r : rows) {
      if (!Fits(r.size())) {
        truncated_ = true;
        break;
      }
      text_ += r;
      ++shown;
    }
    if (shown < rows.size()) {
      text_ += "\n_\u2026 " + std::to_string(total_rows - shown) +
               " more rows not shown: GitHub's comment size limit (the JSON or HTML report has "
               "all of them)._\n";
    } else if (shown < total_rows) {
      text_ += "\n_\u2026 and " + std::to_string(total_rows - shown) + " more " + more_hint + "._\n";
    }
  }
  bool truncated() const { return truncated_; }
  std::string Finish() {
    if (text_.size() > limit_) {
      // Only a pathological header gets here: cut at a line boundary.
      const std::string note = "\n_(truncated: GitHub's comment size limit)_\n";
      std::size_t cut = limit_ > note.size() ? limit_ - note.size() : 0;
      while (cut > 0 && text_[cut - 1] != '\n') --cut;
      text_ = text_.substr(0, cut) + note;
    }
    return text_;
  }

 private:
  std::size_t limit_;
  std::string text_;
  bool truncated_ = false;
};

std::string ContextPhrase(const std::map<std::string, std::string>& ctx) {
  std::string text;
  auto get = [&](const char* key) {
    auto it = ctx.find(key);
    return it == ctx.end() ? std::string() : it->second;
  };
  if (!get("branch").empty()) text += get("branch");
  if (!get("git_commit").empty()) text += (text.empty() ? "" : "@") + get("git_commit").substr(0, 12);
  if (!get("device").empty()) text += (text.empty() ? "" : " on ") + get("device");
  return text.empty() ? "" : Code(text);
}

std::string VerdictCell(const MetricComparison& r) {
  return std::string(VerdictEmoji(r.verdict)) + " " + VerdictName(r.verdict) +
         (r.gated ? "" : " (not gated)");
}

std::string MainRow(const MetricComparison& r) {
  const std::string change = internal::FormatRowChange(r);
  const internal::DisplayUnit unit = internal::RowUnit(r);
  return MarkdownRow({Code(r.label), StatisticName(r.statistic),
              internal::FormatQuantity(r.baseline_value, unit),
              internal::FormatQuantity(r.candidate_value, unit),
              r.verdict == Verdict::kUnchanged ? change : "**" + change + "**",
              internal::FormatInterval(r), VerdictCell(r)});
}

std::string InconclusiveWhy(const MetricComparison& r) {
  return CellText(internal::InconclusiveExplanation(r, ""));
}

void Attributions(Document& doc, const Comparison& c) {
  if (c.attributions.empty()) return;
  doc.AddIfFits("\n#### Where the end-to-end change went\n");
  for (const Attribution& a : c.attributions) {
    const double magnitude = std::max(std::fabs(a.baseline_execute), std::fabs(a.candidate_execute));
    const internal::DisplayUnit unit = internal::ValueDisplayUnit(a.unit, magnitude);
    const std::size_t shown = std::min<std::size_t>(a.items.size(), 6);
    const auto units = internal::AttributionUnits(a, shown);
    std::string text = "\n**" + CellText(a.model + "/" + a.block) + "**: `Method::execute` " +
                       StatisticName(a.statistic) + " " +
                       internal::FormatQuantity(a.baseline_execute, unit) + " \u2192 " +
                       internal::FormatQuantity(a.candidate_execute, unit) + " (**" +
                       internal::SignedInColumn(a.delta, a.unit, units) + "**)\n\n";
    if (!doc.AddIfFits(text)) return;
    std::vector<std::string> rows;
    for (std::size_t i = 0; i < shown; ++i) {
      const AttributionItem& item = a.items[i];
      rows.push_back(MarkdownRow({Code(item.label), internal::SignedInColumn(item.delta, a.unit, units),
                                  internal::FormatShare(item.share)}));
    }
    doc.Table(Header({"contributor", "change", "share of the change"}, {false, true, true}), rows,
              a.items.size(), "contributors");
  }
}

void FrameworkTax(Document& doc, const Comparison& c) {
  const auto rows = internal::FrameworkTaxRows(c, "");
  if (rows.empty()) return;
  doc.AddIfFits("\n#### Framework tax\n\n");
  std::vector<std::string> lines;
  for (const MetricComparison* r : rows) {
    lines.push_back(MarkdownRow({Code(r->key.model + "/" + r->key.block), StatisticName(r->statistic),
                         internal::FormatQuantity(r->baseline_value, r->unit),
                         internal::FormatQuantity(r->candidate_value, r->unit),
                         internal::FormatRowChange(*r), VerdictCell(*r)}));
  }
  doc.Table(Header({"block", "stat", "before", "after", "change", "verdict"},
                   {false, false, true, true, true, false}),
            lines, lines.size(), "blocks");
}

void StructureChanges(Document& doc, const Comparison& c, std::size_t max_rows) {
  if (c.structure_changes.empty()) return;
  doc.AddIfFits("\n#### Structure changes\n\n");
  std::size_t shown = 0;
  for (const StructureChange& s : c.structure_changes) {
    if (max_rows != 0 && shown == max_rows) break;
    std::string line = "- " + std::string(StructureChangeKindName(s.kind)) + ": ";
    if (s.kind == StructureChange::Kind::kRenamed) {
      line += Code(MetricLabel(*s.baseline_key)) + " \u2192 " + Code(MetricLabel(*s.candidate_key));
    } else {
      line += Code(MetricLabel(s.baseline_key ? *s.baseline_key : *s.candidate_key));
    }
    if (!doc.AddIfFits(line + "\n")) break;
    ++shown;
  }
  if (shown < c.structure_changes.size()) {
    doc.Add("- _\u2026 and " + std::to_string(c.structure_changes.size() - shown) + " more_\n");
  }
}

void AllRows(Document& doc, const Comparison& c) {
  const auto rows = internal::RowsForDisplay(
      c, "", {Verdict::kRegression, Verdict::kInconclusive, Verdict::kImprovement, Verdict::kUnchanged});
  if (rows.empty()) return;
  if (!doc.AddIfFits("\n<details><summary>All " + std::to_string(rows.size()) +
                     " comparisons</summary>\n\n")) {
    return;
  }
  std::vector<std::string> lines;
  for (const MetricComparison* r : rows) {
    const internal::DisplayUnit unit = internal::RowUnit(*r);
    lines.push_back(MarkdownRow({Code(r->label), StatisticName(r->statistic),
                         std::to_string(r->n_baseline) + "/" + std::to_string(r->n_candidate),
                         internal::FormatQuantity(r->baseline_value, unit),
                         internal::FormatQuantity(r->candidate_value, unit),
                         internal::FormatRowChange(*r), internal::FormatInterval(*r),
                         internal::FormatPCell(*r), internal::FormatThreshold(*r),
                         std::isfinite(r->mde) ? internal::FormatChange(*r, r->mde).substr(1) : "n/a",
                         VerdictCell(*r), CellText(RowReason(*r))}));
  }
  doc.Table(Header({"metric", "stat", "n", "baseline", "candidate", "change", "interval", "p",
                    "threshold", "MDE", "verdict", "why"},
                   {false, false, true, true, true, true, false, true, true, true, false, false}),
            lines, lines.size(), "rows");
  doc.AddIfFits("\n<sub>" + CellText(internal::EstimateLegend(rows)) + "</sub>\n");
  doc.Add("\n</details>\n");
}

void Settings(Document& doc, const Comparison& c) {
  std::string text = "\n<details><summary>Settings and context</summary>\n\n";
  const ComparisonSettings& s = c.settings;
  text += internal::Printf("- FDR q=%g over %zu per-operator metrics (Benjamini\u2013Hochberg%s)",
                           s.fdr, s.family_size, s.noise_aware_fdr ? ", noise-aware weights" : "");
  if (s.threshold_protected > 0) {
    text += internal::Printf("; %zu more protected by their threshold", s.threshold_protected);
  }
  text += internal::Printf("; alpha=%g end to end\n", s.alpha);
  text += "- " + internal::IntervalsPhrase(c) +
          internal::Printf("; at least %d samples per side; MDE at %g%% power; seed %llu\n",
                           s.min_samples, s.power * 100, static_cast<unsigned long long>(s.seed));
  text += "- thresholds: " + Code(s.thresholds_source.empty() ? "<built-in>" : s.thresholds_source) +
          "\n\n";
  std::map<std::string, std::pair<std::string, std::string>> context;
  for (const auto& [k, v] : c.baseline_context) context[k].first = v;
  for (const auto& [k, v] : c.candidate_context) context[k].second = v;
  std::string table = Header({"context", "baseline", "candidate"}, {false, false, false});
  for (const auto& [key, values] : context) {
    const bool differs = values.first != values.second;
    auto cell = [&](const std::string& v) {
      if (v.empty()) return std::string();
      return differs ? "**" + Code(v) + "**" : Code(v);
    };
    table += MarkdownRow({Code(key), cell(values.first), cell(values.second)});
  }
  if (!context.empty()) text += table;
  text += "\n</details>\n";
  doc.AddIfFits(text);
}

}  // namespace

std::string RenderMarkdownComparison(const ReportInput& input, const ReportOptions& options) {
  const Comparison& c = *input.comparison;
  Document doc(options.markdown_max_chars);
  const std::string title = input.title.empty() ? "etbench" : input.title;
  doc.Add("### " + std::string(c.advisory ? "advisory \u00b7 " : "") +
          std::string(OutcomeEmoji(c.outcome)) + " " + CellText(title) + ": **" +
          internal::OutcomeWord(c.outcome) + "** \u2014 " + internal::CountsPhrase(c.counts) +
          (c.advisory ? " (advisory: does not fail the job; " + CellText(c.advisory_reason) + ")" : "") +
          "\n\n");
  std::string sub = "<sub>" + internal::SettingsPhrase(c, true);
  const std::string from = ContextPhrase(c.baseline_context);
  const std::string to = ContextPhrase(c.candidate_context);
  if (!from.empty() || !to.empty()) {
    sub += " \u00b7 baseline " + (from.empty() ? "?" : from) + " \u2192 candidate " +
           (to.empty() ? "?" : to);
  }
  doc.Add(sub + "</sub>\n");
  for (const ComparisonWarning& w : c.warnings) {
    doc.AddIfFits("\n> \u26A0\uFE0F " + CellText(WarningText(w)) + "\n");
  }

  const auto changed = internal::RowsForDisplay(c, "", {Verdict::kRegression, Verdict::kImprovement});
  if (!changed.empty()) {
    doc.AddIfFits("\n#### Regressions and improvements\n\n");
    std::vector<std::string> rows;
    const std::size_t shown =
        options.max_rows == 0 ? changed.size() : std::min(changed.size(), options.max_rows);
    for (std::size_t i = 0; i < shown; ++i) rows.push_back(MainRow(*changed[i]));
    doc.Table(Header({"metric", "stat", "baseline", "candidate", "change", "interval", "verdict"},
                     {false, false, true, true, true, false, false}),
              rows, changed.size(), "(see all comparisons below)");
    doc.AddIfFits("\n<sub>" + CellText(internal::EstimateLegend(changed)) + "</sub>\n");
  }
  const auto inconclusive = internal::WithoutUngatedInconclusive(
      internal::RowsForDisplay(c, "", {Verdict::kInconclusive}));
  if (!inconclusive.empty()) {
    doc.AddIfFits("\n#### Inconclusive\n\n");
    std::vector<std::string> rows;
    const std::size_t shown = options.max_rows == 0 ? inconclusive.size()
                                                    : std::min(inconclusive.size(), options.max_rows);
    for (std::size_t i = 0; i < shown; ++i) {
      const MetricComparison& r = *inconclusive[i];
      rows.push_back(MarkdownRow({Code(r.label), StatisticName(r.statistic),
                          internal::FormatChange(r, r.change), internal::FormatInterval(r),
                          InconclusiveWhy(r) + (r.gated ? "" : " (not gated)")}));
    }
    doc.Table(Header({"metric", "stat", "change", "interval", "why"},
                     {false, false, true, false, false}),
              rows, inconclusive.size(), "(see all comparisons below)");
  }
  if (changed.empty() && inconclusive.empty()) {
    doc.AddIfFits("\nNo metric changed beyond its threshold.\n");
  }
  Attributions(doc, c);
  FrameworkTax(doc, c);
  StructureChanges(doc, c, options.max_rows);
  AllRows(doc, c);
  Settings(doc, c);
  doc.Add("\n<sub>" + CellText(options.generator) + "</sub>\n");
  return doc.Finish();
}

std::string RenderMarkdownResults(const results::RunResults& results, const ReportOptions& options) {
  const results::ResultsMetadata& m = results.metadata;
  Document doc(options.markdown_max_chars);
  const std::size_t ok = results.CountWithStatus(results::ModelStatus::kOk);
  const bool all_ok = ok == results.models.size() && !results.interrupted;
  doc.Add("### " + std::string(all_ok ? "\u2705" : "\u274C") + " etbench results: " +
          CellText(m.suite.empty() ? "?" : m.suite) + " \u2014 " +
          internal::Plural(results.models.size(), "model", "models") + ", " + std::to_string(ok) +
          " ok" + (results.interrupted ? ", interrupted" : "") + "\n\n");
  if (!options.results_note.empty()) doc.Add("> " + CellText(options.results_note) + "\n\n");
  std::string sub = "<sub>runner " + CellText(m.runner) + " \u00b7 " + std::to_string(m.warmup) +
                    " warm-up + " + std::to_string(m.iterations) + " iterations \u00d7 " +
                    std::to_string(m.repetitions) + " repetitions";
  if (!m.device.empty()) sub += " \u00b7 " + Code(m.device);
  if (!m.git_commit.empty()) sub += " \u00b7 " + Code(m.git_commit.substr(0, 12));
  if (!m.date.empty()) sub += " \u00b7 " + m.date;
  doc.Add(sub + "</sub>\n\n");

  std::vector<std::string> rows;
  std::vector<std::string> failures;
  for (const results::ModelResult& model : results.models) {
    if (model.status != results::ModelStatus::kOk) {
      failures.push_back("- " + Code(model.name) + " " + results::ModelStatusName(model.status) +
                         (model.error.empty() ? "" : ": " + Code(model.error)) + "\n");
      continue;
    }
    for (const results::BlockResult& block : model.blocks) {
      const results::EventResult* execute = nullptr;
      for (const results::EventResult& e : block.events) {
        if (e.Role() == EventRole::kMethodExecute && !e.perf_data.raw.empty()) execute = &e;
      }
      const auto slowest_ops = internal::SlowestOperators(block, 1);
      const results::EventResult* slowest = slowest_ops.empty() ? nullptr : slowest_ops[0];
      if (execute == nullptr && !block.framework_tax) continue;
      rows.push_back(MarkdownRow(
          {Code(model.name), CellText(block.name), std::to_string(block.run_count),
           execute ? internal::FormatQuantity(execute->perf_data.p50, model.unit) : "",
           execute ? internal::FormatQuantity(execute->perf_data.p90, model.unit) : "",
           block.framework_tax ? internal::Printf("%.2f%%", block.framework_tax->p50) : "",
           slowest ? Code(slowest->name) + " " +
                         internal::FormatQuantity(slowest->perf_data.p50, model.unit)
                   : ""}));
    }
    for (const results::BenchmarkResult& b : model.benchmarks) {
      rows.push_back(MarkdownRow({Code(model.name), Code(b.name), std::to_string(b.perf_data.count),
                          internal::FormatQuantity(b.perf_data.p50, model.unit),
                          internal::FormatQuantity(b.perf_data.p90, model.unit), "", ""}));
    }
  }
  if (!rows.empty()) {
    doc.Table(Header({"model", "block", "runs", "execute p50", "execute p90", "framework tax p50",
                      "slowest operator (p50)"},
                     {false, false, true, true, true, true, false}),
              rows, rows.size(), "rows");
  }
  if (!failures.empty()) {
    doc.AddIfFits("\n#### Failures\n\n");
    for (const std::string& f : failures) doc.AddIfFits(f);
  }
  doc.Add("\n<sub>" + CellText(options.generator) + "</sub>\n");
  return doc.Finish();
}

}  // namespace etbench::reports
