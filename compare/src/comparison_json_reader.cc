// Comparison JSON (schema_version 1) → Comparison.

#include "etbench/compare/comparison_json_reader.h"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>

#include "etbench/base/disk.h"
#include "etbench/base/json_reader.h"
#include "etbench/base/parse_number.h"
#include "etbench/compare/comparison_json.h"
#include "etbench/compare/metric_set_json.h"

#include "attribution_kind_name.h"

namespace etbench {
namespace {

// Typed reads of one comparison file; the first error wins (JsonErrors).
// Members a reader needs must be present; null reads as NaN for numbers.
class Reader {
 public:
  const JsonErrors& errors() const { return errors_; }

  JsonValue Present(const JsonValue& v) { return errors_.Take(v.Required()); }
  JsonValue Array(const JsonValue& v) { return errors_.Take(v.Array()); }
  std::string String(const JsonValue& v) { return errors_.Take(v.String()); }
  bool Bool(const JsonValue& v) { return errors_.Take(v.Bool()); }
  // null (not computed) reads back as NaN.
  double Number(const JsonValue& v) {
    return errors_.Take(v.NumberOrNaN(), std::numeric_limits<double>::quiet_NaN());
  }
  template <typename T>
  T Integer(const JsonValue& v) {
    if constexpr (std::is_unsigned_v<T>) {
      const uint64_t value = errors_.Take(v.Uint());
      if (value > std::numeric_limits<T>::max()) errors_.Fail(v, "integer too large");
      return static_cast<T>(value);
    } else {
      return static_cast<T>(
          errors_.Take(v.Int(std::numeric_limits<T>::min(), std::numeric_limits<T>::max())));
    }
  }
  // Members added within schema_version 1 are optional on reading (older
  // files lack them); `fallback` is the value the engine had before them.
  bool OptionalBool(const JsonValue& v, bool fallback) {
    return v.present() ? Bool(v) : fallback;
  }
  // The enumerator whose name (by `name_of`) is the value's string.
  template <typename E, std::size_t N>
  E Enum(const JsonValue& v, const E (&values)[N], const char* (*name_of)(E)) {
    const std::string text = String(v);
    std::string accepted;
    for (E value : values) {
      if (text == name_of(value)) return value;
      accepted += (accepted.empty() ? "" : ", ") + std::string(name_of(value));
    }
    if (errors_.ok()) {
      errors_.Fail(v, "unknown value '" + text + "' (expected " + accepted + ")");
    }
    return values[0];
  }
  void Fail(const JsonValue& v, const std::string& what) { errors_.Fail(v, what); }

