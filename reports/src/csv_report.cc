// CSV / TSV: one row per compared metric, or one per event of a run.

#include "etbench/reports/csv_report.h"

#include <cmath>

#include "etbench/compare/metric_set_json.h"
#include "etbench/reports/row_reason.h"
#include "report_text.h"

namespace etbench::reports {
namespace {

using internal::Shortest;

// pandas' to_csv quoting: fields with the separator, a quote or a line
// break are quoted, quotes doubled.
std::string Field(const std::string& s, char separator) {
  if (s.find_first_of(std::string(1, separator) + "\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

void WriteRow(std::string& out, const std::vector<std::string>& row, char separator) {
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (i > 0) out += separator;
    out += Field(row[i], separator);
  }
  out += '\n';
}

std::string Optional(const std::optional<int32_t>& v) { return v ? std::to_string(*v) : ""; }

}  // namespace

std::string RenderDelimitedComparison(const Comparison& c, char separator) {
  std::string out;
  WriteRow(out,
           {"model", "block", "kind", "name", "instruction_id", "delegate_id", "occurrence",
            "label", "statistic", "unit", "end_to_end", "n_baseline", "n_candidate", "baseline",
            "candidate", "delta", "scale", "change", "ci_low", "ci_high", "p_value", "p_adjusted",
            "level", "fdr_weight", "threshold_protected", "prob_superiority", "threshold", "mde", "iterations_needed", "verdict",
            "reason", "rule", "direction", "gated"},
           separator);
  for (const MetricComparison& r : c.rows) {
    WriteRow(out,
             {r.key.model, r.key.block, MetricKindName(r.key.kind), r.key.name,
              Optional(r.key.instruction_id), r.key.delegate_id, std::to_string(r.key.occurrence),
              r.label, StatisticName(r.statistic), r.unit, r.end_to_end ? "true" : "false",
              std::to_string(r.n_baseline), std::to_string(r.n_candidate),
              Shortest(r.baseline_value), Shortest(r.candidate_value), Shortest(r.delta),
              r.scale == ChangeScale::kRelative ? "relative" : "absolute", Shortest(r.change),
              Shortest(r.ci_low), Shortest(r.ci_high), Shortest(r.p_value),
              r.p_adjusted ? Shortest(*r.p_adjusted) : "", Shortest(r.level),
              r.fdr_weight ? Shortest(*r.fdr_weight) : "", r.threshold_protected ? "true" : "false",
              Shortest(r.prob_superiority), Shortest(r.threshold), Shortest(r.mde),
              r.iterations_needed ? std::to_string(*r.iterations_needed) : "",
              VerdictName(r.verdict), RowReason(r), r.rule, DirectionName(r.direction),
              r.gated ? "true" : "false"},
             separator);
  }
  return out;
}

std::string RenderDelimitedResults(const results::RunResults& results, char separator) {
  std::string out;
  WriteRow(out,
           {"", "model", "event_block_name", "event_name", "instruction_id", "occurrence",
            "delegate_debug_identifier", "unit", "p10", "p50", "p90", "avg", "min", "max",
            "stddev", "count", "op_types", "is_delegated_op", "delegate_backend_name"},
           separator);
  std::size_t index = 0;
  for (const results::ModelResult& model : results.models) {
    for (const results::BlockResult& block : model.blocks) {
      for (const results::EventResult& e : block.events) {
        const PerfData& p = e.perf_data;
        const bool timed = !p.raw.empty();
        auto stat = [&](double v) { return timed ? Shortest(v) : std::string(); };
        WriteRow(out,
                 {std::to_string(index++), model.name, block.name, e.name,
                  Optional(e.instruction_id), std::to_string(e.occurrence),
                  DelegateDebugIdToString(e.delegate_debug_identifier), model.unit, stat(p.p10),
                  stat(p.p50), stat(p.p90), stat(p.avg), stat(p.min), stat(p.max), stat(p.stddev),
                  std::to_string(p.count), internal::PythonListRepr(e.op_types),
                  e.is_delegated_op ? "True" : "False", e.delegate_backend_name.value_or("")},
                 separator);
      }
    }
  }
  return out;
}

}  // namespace etbench::reports
