// Comparison → JSON (schema_version 1).

#include "etbench/compare/comparison_json.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "etbench/compare/metric_set_json.h"

#include "attribution_kind_name.h"

namespace etbench {
namespace {

using Json = nlohmann::ordered_json;

Json Number(double value) { return std::isfinite(value) ? Json(value) : Json(nullptr); }

Json KeyJson(const MetricKey& key) {
  Json j = Json::object();
  j["label"] = MetricLabel(key);
  j["model"] = key.model;
  j["block"] = key.block;
  j["kind"] = MetricKindName(key.kind);
  j["name"] = key.name;
  j["instruction_id"] = key.instruction_id ? Json(*key.instruction_id) : Json(nullptr);
  j["delegate_id"] = key.delegate_id;
  j["occurrence"] = key.occurrence;
  return j;
}

}  // namespace

std::string ComparisonToJson(const Comparison& c, const RowReasonText& reason, int indent) {
  Json root = Json::object();
  root["schema_version"] = kComparisonSchemaVersion;
  root["outcome"] = GateOutcomeName(c.outcome);
  root["counts"] = {{"regressions", c.counts.regressions},
                    {"improvements", c.counts.improvements},
                    {"unchanged", c.counts.unchanged},
                    {"inconclusive", c.counts.inconclusive}};
  root["settings"] = {{"fdr", c.settings.fdr},
                      {"noise_aware_fdr", c.settings.noise_aware_fdr},
                      {"alpha", c.settings.alpha},
                      {"confidence", c.settings.confidence},
                      {"bootstrap_resamples", c.settings.bootstrap_resamples},
                      {"min_samples", c.settings.min_samples},
                      {"power", c.settings.power},
                      {"seed", c.settings.seed},
                      {"family_size", c.settings.family_size},
                      {"threshold_protected", c.settings.threshold_protected},
                      {"thresholds_source", c.settings.thresholds_source}};
  root["baseline_context"] = Json(c.baseline_context);
  root["candidate_context"] = Json(c.candidate_context);
  root["warnings"] = c.warnings;
  root["advisory"] = c.advisory;
  root["advisory_reason"] = c.advisory_reason;
  Json rows = Json::array();
  for (const MetricComparison& r : c.rows) {
    Json j = KeyJson(r.key);
    j["unit"] = r.unit;
    j["end_to_end"] = r.end_to_end;
    j["statistic"] = StatisticName(r.statistic);
    j["n_baseline"] = r.n_baseline;
    j["n_candidate"] = r.n_candidate;
    j["baseline"] = Number(r.baseline_value);
    j["candidate"] = Number(r.candidate_value);
    j["delta"] = Number(r.delta);
    j["scale"] = r.scale == ChangeScale::kRelative ? "relative" : "absolute";
    j["change"] = Number(r.change);
    j["ci"] = Json::array({Number(r.ci_low), Number(r.ci_high)});
    j["p_value"] = Number(r.p_value);
    j["p_adjusted"] = r.p_adjusted ? Number(*r.p_adjusted) : Json(nullptr);
    j["level"] = r.level;
    j["fdr_weight"] = r.fdr_weight ? Number(*r.fdr_weight) : Json(nullptr);
    j["threshold_protected"] = r.threshold_protected;
    j["prob_superiority"] = Number(r.prob_superiority);
    j["test"] = r.test;
    j["design_effect"] = Number(r.design_effect);
    j["repetition_correlation"] = Number(r.repetition_correlation);
    j["session_correlation"] = Number(r.session_correlation);
    j["threshold"] = Number(r.threshold);
    j["mde"] = Number(r.mde);
    j["iterations_needed"] = r.iterations_needed ? Json(*r.iterations_needed) : Json(nullptr);
    j["verdict"] = VerdictName(r.verdict);
    j["reason"] = reason(r);
    j["rule"] = r.rule;
    j["direction"] = DirectionName(r.direction);
    j["gated"] = r.gated;
    // Interleaved (paired) rows: the interval's level, the decision and its cost.
    j["ci_alpha"] = r.ci_alpha ? Number(*r.ci_alpha) : Json(nullptr);
    j["decided"] = r.decided;
    j["blocks"] = r.blocks ? Json(*r.blocks) : Json(nullptr);
    j["seconds"] = r.seconds ? Number(*r.seconds) : Json(nullptr);
    rows.push_back(std::move(j));
  }
  root["metrics"] = std::move(rows);
  Json attributions = Json::array();
  for (const Attribution& a : c.attributions) {
    Json items = Json::array();
    for (const AttributionItem& item : a.items) {
      items.push_back({{"kind", internal::AttributionItemKindName(item.kind)},
                       {"label", item.label},
                       {"metric", item.key ? Json(MetricLabel(*item.key)) : Json(nullptr)},
                       {"delta", Number(item.delta)},
                       {"share", Number(item.share)}});
    }
    attributions.push_back({{"model", a.model},
                            {"block", a.block},
                            {"unit", a.unit},
                            {"baseline_execute", Number(a.baseline_execute)},
                            {"candidate_execute", Number(a.candidate_execute)},
                            {"delta", Number(a.delta)},
                            {"items", std::move(items)}});
  }
  root["attribution"] = std::move(attributions);
  Json changes = Json::array();
  for (const StructureChange& s : c.structure_changes) {
    changes.push_back({{"kind", StructureChangeKindName(s.kind)},
                       {"model", s.model},
                       {"block", s.block},
                       {"baseline", s.baseline_key ? KeyJson(*s.baseline_key) : Json(nullptr)},
                       {"candidate", s.candidate_key ? KeyJson(*s.candidate_key) : Json(nullptr)}});
  }
  root["structure_changes"] = std::move(changes);
  return root.dump(indent, ' ', false, Json::error_handler_t::replace);
}

}  // namespace etbench