 private:
  JsonErrors errors_;
};

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

MetricKey ReadKey(Reader& r, const JsonValue& j) {
  MetricKey key;
  key.model = r.String(j.Get("model"));
  key.block = r.String(j.Get("block"));
  key.kind = r.Enum(j.Get("kind"), kKinds, KindNameOf);
  key.name = r.String(j.Get("name"));
  const JsonValue id = r.Present(j.Get("instruction_id"));
  if (!id.is_null()) key.instruction_id = r.Integer<int32_t>(id);
  key.delegate_id = r.String(j.Get("delegate_id"));
  key.occurrence = r.Integer<int32_t>(j.Get("occurrence"));
  return key;
}

std::map<std::string, std::string> StringMap(Reader& r, const JsonValue& v) {
  std::map<std::string, std::string> out;
  r.Present(v);
  if (v.present() && !v.is_object()) r.Fail(v, "expected an object");
  for (const JsonValue item : v) out[std::string(item.key())] = r.String(item);
  return out;
}

// Best effort inverse of MetricLabel for labels that match no known key:
// "model/block/[allocator:]name[#id][[delegate D]][ (occurrence N)]".
MetricKey KeyFromLabel(std::string label) {
  MetricKey key;
  const std::string occurrence = " (occurrence ";
  if (label.size() > occurrence.size() && label.back() == ')') {
    const std::size_t at = label.rfind(occurrence);
    const std::optional<int64_t> n =
        at == std::string::npos
            ? std::nullopt
            : ParseInteger(std::string_view(label).substr(at + occurrence.size(),
                                                         label.size() - 1 - at - occurrence.size()),
                           0, std::numeric_limits<int32_t>::max());
    if (n) {
      key.occurrence = static_cast<int32_t>(*n);
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
  const std::optional<int64_t> id =
      hash == std::string::npos
          ? std::nullopt
          : ParseInteger(std::string_view(label).substr(hash + 1),
                         std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
  if (id) {
    key.instruction_id = static_cast<int32_t>(*id);
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

MetricComparison ReadRow(Reader& rd, const JsonValue& j) {
  MetricComparison r;
  r.key = ReadKey(rd, j);
  r.label = rd.String(j.Get("label"));
  r.unit = rd.String(j.Get("unit"));
  r.end_to_end = rd.Bool(j.Get("end_to_end"));
  r.statistic = rd.Enum(j.Get("statistic"), kStatistics, StatisticNameOf);
  r.n_baseline = rd.Integer<std::size_t>(j.Get("n_baseline"));
  r.n_candidate = rd.Integer<std::size_t>(j.Get("n_candidate"));
  r.baseline_value = rd.Number(j.Get("baseline"));
  r.candidate_value = rd.Number(j.Get("candidate"));
  r.delta = rd.Number(j.Get("delta"));
  r.scale = rd.Enum(j.Get("scale"), kScales, ScaleNameOf);
  r.change = rd.Number(j.Get("change"));
  const JsonValue ci = rd.Array(j.Get("ci"));
  if (ci.is_array() && ci.size() != 2) rd.Fail(ci, "expected [low, high]");
  r.ci_low = rd.Number(ci[0]);
  r.ci_high = rd.Number(ci[1]);
  r.p_value = rd.Number(j.Get("p_value"));
  if (!rd.Present(j.Get("p_adjusted")).is_null()) r.p_adjusted = rd.Number(j.Get("p_adjusted"));
  r.level = rd.Number(j.Get("level"));
  // Optional members (older files lack them).
  const auto present = [&j](const char* key) {
    return j.Get(key).present() && !j.Get(key).is_null();
  };
  if (present("fdr_weight")) r.fdr_weight = rd.Number(j.Get("fdr_weight"));
  r.threshold_protected = rd.OptionalBool(j.Get("threshold_protected"), false);
  r.prob_superiority = rd.Number(j.Get("prob_superiority"));
  if (j.Has("design_effect")) r.design_effect = rd.Number(j.Get("design_effect"));
  if (j.Has("test")) r.test = rd.String(j.Get("test"));
  if (j.Has("repetition_correlation")) {
    r.repetition_correlation = rd.Number(j.Get("repetition_correlation"));
  }
  if (j.Has("session_correlation")) r.session_correlation = rd.Number(j.Get("session_correlation"));
  r.threshold = rd.Number(j.Get("threshold"));
  r.mde = rd.Number(j.Get("mde"));
  if (!rd.Present(j.Get("iterations_needed")).is_null()) {
    r.iterations_needed = rd.Integer<int64_t>(j.Get("iterations_needed"));
  }
  r.verdict = rd.Enum(j.Get("verdict"), kVerdicts, VerdictNameOf);
  // The words as written: a stored comparison has no notes to word again.
  r.notes = {StoredReasonNote{rd.String(j.Get("reason")),
                              rd.OptionalBool(j.Get("not_counted"), false)}};
  r.rule = rd.String(j.Get("rule"));
  r.direction = rd.Enum(j.Get("direction"), kDirections, DirectionNameOf);
  r.gated = rd.Bool(j.Get("gated"));
  // The interval's level and the sequential decision (optional: older files).
  if (present("ci_alpha")) r.ci_alpha = rd.Number(j.Get("ci_alpha"));
  r.decided = rd.OptionalBool(j.Get("decided"), false);
  if (present("blocks")) r.blocks = rd.Integer<std::size_t>(j.Get("blocks"));
  if (present("seconds")) r.seconds = rd.Number(j.Get("seconds"));
  return r;
}

Comparison ReadComparison(Reader& r, const JsonValue& root) {
  Comparison c;
  if (!root.is_object()) {
    r.Fail(root, "expected a JSON object");
    return c;
  }
  const JsonValue version = root.Get("schema_version");
  if (r.Integer<int64_t>(version) != kComparisonSchemaVersion && r.errors().ok()) {
    r.Fail(version, "unsupported schema_version " + version.Dump() + " (this etbench reads " +
                        std::to_string(kComparisonSchemaVersion) + ")");
  }
  if (!r.errors().ok()) return c;
  c.outcome = r.Enum(root.Get("outcome"), kOutcomes, OutcomeNameOf);
  const JsonValue counts = r.Present(root.Get("counts"));
  c.counts.regressions = r.Integer<std::size_t>(counts.Get("regressions"));
  c.counts.improvements = r.Integer<std::size_t>(counts.Get("improvements"));
  c.counts.unchanged = r.Integer<std::size_t>(counts.Get("unchanged"));
  c.counts.inconclusive = r.Integer<std::size_t>(counts.Get("inconclusive"));
  const JsonValue s = r.Present(root.Get("settings"));
  c.settings.fdr = r.Number(s.Get("fdr"));
  c.settings.noise_aware_fdr = r.OptionalBool(s.Get("noise_aware_fdr"), false);
  c.settings.alpha = r.Number(s.Get("alpha"));
  c.settings.confidence = r.Number(s.Get("confidence"));
  c.settings.bootstrap_resamples = r.Integer<int>(s.Get("bootstrap_resamples"));
  c.settings.min_samples = r.Integer<int>(s.Get("min_samples"));
  c.settings.power = r.Number(s.Get("power"));
  c.settings.seed = r.Integer<uint64_t>(s.Get("seed"));
  c.settings.family_size = r.Integer<std::size_t>(s.Get("family_size"));
  if (s.Has("threshold_protected")) {
    c.settings.threshold_protected = r.Integer<std::size_t>(s.Get("threshold_protected"));
  }
  c.settings.thresholds_source = r.String(s.Get("thresholds_source"));
  c.baseline_context = StringMap(r, root.Get("baseline_context"));
  c.candidate_context = StringMap(r, root.Get("candidate_context"));
  for (const JsonValue warning : r.Array(root.Get("warnings"))) {
    c.warnings.push_back(TextWarning{r.String(warning)});
  }
  // Optional (files before it, and judged nights: null).
  if (const JsonValue nj = root.Get("not_judged"); nj.present() && !nj.is_null()) {
    NotJudged not_judged;
    not_judged.reason = r.String(nj.Get("reason"));
    not_judged.nights = r.Integer<std::size_t>(nj.Get("nights"));
    not_judged.nights_needed = r.Integer<std::size_t>(nj.Get("nights_needed"));
    not_judged.message = r.String(nj.Get("message"));
    c.not_judged = std::move(not_judged);
  }
  for (const JsonValue row : r.Array(root.Get("metrics"))) c.rows.push_back(ReadRow(r, row));
  for (const JsonValue j : r.Array(root.Get("structure_changes"))) {
    StructureChange change;
    change.kind = r.Enum(j.Get("kind"), kChangeKinds, ChangeKindNameOf);
    change.model = r.String(j.Get("model"));
    change.block = r.String(j.Get("block"));
    for (const char* side : {"baseline", "candidate"}) {
      const JsonValue key = r.Present(j.Get(side));
      if (key.is_null() || !key.present()) continue;
      (side[0] == 'b' ? change.baseline_key : change.candidate_key) = ReadKey(r, key);
    }
    c.structure_changes.push_back(std::move(change));
  }
  // Attribution items name their metric by label.
  std::map<std::string, MetricKey> keys_by_label;
  for (const MetricComparison& row : c.rows) keys_by_label.emplace(MetricLabel(row.key), row.key);
  for (const StructureChange& change : c.structure_changes) {
    for (const auto& key : {change.baseline_key, change.candidate_key}) {
      if (key) keys_by_label.emplace(MetricLabel(*key), *key);
    }
  }
  for (const JsonValue j : r.Array(root.Get("attribution"))) {
    Attribution a;
    a.model = r.String(j.Get("model"));
    a.block = r.String(j.Get("block"));
    a.unit = r.String(j.Get("unit"));
    a.baseline_execute = r.Number(j.Get("baseline_execute"));
    a.candidate_execute = r.Number(j.Get("candidate_execute"));
    a.delta = r.Number(j.Get("delta"));
    // Optional (older files): the medians.
    if (j.Has("statistic")) a.statistic = r.Enum(j.Get("statistic"), kStatistics, StatisticNameOf);
    for (const JsonValue item_json : r.Array(j.Get("items"))) {
      AttributionItem item;
      item.kind = r.Enum(item_json.Get("kind"), kItemKinds, internal::AttributionItemKindName);
      item.label = r.String(item_json.Get("label"));
      const JsonValue metric = r.Present(item_json.Get("metric"));
      if (metric.present() && !metric.is_null()) {
        if (!metric.is_string()) r.Fail(metric, "expected a string or null");
        const std::string label = r.String(metric);
        auto known = keys_by_label.find(label);
        item.key = known != keys_by_label.end() ? known->second : KeyFromLabel(label);
      }
      item.delta = r.Number(item_json.Get("delta"));
      item.share = r.Number(item_json.Get("share"));
      a.items.push_back(std::move(item));
    }
    c.attributions.push_back(std::move(a));
  }
  return c;
}

}  // namespace

Result<Comparison> ParseComparisonJson(const std::string& json, const std::string& source_name) {
  JsonParseOptions options;
  options.root_path = "";  // paths read "metrics[3].verdict"
  JsonSyntaxError syntax;
  auto doc = ParseJson(json, source_name, options, &syntax);
  if (!doc.ok()) {
    return InputError(source_name + ": not valid JSON at byte " + std::to_string(syntax.offset) +
                      ": " + syntax.Describe());
  }
  Reader reader;
  Comparison comparison = ReadComparison(reader, doc->root());
  if (!reader.errors().ok()) return reader.errors().error();
  return comparison;
}

Result<Comparison> ReadComparisonFile(const std::string& path, Disk& disk) {
  auto text = disk.ReadText(path);
  if (!text.ok()) return text.error();
  return ParseComparisonJson(*text, path);
}

}  // namespace etbench
