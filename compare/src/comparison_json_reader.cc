// Comparison JSON (schema_version 1) → Comparison.

#include "etbench/compare/comparison_json_reader.h"

#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "etbench/compare/comparison_json.h"
#include "etbench/compare/metric_set_json.h"
#include "etbench/compare/comparison_json.h"
#include "etbench/compare/metric_set_json.h"
#include "etbench/base/input_file.h"

#include "attribution_kind_name.h"

namespace etbench {
namespace {

using Json = nlohmann::json;

// Thrown inside the reader only; turned into an Error at the boundary.
struct ParseFailure {
  std::string path;
  std::string what;
};

[[noreturn]] void Fail(const std::string& path, const std::string& what) {
  throw ParseFailure{path, what};
}

const Json& Member(const Json& object, const std::string& key, const std::string& path) {
  if (!object.is_object()) Fail(path, "expected an object");
  auto it = object.find(key);
  if (it == object.end()) Fail(path.empty() ? key : path + "." + key, "missing");
  return *it;
}

std::string Child(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

std::string String(const Json& object, const std::string& key, const std::string& path) {
  const Json& v = Member(object, key, path);
  if (!v.is_string()) Fail(Child(path, key), "expected a string");
  return v.get<std::string>();
}

bool Bool(const Json& object, const std::string& key, const std::string& path) {
  const Json& v = Member(object, key, path);
  if (!v.is_boolean()) Fail(Child(path, key), "expected true or false");
  return v.get<bool>();
}

// null (not computed) reads back as NaN.
double NumberValue(const Json& v, const std::string& path) {
  if (v.is_null()) return std::numeric_limits<double>::quiet_NaN();
  if (!v.is_number()) Fail(path, "expected a number or null");
  return v.get<double>();
}

double Number(const Json& object, const std::string& key, const std::string& path) {
  return NumberValue(Member(object, key, path), Child(path, key));
}

template <typename T>
T Integer(const Json& object, const std::string& key, const std::string& path) {
  const Json& v = Member(object, key, path);
  if (!v.is_number_integer()) Fail(Child(path, key), "expected an integer");
  if (v.is_number_unsigned()) return static_cast<T>(v.get<uint64_t>());
  const int64_t value = v.get<int64_t>();
  if (std::is_unsigned<T>::value && value < 0) Fail(Child(path, key), "expected a non-negative integer");
  return static_cast<T>(value);
}

// The enumerator whose name (by `name_of`) is the member's string.
template <typename E, std::size_t N>
E Enum(const Json& object, const std::string& key, const std::string& path, const E (&values)[N],
       const char* (*name_of)(E)) {
  const std::string text = String(object, key, path);
  std::string accepted;
  for (E value : values) {
    if (text == name_of(value)) return value;
    accepted += (accepted.empty() ? "" : ", ") + std::string(name_of(value));
  }
  Fail(Child(path, key), "unknown value '" + text + "' (expected " + accepted + ")");
}

const char* StatisticNameOf(Statistic s) { return StatisticName(s); }
const char* VerdictNameOf(Verdict v) { return VerdictName(v); }
const char* DirectionNameOf(Direction d) { return DirectionName(d); }
const char* KindNameOf(MetricKind k) { return MetricKindName(k); }
const char* OutcomeNameOf(GateOutcome o) { return GateOutcomeName(o); }
const char* ChangeKindNameOf(StructureChange::Kind k) { return StructureChangeKindName(k); }
const char* ScaleNameOf(ChangeScale s) {
  return s == ChangeScale::kRelative ? "relative" : "absolute";
}
constexpr Statistic kStatistics[] = {Statistic::kP10, Statistic::kP50, Statistic::kP90,
                                     Statistic::kAvg, Statistic::kMin, Statistic::kMax};
constexpr Verdict kVerdicts[] = {Verdict::kRegression, Verdict::kImprovement,
                                 Verdict::kUnchanged, Verdict::kInconclusive};
constexpr Direction kDirections[] = {Direction::kIncrease, Direction::kDecrease,
                                     Direction::kBoth};
constexpr MetricKind kKinds[] = {MetricKind::kEvent, MetricKind::kFrameworkTax,
                                 MetricKind::kAllocation, MetricKind::kBenchmark};
constexpr GateOutcome kOutcomes[] = {GateOutcome::kPass, GateOutcome::kRegression,
                                     GateOutcome::kInconclusive};
constexpr StructureChange::Kind kChangeKinds[] = {StructureChange::Kind::kAdded,
                                                  StructureChange::Kind::kRemoved,
                                                  StructureChange::Kind::kRenamed};
constexpr ChangeScale kScales[] = {ChangeScale::kRelative, ChangeScale::kAbsolute};
constexpr AttributionItem::Kind kItemKinds[] = {
    AttributionItem::Kind::kKernel, AttributionItem::Kind::kDelegate,
    AttributionItem::Kind::kFrameworkOverhead, AttributionItem::Kind::kAdded,
    AttributionItem::Kind::kRemoved};

// Members added within schema_version 1 are optional on reading (older
// files lack them); `fallback` is the value the engine had before them.
bool OptionalBool(const Json& object, const std::string& key, const std::string& path,
                  bool fallback) {
  return object.contains(key) ? Bool(object, key, path) : fallback;
}

const Json& Array(const Json& object, const std::string& key, const std::string& path) {
  const Json& v = Member(object, key, path);
  if (!v.is_array()) Fail(Child(path, key), "expected an array");
  return v;
}

MetricKey ReadKey(const Json& j, const std::string& path) {
  MetricKey key;
  key.model = String(j, "model", path);
  key.block = String(j, "block", path);
  key.kind = Enum(j, "kind", path, kKinds, KindNameOf);
  key.name = String(j, "name", path);
  if (!Member(j, "instruction_id", path).is_null()) {
    key.instruction_id = Integer<int32_t>(j, "instruction_id", path);
  }
  key.delegate_id = String(j, "delegate_id", path);
  key.occurrence = Integer<int32_t>(j, "occurrence", path);
  return key;
}

std::map<std::string, std::string> StringMap(const Json& object, const std::string& key,
                                             const std::string& path) {
  const Json& v = Member(object, key, path);
  if (!v.is_object()) Fail(Child(path, key), "expected an object");
  std::map<std::string, std::string> out;
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (!it->is_string()) Fail(Child(Child(path, key), it.key()), "expected a string");
    out[it.key()] = it->get<std::string>();
  }
  return out;
}

// Best effort inverse of MetricLabel for labels that match no known key:
// "model/block/[allocator:]name[#id][[delegate D]][ (occurrence N)]".
MetricKey KeyFromLabel(std::string label) {
  MetricKey key;
  const std::string occurrence = " (occurrence ";
  if (label.size() > occurrence.size() && label.back() == ')') {
    const std::size_t at = label.rfind(occurrence);
    if (at != std::string::npos) {
      key.occurrence = std::atoi(label.c_str() + at + occurrence.size());
      label.erase(at);
    }
  }
  const std::string delegate = "[delegate ";
  if (!label.empty() && label.back() == ']') {
    const std::size_t at = label.rfind(delegate);
    if (at != std::string::npos) {
      key.delegate_id = label.substr(at + delegate.size(), label.size() - at - delegate.size() - 1);
      label.erase(at);
    }
  }
  const std::size_t hash = label.rfind('#');
  if (hash != std::string::npos && hash + 1 < label.size() &&
      label.find_first_not_of("-0123456789", hash + 1) == std::string::npos) {
    key.instruction_id = std::atoi(label.c_str() + hash + 1);
    label.erase(hash);
  }
  const std::size_t first = label.find('/');
  const std::size_t second = first == std::string::npos ? first : label.find('/', first + 1);
  if (second != std::string::npos) {
    key.model = label.substr(0, first);
    key.block = label.substr(first + 1, second - first - 1);
    key.name = label.substr(second + 1);
  } else if (first != std::string::npos) {
    key.model = label.substr(0, first);
    key.name = label.substr(first + 1);
  } else {
    key.name = label;
  }
  const std::string allocator = "allocator:";
  if (key.name.rfind(allocator, 0) == 0) {
    key.kind = MetricKind::kAllocation;
    key.name.erase(0, allocator.size());
  }
  if (key.delegate_id.empty() && key.kind == MetricKind::kEvent && !key.name.empty() &&
      key.name.find_first_not_of("0123456789") == std::string::npos) {
    // Delegated events are named by their (integer) delegate id.
    key.delegate_id = key.name;
  }
  return key;
}

MetricComparison ReadRow(const Json& j, const std::string& path) {
  MetricComparison r;
  r.key = ReadKey(j, path);
  r.label = String(j, "label", path);
  r.unit = String(j, "unit", path);
  r.end_to_end = Bool(j, "end_to_end", path);
  r.statistic = Enum(j, "statistic", path, kStatistics, StatisticNameOf);
  r.n_baseline = Integer<std::size_t>(j, "n_baseline", path);
  r.n_candidate = Integer<std::size_t>(j, "n_candidate", path);
  r.baseline_value = Number(j, "baseline", path);
  r.candidate_value = Number(j, "candidate", path);
  r.delta = Number(j, "delta", path);
  r.scale = Enum(j, "scale", path, kScales, ScaleNameOf);
  r.change = Number(j, "change", path);
  const Json& ci = Array(j, "ci", path);
  if (ci.size() != 2) Fail(Child(path, "ci"), "expected [low, high]");
  r.ci_low = NumberValue(ci[0], Child(path, "ci[0]"));
  r.ci_high = NumberValue(ci[1], Child(path, "ci[1]"));
  r.p_value = Number(j, "p_value", path);
  if (!Member(j, "p_adjusted", path).is_null()) r.p_adjusted = Number(j, "p_adjusted", path);
  r.level = Number(j, "level", path);
  if (j.contains("fdr_weight") && !j["fdr_weight"].is_null()) {
    r.fdr_weight = Number(j, "fdr_weight", path);
  }
  r.threshold_protected = OptionalBool(j, "threshold_protected", path, false);
  r.prob_superiority = Number(j, "prob_superiority", path);
  if (j.contains("design_effect")) r.design_effect = Number(j, "design_effect", path);
  if (j.contains("test")) r.test = String(j, "test", path);
  if (j.contains("repetition_correlation")) {
    r.repetition_correlation = Number(j, "repetition_correlation", path);
  }
  if (j.contains("session_correlation")) {
    r.session_correlation = Number(j, "session_correlation", path);
  }
  r.threshold = Number(j, "threshold", path);
  r.mde = Number(j, "mde", path);
  if (!Member(j, "iterations_needed", path).is_null()) {
    r.iterations_needed = Integer<int64_t>(j, "iterations_needed", path);
  }
  r.verdict = Enum(j, "verdict", path, kVerdicts, VerdictNameOf);
  r.reason = String(j, "reason", path);
  r.rule = String(j, "rule", path);
  r.direction = Enum(j, "direction", path, kDirections, DirectionNameOf);
  r.gated = Bool(j, "gated", path);
  // The interval's level and the sequential decision (optional: older files).
  if (j.contains("ci_alpha") && !j["ci_alpha"].is_null()) r.ci_alpha = Number(j, "ci_alpha", path);
  r.decided = OptionalBool(j, "decided", path, false);
  if (j.contains("blocks") && !j["blocks"].is_null()) {
    r.blocks = Integer<std::size_t>(j, "blocks", path);
  }
  if (j.contains("seconds") && !j["seconds"].is_null()) r.seconds = Number(j, "seconds", path);
  return r;
}

Comparison ReadComparison(const Json& root) {
  if (!root.is_object()) Fail("", "expected a JSON object");
  const Json& version = Member(root, "schema_version", "");
  if (!version.is_number_integer()) Fail("schema_version", "expected an integer");
  if (version.get<int64_t>() != kComparisonSchemaVersion) {
    Fail("schema_version", "unsupported schema_version " +
                               version.dump(-1, ' ', false, Json::error_handler_t::replace) +
                               " (this etbench reads " +
                               std::to_string(kComparisonSchemaVersion) + ")");
  }
  Comparison c;
  c.outcome = Enum(root, "outcome", "", kOutcomes, OutcomeNameOf);
  const Json& counts = Member(root, "counts", "");
  c.counts.regressions = Integer<std::size_t>(counts, "regressions", "counts");
  c.counts.improvements = Integer<std::size_t>(counts, "improvements", "counts");
  c.counts.unchanged = Integer<std::size_t>(counts, "unchanged", "counts");
  c.counts.inconclusive = Integer<std::size_t>(counts, "inconclusive", "counts");
  const Json& s = Member(root, "settings", "");
  c.settings.fdr = Number(s, "fdr", "settings");
  c.settings.noise_aware_fdr = OptionalBool(s, "noise_aware_fdr", "settings", false);
  c.settings.alpha = Number(s, "alpha", "settings");
  c.settings.confidence = Number(s, "confidence", "settings");
  c.settings.bootstrap_resamples = Integer<int>(s, "bootstrap_resamples", "settings");
  c.settings.min_samples = Integer<int>(s, "min_samples", "settings");
  c.settings.power = Number(s, "power", "settings");
  c.settings.seed = Integer<uint64_t>(s, "seed", "settings");
  c.settings.family_size = Integer<std::size_t>(s, "family_size", "settings");
  if (s.contains("threshold_protected")) {
    c.settings.threshold_protected = Integer<std::size_t>(s, "threshold_protected", "settings");
  }
  c.settings.thresholds_source = String(s, "thresholds_source", "settings");
  c.baseline_context = StringMap(root, "baseline_context", "");
  c.candidate_context = StringMap(root, "candidate_context", "");
  const Json& warnings = Array(root, "warnings", "");
  for (std::size_t i = 0; i < warnings.size(); ++i) {
    if (!warnings[i].is_string()) Fail("warnings[" + std::to_string(i) + "]", "expected a string");
    c.warnings.push_back(warnings[i].get<std::string>());
  }
  const Json& metrics = Array(root, "metrics", "");
  for (std::size_t i = 0; i < metrics.size(); ++i) {
    c.rows.push_back(ReadRow(metrics[i], "metrics[" + std::to_string(i) + "]"));
  }
  const Json& changes = Array(root, "structure_changes", "");
  for (std::size_t i = 0; i < changes.size(); ++i) {
    const std::string path = "structure_changes[" + std::to_string(i) + "]";
    StructureChange change;
    change.kind = Enum(changes[i], "kind", path, kChangeKinds, ChangeKindNameOf);
    change.model = String(changes[i], "model", path);
    change.block = String(changes[i], "block", path);
    for (const char* side : {"baseline", "candidate"}) {
      const Json& key = Member(changes[i], side, path);
      if (key.is_null()) continue;
      (side[0] == 'b' ? change.baseline_key : change.candidate_key) = ReadKey(key, Child(path, side));
    }
    c.structure_changes.push_back(std::move(change));
  }
  // Attribution items name their metric by label.
  std::map<std::string, MetricKey> keys_by_label;
  for (const MetricComparison& r : c.rows) keys_by_label.emplace(MetricLabel(r.key), r.key);
  for (const StructureChange& change : c.structure_changes) {
    for (const auto& key : {change.baseline_key, change.candidate_key}) {
      if (key) keys_by_label.emplace(MetricLabel(*key), *key);
    }
  }
  const Json& attributions = Array(root, "attribution", "");
  for (std::size_t i = 0; i < attributions.size(); ++i) {
    const std::string path = "attribution[" + std::to_string(i) + "]";
    const Json& j = attributions[i];
    Attribution a;
    a.model = String(j, "model", path);
    a.block = String(j, "block", path);
    a.unit = String(j, "unit", path);
    a.baseline_execute = Number(j, "baseline_execute", path);
    a.candidate_execute = Number(j, "candidate_execute", path);
    a.delta = Number(j, "delta", path);
    const Json& items = Array(j, "items", path);
    for (std::size_t k = 0; k < items.size(); ++k) {
      const std::string item_path = path + ".items[" + std::to_string(k) + "]";
      AttributionItem item;
      item.kind = Enum(items[k], "kind", item_path, kItemKinds, internal::AttributionItemKindName);
      item.label = String(items[k], "label", item_path);
      const Json& metric = Member(items[k], "metric", item_path);
      if (!metric.is_null()) {
        if (!metric.is_string()) Fail(Child(item_path, "metric"), "expected a string or null");
        const std::string label = metric.get<std::string>();
        auto known = keys_by_label.find(label);
        item.key = known != keys_by_label.end() ? known->second : KeyFromLabel(label);
      }
      item.delta = Number(items[k], "delta", item_path);
      item.share = Number(items[k], "share", item_path);
      a.items.push_back(std::move(item));
    }
    c.attributions.push_back(std::move(a));
  }
  return c;
}

}  // namespace

Result<Comparison> ParseComparisonJson(const std::string& json, const std::string& source_name) {
  Json root;
  try {
    root = Json::parse(json);
  } catch (const Json::parse_error& e) {
    return InputError(source_name + ": not valid JSON at byte " + std::to_string(e.byte) + ": " +
                      e.what());
  } catch (const Json::exception& e) {
    // out_of_range.406: a number such as 1e999 that no double holds.
    return InputError(source_name + ": not valid JSON: " + e.what());
  }
  try {
    return ReadComparison(root);
  } catch (const ParseFailure& f) {
    return InputError(source_name + ": " + (f.path.empty() ? "" : f.path + ": ") + f.what);
  } catch (const Json::exception& e) {
    return InputError(source_name + ": " + e.what());
  }
}

Result<Comparison> ReadComparisonFile(const std::string& path) {
  auto text = ReadTextFile(path);
  if (!text.ok()) return text.error();
  return ParseComparisonJson(*text, path);
}

}  // namespace etbench
