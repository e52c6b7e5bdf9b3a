// The self-contained HTML report (comparison or results).

#include "etbench/reports/html_report.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <set>

#include "etbench/inspector/event_role.h"
#include "etbench/inspector/perf_data.h"
#include "etbench/reports/row_reason.h"
#include "etbench/reports/warning_text.h"
#include "html_sections.h"
#include "report_text.h"
#include "svg_plot.h"
#include "xml_text.h"

namespace etbench::reports {
namespace {

using internal::BoxData;
using internal::HtmlCell;
using internal::HtmlColumn;
using internal::HtmlRow;
using internal::Series;
using internal::XmlEscape;

constexpr std::size_t kMaxBars = 40;
constexpr std::size_t kTopChangedOps = 4;

const std::vector<Series>& BaseCand() {
  static const std::vector<Series> series{{"baseline", "s-base"}, {"candidate", "s-cand"}};
  return series;
}

// Execution order within a model: block, instruction, then name.
bool ExecutionOrder(const MetricKey& a, const MetricKey& b) {
  const int32_t ia = a.instruction_id.value_or(INT_MAX), ib = b.instruction_id.value_or(INT_MAX);
  if (a.block != b.block) return a.block < b.block;
  if (ia != ib) return ia < ib;
  if (a.name != b.name) return a.name < b.name;
  return a.occurrence < b.occurrence;
}

std::string HtmlCode(const std::string& text) { return "<code>" + XmlEscape(text) + "</code>"; }

HtmlCell Num(const std::string& text, double value) {
  return HtmlCell{XmlEscape(text), value, ""};
}

// The per-operator p50 bars of one model: rows when they carry p50, else
// the median of the samples (the inspector's Percentile).
std::string OperatorBars(const Comparison& c, const std::string& model,
                         const internal::MetricIndex& base, const internal::MetricIndex& cand,
                         const MetricSet* base_set, const MetricSet* cand_set) {
  std::set<MetricKey> keys;
  for (const MetricSet* set : {base_set, cand_set}) {
    if (set == nullptr) continue;
    for (const Metric& m : set->metrics) {
      if (m.key.model == model && m.is_kernel_or_delegate_call) keys.insert(m.key);
    }
  }
  if (base_set == nullptr && cand_set == nullptr) {
    for (const MetricComparison& r : c.rows) {
      if (r.key.model == model && r.key.kind == MetricKind::kEvent && !r.end_to_end &&
          IsKernelOrDelegateCall(MetricEventRole(r.key))) {
        keys.insert(r.key);
      }
    }
  }
  struct Bar {
    MetricKey key;
    double base = NAN, cand = NAN;
    std::string unit;
  };
  std::vector<Bar> bars;
  for (const MetricKey& key : keys) {
    Bar bar;
    bar.key = key;
    for (const MetricComparison& r : c.rows) {
      if (r.key == key && r.statistic == Statistic::kP50) {
        bar.base = r.baseline_value, bar.cand = r.candidate_value, bar.unit = r.unit;
      }
    }
    if (bar.unit.empty()) {
      if (const Metric* m = base.Find(key); m && !m->samples.empty()) {
        bar.base = PerfData::FromRaw(m->samples).p50, bar.unit = m->unit;
      }
      if (const Metric* m = cand.Find(key); m && !m->samples.empty()) {
        bar.cand = PerfData::FromRaw(m->samples).p50, bar.unit = m->unit;
      }
    }
    if (!bar.unit.empty()) bars.push_back(bar);
  }
  if (bars.empty()) return "";
  const std::size_t total = bars.size();
  std::string note;
  if (bars.size() > kMaxBars) {
    auto largest = [](const Bar& b) {
      return std::max(std::isfinite(b.base) ? b.base : 0, std::isfinite(b.cand) ? b.cand : 0);
    };
    std::stable_sort(bars.begin(), bars.end(),
                     [&](const Bar& a, const Bar& b) { return largest(a) > largest(b); });
    bars.resize(kMaxBars);
    note = "<p class=\"note\">The " + std::to_string(kMaxBars) + " slowest of " +
           std::to_string(total) + " operators.</p>";
  }
  std::stable_sort(bars.begin(), bars.end(),
                   [](const Bar& a, const Bar& b) { return ExecutionOrder(a.key, b.key); });
  // One block (the usual case): its name adds nothing to the labels.
  const bool one_block = std::all_of(bars.begin(), bars.end(),
                                     [&](const Bar& b) { return b.key.block == bars[0].key.block; });
  std::vector<internal::BarGroup> groups;
  for (const Bar& b : bars) {
    std::string label = internal::KeyLabelWithinModel(b.key);
    if (one_block && label.rfind(b.key.block + "/", 0) == 0) label.erase(0, b.key.block.size() + 1);
    groups.push_back({label, {b.base, b.cand}});
  }
  return "<figure class=\"chart op-bars\"><figcaption>Per-operator p50, baseline vs candidate "
         "(execution order)</figcaption>" +
         internal::SvgBarChart(BaseCand(), groups, bars.front().unit) + note + "</figure>\n";
}

std::string Distributions(const Comparison& c, const std::string& model,
                          const internal::MetricIndex& base, const internal::MetricIndex& cand,
                          bool have_sets) {
  if (!have_sets) {
    return "<p class=\"note\">Distributions need the raw samples: render from the comparison "
           "with the baseline and candidate metric sets (etbench report … --baseline B "
           "--candidate C).</p>\n";
  }
  std::vector<MetricKey> keys;
  for (const MetricComparison& r : c.rows) {
    if (r.key.model == model && MetricEventRole(r.key) == EventRole::kMethodExecute &&
        std::find(keys.begin(), keys.end(), r.key) == keys.end()) {
      keys.push_back(r.key);
    }
  }
  std::size_t ops = 0;
  for (const MetricComparison* r :
       internal::RowsForDisplay(c, model, {Verdict::kRegression, Verdict::kInconclusive,
                                           Verdict::kImprovement, Verdict::kUnchanged})) {
    if (ops == kTopChangedOps) break;
    if (r->end_to_end || r->key.kind != MetricKind::kEvent ||
        MetricEventRole(r->key) == EventRole::kOperatorCall) {
      continue;
    }
    if (std::find(keys.begin(), keys.end(), r->key) != keys.end()) continue;
    keys.push_back(r->key);
    ++ops;
  }
  std::string plots;
  for (const MetricKey& key : keys) {
    const Metric* b = base.Find(key);
    const Metric* k = cand.Find(key);
    if (b == nullptr && k == nullptr) continue;
    const BoxData bb = b ? internal::BoxFromSamples(b->samples) : BoxData{};
    const BoxData kb = k ? internal::BoxFromSamples(k->samples) : BoxData{};
    plots += internal::SvgBoxPlot(internal::KeyLabelWithinModel(key), BaseCand(),
                                  {b && !b->samples.empty() ? &bb : nullptr,
                                   k && !k->samples.empty() ? &kb : nullptr},
                                  b ? b->unit : k->unit);
  }
  if (plots.empty()) return "";
  return "<figure class=\"chart distributions\"><figcaption>Distributions of the raw samples: "
         "Method::execute and the most changed operators (box: quartiles and median; whiskers: "
         "1.5 IQR; dots: samples, those off the axis at its edge)</figcaption><div class=\"small-multiples\">" +
         plots + "</div></figure>\n";
}

std::string FrameworkTaxRuns(const std::string& model, const MetricSet* base_set,
                             const MetricSet* cand_set) {
  std::set<MetricKey> keys;
  for (const MetricSet* set : {base_set, cand_set}) {
    if (set == nullptr) continue;
    for (const Metric& m : set->metrics) {
      if (m.key.model == model && m.key.kind == MetricKind::kFrameworkTax) keys.insert(m.key);
    }
  }
  const internal::MetricIndex base(base_set), cand(cand_set);
  std::string plots;
  for (const MetricKey& key : keys) {
    const Metric* b = base.Find(key);
    const Metric* k = cand.Find(key);
    plots += internal::SvgRunChart("framework tax per run: " + key.block, BaseCand(),
                                   {b ? b->samples : std::vector<double>{},
                                    k ? k->samples : std::vector<double>{}},
                                   "percent");
  }
  if (plots.empty()) return "";
  return "<figure class=\"chart framework-tax\"><figcaption>Framework tax per run (the share of "
         "Method::execute outside kernels and delegates; past " +
         std::to_string(internal::kMaxRunPoints) +
         " runs, groups of consecutive runs: line their median, band their 10th\u201390th "
         "percentile)</figcaption>" + plots + "</figure>\n";
}

std::string AttributionHtml(const Comparison& c, const std::string& model) {
  std::string out;
  for (const Attribution& a : c.attributions) {
    if (a.model != model) continue;
    const internal::DisplayUnit unit = internal::ValueDisplayUnit(
        a.unit, std::max(std::fabs(a.baseline_execute), std::fabs(a.candidate_execute)));
    const std::size_t shown = std::min<std::size_t>(a.items.size(), 8);
    const auto units = internal::AttributionUnits(a, shown);
    out += "<h3>Where the change of " + HtmlCode(a.block + "/Method::execute") + " went</h3><p>" +
           StatisticName(a.statistic) + " " +
           XmlEscape(internal::FormatQuantity(a.baseline_execute, unit)) + " \u2192 " +
           XmlEscape(internal::FormatQuantity(a.candidate_execute, unit)) + " (<b>" +
           XmlEscape(internal::SignedInColumn(a.delta, a.unit, units)) +
           "</b>)</p><table class=\"attribution\"><tr><th>contributor</th><th>change</th>"
           "<th>share</th></tr>";
    for (std::size_t i = 0; i < shown; ++i) {
      const AttributionItem& item = a.items[i];
      out += "<tr><td>" + HtmlCode(item.label) + "</td><td class=\"num\">" +
             XmlEscape(internal::SignedInColumn(item.delta, a.unit, units)) + "</td><td class=\"num\">" +
             XmlEscape(internal::FormatShare(item.share)) + "</td></tr>";
    }
    out += "</table>\n";
  }
  return out;
}

std::string VerdictTable(const Comparison& c, const std::string& model, const std::string& id) {
  const auto rows = internal::RowsForDisplay(
      c, model, {Verdict::kRegression, Verdict::kInconclusive, Verdict::kImprovement,
                 Verdict::kUnchanged});
  std::vector<std::pair<std::string, double>> values;
  for (const MetricComparison* r : rows) {
    values.emplace_back(r->unit, r->baseline_value);
    values.emplace_back(r->unit, r->candidate_value);
  }
  const auto units = internal::ColumnUnits(values);
  std::vector<HtmlRow> table;
  for (const MetricComparison* r : rows) {
    HtmlRow row;
    row.css_class = std::string("v-") + VerdictName(r->verdict);
    row.cells = {HtmlCell{XmlEscape(internal::LabelWithinModel(*r)), std::nullopt, "metric"},
                 HtmlCell{StatisticName(r->statistic)},
                 Num(internal::FormatInColumn(r->baseline_value, r->unit, units), r->baseline_value),
                 Num(internal::FormatInColumn(r->candidate_value, r->unit, units), r->candidate_value),
                 Num(internal::FormatRowChange(*r), r->change),
                 HtmlCell{XmlEscape(internal::FormatInterval(*r))},
                 Num(internal::FormatPCell(*r), r->p_value),
                 Num(internal::FormatThreshold(*r), r->threshold),
                 Num(std::isfinite(r->mde) ? internal::FormatChange(*r, r->mde).substr(1) : "n/a", r->mde),
                 HtmlCell{XmlEscape(std::string(internal::VerdictSymbol(r->verdict)) + " " +
                                    VerdictName(r->verdict) + (r->gated ? "" : " (not gated)")),
                          static_cast<double>(internal::VerdictRank(r->verdict)), "verdict"},
                 HtmlCell{XmlEscape(RowReason(*r)), std::nullopt, "why"}};
    table.push_back(std::move(row));
  }
  return internal::HtmlTable(id,
                             {{"metric"}, {"stat"}, {"baseline", true}, {"candidate", true},
                              {"change", true}, {"interval"}, {"p", true}, {"threshold", true},
                              {"MDE", true}, {"verdict"}, {"why"}},
                             table) +
         "<p class=\"note legend\">" + XmlEscape(internal::EstimateLegend(rows)) + "</p>\n";
}

std::string ContextTable(const Comparison& c) {
  std::map<std::string, std::pair<std::string, std::string>> context;
  for (const auto& [k, v] : c.baseline_context) context[k].first = v;
  for (const auto& [k, v] : c.candidate_context) context[k].second = v;
  if (context.empty()) return "";
  std::string out = "<details><summary>Context of baseline and candidate</summary><table "
                    "class=\"attribution\"><tr><th>key</th><th>baseline</th><th>candidate</th></tr>";
  for (const auto& [key, values] : context) {
    const bool differs = values.first != values.second;
    out += "<tr><td>" + HtmlCode(key) + "</td><td>" + (differs ? "<b>" : "") + XmlEscape(values.first) +
           (differs ? "</b>" : "") + "</td><td>" + (differs ? "<b>" : "") + XmlEscape(values.second) +
           (differs ? "</b>" : "") + "</td></tr>";
  }
  return out + "</table></details>\n";
}

}  // namespace

std::string RenderHtmlComparison(const ReportInput& input, const ReportOptions& options) {
  const Comparison& c = *input.comparison;
  const std::string title = input.title.empty() ? "etbench" : input.title;
  const std::string word = internal::OutcomeWord(c.outcome);
  std::string out = internal::HtmlPageStart(title + ": " + word, "comparison");
  out += "<header class=\"banner outcome-" + std::string(GateOutcomeName(c.outcome)) +
         "\" id=\"outcome\"><h1>" + XmlEscape(title) + ": " + word + "</h1><p>" +
         XmlEscape(internal::CountsPhrase(c.counts)) + "</p><p class=\"meta\">" +
         XmlEscape(internal::SettingsPhrase(c, false) + " \u00b7 thresholds " +
                   (c.settings.thresholds_source.empty() ? "<built-in>" : c.settings.thresholds_source)) +
         "</p></header>\n";
  for (const ComparisonWarning& w : c.warnings) {
    out += "<p class=\"warning\">\u26A0 " + XmlEscape(WarningText(w)) + "</p>\n";
  }
  const std::vector<std::string> models = internal::ModelsOf(c);
  if (models.size() > 1) {
    out += "<nav>";
    for (std::size_t i = 0; i < models.size(); ++i) {
      out += "<a href=\"#model-" + std::to_string(i) + "\">" + XmlEscape(models[i]) + "</a>";
    }
    out += "</nav>\n";
  }
  const internal::MetricIndex base(input.baseline), cand(input.candidate);
  const bool have_sets = input.baseline != nullptr || input.candidate != nullptr;
  for (std::size_t i = 0; i < models.size(); ++i) {
    const std::string& model = models[i];
    out += "<section class=\"model\" id=\"model-" + std::to_string(i) + "\" data-model=\"" +
           XmlEscape(model) + "\">\n<h2>" + XmlEscape(model) + "</h2>\n<div class=\"charts\">\n";
    out += OperatorBars(c, model, base, cand, input.baseline, input.candidate);
    out += Distributions(c, model, base, cand, have_sets);
    out += FrameworkTaxRuns(model, input.baseline, input.candidate);
    out += "</div>\n" + AttributionHtml(c, model);
    out += "<h3>Verdicts</h3>\n" +
           VerdictTable(c, model, "verdicts-" + std::to_string(i) + "-" + internal::HtmlId(model));
    out += "</section>\n";
  }
  if (!c.structure_changes.empty()) {
    out += "<section id=\"structure\"><h2>Structure changes</h2><ul>";
    for (const StructureChange& s : c.structure_changes) {
      out += "<li>" + std::string(StructureChangeKindName(s.kind)) + ": ";
      if (s.kind == StructureChange::Kind::kRenamed) {
        out += HtmlCode(MetricLabel(*s.baseline_key)) + " \u2192 " + HtmlCode(MetricLabel(*s.candidate_key));
      } else {
        out += HtmlCode(MetricLabel(s.baseline_key ? *s.baseline_key : *s.candidate_key));
      }
      out += "</li>";
    }
    out += "</ul></section>\n";
  }
  out += ContextTable(c);
  out += internal::HtmlPageEnd(options.generator);
  return out;
}

std::string RenderHtmlResults(const results::RunResults& results, const ReportOptions& options) {
  const results::ResultsMetadata& m = results.metadata;
  const std::size_t ok = results.CountWithStatus(results::ModelStatus::kOk);
  const bool all_ok = ok == results.models.size() && !results.interrupted;
  std::string out = internal::HtmlPageStart("etbench results: " + m.suite, "results");
  out += "<header class=\"banner outcome-" + std::string(all_ok ? "pass" : "regression") +
         "\" id=\"outcome\"><h1>etbench results: " + XmlEscape(m.suite) + "</h1><p>" +
         XmlEscape(internal::Plural(results.models.size(), "model", "models") + ", " +
                   std::to_string(ok) + " ok" + (results.interrupted ? ", interrupted" : "")) +
         "</p>" +
         (options.results_note.empty()
              ? std::string()
              : "<p class=\"note\">" + XmlEscape(options.results_note) + "</p>") +
         "<p class=\"meta\">" +
         XmlEscape("runner " + m.runner + " \u00b7 " + std::to_string(m.warmup) + " warm-up + " +
                   std::to_string(m.iterations) + " iterations \u00d7 " +
                   std::to_string(m.repetitions) + " repetitions \u00b7 " + m.device + " \u00b7 " +
                   m.date) +
         "</p></header>\n";
  const std::vector<Series> single{{"samples", "s-cand"}};
  for (std::size_t i = 0; i < results.models.size(); ++i) {
    const results::ModelResult& model = results.models[i];
    out += "<section class=\"model\" id=\"model-" + std::to_string(i) + "\" data-model=\"" +
           XmlEscape(model.name) + "\">\n<h2>" + XmlEscape(model.name) + "</h2>\n";
    if (model.status != results::ModelStatus::kOk) {
      out += "<p class=\"failed\">" + XmlEscape(results::ModelStatusName(model.status)) + ": " +
             XmlEscape(model.error) + "</p></section>\n";
      continue;
    }
    std::vector<internal::BarGroup> bars;
    std::vector<const results::EventResult*> ops;
    std::string distributions, taxes;
    std::vector<HtmlRow> table;
    const bool several_blocks = model.blocks.size() > 1;
    // One unit for every statistic column of the event table.
    std::vector<std::pair<std::string, double>> values;
    for (const results::BlockResult& block : model.blocks) {
      for (const results::EventResult& e : block.events) values.emplace_back(model.unit, e.perf_data.p90);
    }
    const auto units = internal::ColumnUnits(values);
    auto cell = [&](double v) { return Num(internal::FormatInColumn(v, model.unit, units), v); };
    for (const results::BlockResult& block : model.blocks) {
      const std::string prefix = several_blocks ? block.name + "/" : "";
      std::vector<const results::EventResult*> block_ops;
      for (const results::EventResult& e : block.events) {
        if (e.perf_data.raw.empty()) continue;
        const std::string label =
            prefix + e.name + (e.instruction_id ? "#" + std::to_string(*e.instruction_id) : "");
        if (IsKernelOrDelegateCall(e.Role())) {
          block_ops.push_back(&e);
          bars.push_back({label, {e.perf_data.p50}});
        }
        if (e.Role() == EventRole::kMethodExecute) {
          const BoxData box = internal::BoxFromSamples(e.perf_data.raw);
          distributions += internal::SvgBoxPlot(prefix + e.name, single, {&box}, model.unit);
        }
        const PerfData& p = e.perf_data;
        table.push_back(HtmlRow{{HtmlCell{XmlEscape(block.name)},
                                 HtmlCell{XmlEscape(e.name), std::nullopt, "metric"},
                                 e.instruction_id ? Num(std::to_string(*e.instruction_id), *e.instruction_id)
                                                  : HtmlCell{"-", -1.0, ""},
                                 Num(std::to_string(p.count), static_cast<double>(p.count)),
                                 cell(p.p10), cell(p.p50), cell(p.p90), cell(p.avg),
                                 cell(p.min), cell(p.max), cell(p.stddev)},
                                ""});
      }
      std::stable_sort(block_ops.begin(), block_ops.end(),
                       [](const results::EventResult* a, const results::EventResult* b) {
                         return a->perf_data.p50 > b->perf_data.p50;
                       });
      for (std::size_t k = 0; k < block_ops.size() && k < kTopChangedOps; ++k) {
        const results::EventResult& e = *block_ops[k];
        const BoxData box = internal::BoxFromSamples(e.perf_data.raw);
        distributions += internal::SvgBoxPlot(
            prefix + e.name + (e.instruction_id ? "#" + std::to_string(*e.instruction_id) : ""),
            single, {&box}, model.unit);
      }
      if (block.framework_tax) {
        taxes += internal::SvgRunChart("framework tax per run: " + block.name, single,
                                       {block.framework_tax->raw}, "percent");
      }
    }
    out += "<div class=\"charts\">\n";
    if (!bars.empty()) {
      if (bars.size() > kMaxBars) bars.resize(kMaxBars);
      out += "<figure class=\"chart op-bars\"><figcaption>Per-operator p50 (execution "
             "order)</figcaption>" +
             internal::SvgBarChart({{"p50", "s-cand"}}, bars, model.unit) + "</figure>\n";
    }
    if (!distributions.empty()) {
      out += "<figure class=\"chart distributions\"><figcaption>Distributions: Method::execute "
             "and the slowest operators</figcaption><div class=\"small-multiples\">" +
             distributions + "</div></figure>\n";
    }
    if (!taxes.empty()) {
      out += "<figure class=\"chart framework-tax\"><figcaption>Framework tax per "
             "run</figcaption>" + taxes + "</figure>\n";
    }
    out += "</div>\n<h3>Events</h3>\n" +
           internal::HtmlTable("events-" + std::to_string(i) + "-" + internal::HtmlId(model.name),
                               {{"block"}, {"event"}, {"instr", true}, {"n", true}, {"p10", true},
                                {"p50", true}, {"p90", true}, {"avg", true}, {"min", true},
                                {"max", true}, {"stddev", true}},
                               table) +
           "</section>\n";
  }
  out += internal::HtmlPageEnd(options.generator);
  return out;
}

}  // namespace etbench::reports
