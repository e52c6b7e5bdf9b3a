// Comparison → JSON (schema_version 1).

#include "etbench/compare/comparison_json.h"

#include "etbench/base/json_writer.h"
#include "etbench/compare/metric_set_json.h"

#include "attribution_kind_name.h"
#include "metric_json_members.h"

namespace etbench {
namespace {

void WriteKey(JsonWriter& json, const MetricKey& key) {
  json.BeginObject();
  json.Key("label").String(MetricLabel(key));
  internal::WriteMetricKeyMembers(json, key);
  json.EndObject();
}

void WriteRow(JsonWriter& json, const MetricComparison& r, const RowReasonText& reason) {
  json.BeginObject();
  json.Key("label").String(MetricLabel(r.key));
  internal::WriteMetricKeyMembers(json, r.key);
  json.Key("unit").String(r.unit);
  json.Key("end_to_end").Bool(r.end_to_end);
  json.Key("statistic").String(StatisticName(r.statistic));
  json.Key("n_baseline").Uint(r.n_baseline);
  json.Key("n_candidate").Uint(r.n_candidate);
  json.Key("baseline").Double(r.baseline_value);
  json.Key("candidate").Double(r.candidate_value);
  json.Key("delta").Double(r.delta);
  json.Key("scale").String(r.scale == ChangeScale::kRelative ? "relative" : "absolute");
  json.Key("change").Double(r.change);
  json.Key("ci").BeginArray().Double(r.ci_low).Double(r.ci_high).EndArray();
  json.Key("p_value").Double(r.p_value);
  json.Key("p_adjusted").DoubleOrNull(r.p_adjusted);
  json.Key("level").Double(r.level);
  json.Key("fdr_weight").DoubleOrNull(r.fdr_weight);
  json.Key("threshold_protected").Bool(r.threshold_protected);
  json.Key("prob_superiority").Double(r.prob_superiority);
  json.Key("test").String(r.test);
  json.Key("design_effect").Double(r.design_effect);
  json.Key("repetition_correlation").Double(r.repetition_correlation);
  json.Key("session_correlation").Double(r.session_correlation);
  json.Key("threshold").Double(r.threshold);
  json.Key("mde").Double(r.mde);
  json.Key("iterations_needed").IntOrNull(r.iterations_needed);
  json.Key("verdict").String(VerdictName(r.verdict));
  json.Key("reason").String(reason(r));
  json.Key("rule").String(r.rule);
  json.Key("direction").String(DirectionName(r.direction));
  json.Key("gated").Bool(r.gated);
  json.Key("not_counted").Bool(NotCounted(r.notes));
  // Interleaved (paired) rows: the interval's level, the decision and its cost.
  json.Key("ci_alpha").DoubleOrNull(r.ci_alpha);
  json.Key("decided").Bool(r.decided);
  json.Key("blocks");
  if (r.blocks) {
    json.Uint(*r.blocks);
  } else {
    json.Null();
  }
  json.Key("seconds").DoubleOrNull(r.seconds);
  json.EndObject();
}

void WriteAttribution(JsonWriter& json, const Attribution& a) {
  json.BeginObject();
  json.Key("model").String(a.model);
  json.Key("block").String(a.block);
  json.Key("unit").String(a.unit);
  json.Key("baseline_execute").Double(a.baseline_execute);
  json.Key("candidate_execute").Double(a.candidate_execute);
  json.Key("delta").Double(a.delta);
  json.Key("statistic").String(StatisticName(a.statistic));
  json.Key("items").BeginArray();
  for (const AttributionItem& item : a.items) {
    json.BeginObject();
    json.Key("kind").String(internal::AttributionItemKindName(item.kind));
    json.Key("label").String(item.label);
    json.Key("metric");
    if (item.key) {
      json.String(MetricLabel(*item.key));
    } else {
      json.Null();
    }
    json.Key("delta").Double(item.delta);
    json.Key("share").Double(item.share);
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
}

}  // namespace

std::string ComparisonToJson(const Comparison& c, const RowReasonText& reason,
                             const ComparisonWarningText& warning, int indent) {
  JsonWriter json(indent);
  json.BeginObject();
  json.Key("schema_version").Int(kComparisonSchemaVersion);
  json.Key("outcome").String(GateOutcomeName(c.outcome));
  json.Key("counts").BeginObject();
  json.Key("regressions").Uint(c.counts.regressions);
  json.Key("improvements").Uint(c.counts.improvements);
  json.Key("unchanged").Uint(c.counts.unchanged);
  json.Key("inconclusive").Uint(c.counts.inconclusive);
  json.EndObject();
  const ComparisonSettings& s = c.settings;
  json.Key("settings").BeginObject();
  json.Key("fdr").Double(s.fdr);
  json.Key("noise_aware_fdr").Bool(s.noise_aware_fdr);
  json.Key("alpha").Double(s.alpha);
  json.Key("confidence").Double(s.confidence);
  json.Key("bootstrap_resamples").Int(s.bootstrap_resamples);
  json.Key("min_samples").Int(s.min_samples);
  json.Key("power").Double(s.power);
  json.Key("seed").Uint(s.seed);
  json.Key("family_size").Uint(s.family_size);
  json.Key("threshold_protected").Uint(s.threshold_protected);
  json.Key("thresholds_source").String(s.thresholds_source);
  json.EndObject();
  json.Key("baseline_context").StringMap(c.baseline_context);
  json.Key("candidate_context").StringMap(c.candidate_context);
  json.Key("warnings").BeginArray();
  for (const ComparisonWarning& w : c.warnings) json.String(warning(w));
  json.EndArray();
  json.Key("advisory").Bool(c.advisory);
  json.Key("advisory_reason").String(c.advisory_reason);
  json.Key("not_judged");
  if (c.not_judged) {
    json.BeginObject();
    json.Key("reason").String(c.not_judged->reason);
    json.Key("nights").Uint(c.not_judged->nights);
    json.Key("nights_needed").Uint(c.not_judged->nights_needed);
    json.Key("message").String(c.not_judged->message);
    json.EndObject();
  } else {
    json.Null();
  }
  json.Key("metrics").BeginArray();
  for (const MetricComparison& r : c.rows) WriteRow(json, r, reason);
  json.EndArray();
  json.Key("attribution").BeginArray();
  for (const Attribution& a : c.attributions) WriteAttribution(json, a);
  json.EndArray();
  json.Key("structure_changes").BeginArray();
  for (const StructureChange& change : c.structure_changes) {
    json.BeginObject();
    json.Key("kind").String(StructureChangeKindName(change.kind));
    json.Key("model").String(change.model);
    json.Key("block").String(change.block);
    for (const auto& [name, key] : {std::pair{"baseline", &change.baseline_key},
                                    std::pair{"candidate", &change.candidate_key}}) {
      json.Key(name);
      if (*key) {
        WriteKey(json, **key);
      } else {
        json.Null();
      }
    }
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
  return json.Take();
}

}  // namespace etbench
