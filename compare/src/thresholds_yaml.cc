// Thresholds YAML → Thresholds, with file:line:column errors.

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "etbench/base/yaml_reader.h"
#include "etbench/compare/thresholds.h"
#include "etbench/base/disk.h"

namespace etbench {
namespace {

class Parser {
 public:
  explicit Parser(std::string source) : yaml_(std::move(source)) {}

  Error At(const YAML::Node& node, const std::string& what) const {
    return yaml_.ErrorAt(node, what);
  }

  Status ExpectMap(const YAML::Node& node, const std::string& what) const {
    if (!node.IsMap()) return At(node, what + " must be a mapping");
    return Ok{};
  }

  // Every key must be one of `allowed`, and appear once.
  Status CheckKeys(const YAML::Node& map, const std::set<std::string>& allowed,
                   const std::string& where) const {
    std::set<std::string> seen;
    for (const auto& entry : map) {
      const std::string key = entry.first.as<std::string>();
      if (allowed.count(key)) {
        if (!seen.insert(key).second) {
          return At(entry.first, "duplicate key '" + key + "' in " + where);
        }
        continue;
      }
      std::string list;
      for (const std::string& k : allowed) list += (list.empty() ? "" : ", ") + k;
      return At(entry.first, "unknown key '" + key + "' in " + where + " (expected one of: " +
                                 list + ")");
    }
    return Ok{};
  }

  Result<std::string> Scalar(const YAML::Node& node, const std::string& key) const {
    if (!node.IsScalar()) return At(node, "'" + key + "' must be a scalar");
    return node.Scalar();
  }

  Result<double> Number(const YAML::Node& node, const std::string& key) const {
    auto text = Scalar(node, key);
    if (!text.ok()) return text.error();
    const char* begin = text->c_str();
    char* end = nullptr;
    const double value = std::strtod(begin, &end);
    if (end == begin || *end != '\0' || !std::isfinite(value)) {
      return At(node, "'" + key + "' must be a number, got '" + *text + "'");
    }
    return value;
  }

  // "5%" → 0.05. The '%' is required so that 5 and 0.05 cannot be confused.
  Result<double> Percentage(const YAML::Node& node, const std::string& key, double max) const {
    auto text = Scalar(node, key);
    if (!text.ok()) return text.error();
    const std::string& s = *text;
    if (s.empty() || s.back() != '%') {
      return At(node, "'" + key + "' must be a percentage like 5%, got '" + s + "'");
    }
    const std::string number = s.substr(0, s.size() - 1);
    const char* begin = number.c_str();
    char* end = nullptr;
    const double value = std::strtod(begin, &end);
    if (end == begin || *end != '\0' || !std::isfinite(value)) {
      return At(node, "'" + key + "' must be a percentage like 5%, got '" + s + "'");
    }
    if (value < 0 || value > max * 100) {
      return At(node, "'" + key + "' must be between 0% and " +
                          std::to_string(static_cast<int>(max * 100)) + "%, got '" + s + "'");
    }
    return value / 100;
  }

  // A probability: "1%" or 0.01, strictly between 0 and 1.
  Result<double> Probability(const YAML::Node& node, const std::string& key) const {
    auto text = Scalar(node, key);
    if (!text.ok()) return text.error();
    Result<double> value = (!text->empty() && text->back() == '%') ? Percentage(node, key, 1)
                                                                    : Number(node, key);
    if (!value.ok()) return value.error();
    if (!(*value > 0 && *value < 1)) {
      return At(node, "'" + key + "' must be strictly between 0 and 1 (or 0% and 100%), got '" +
                          *text + "'");
    }
    return value;
  }

  Result<int> Integer(const YAML::Node& node, const std::string& key, int min, int max) const {
    auto value = Number(node, key);
    if (!value.ok()) return value.error();
    if (*value != std::floor(*value) || *value < min || *value > max) {
      return At(node, "'" + key + "' must be an integer from " + std::to_string(min) + " to " +
                          std::to_string(max));
    }
    return static_cast<int>(*value);
  }

  Result<bool> Bool(const YAML::Node& node, const std::string& key) const {
    auto text = Scalar(node, key);
    if (!text.ok()) return text.error();
    if (*text == "true") return true;
    if (*text == "false") return false;
    return At(node, "'" + key + "' must be true or false, got '" + *text + "'");
  }

  Result<std::vector<Statistic>> Statistics(const YAML::Node& node) const {
    if (!node.IsSequence() || node.size() == 0) {
      return At(node, "'statistics' must be a non-empty list, e.g. [p50]");
    }
    std::vector<Statistic> out;
    for (const auto& item : node) {
      auto text = Scalar(item, "statistics");
      if (!text.ok()) return text.error();
      auto statistic = ParseStatistic(*text);
      if (!statistic) {
        return At(item, "unknown statistic '" + *text + "' (known: p10, p50, p90, avg, min, max)");
      }
      out.push_back(*statistic);
    }
    return out;
  }

  Result<Direction> ParseDirection(const YAML::Node& node) const {
    auto text = Scalar(node, "direction");
    if (!text.ok()) return text.error();
    for (Direction d : {Direction::kIncrease, Direction::kDecrease, Direction::kBoth}) {
      if (*text == DirectionName(d)) return d;
    }
    return At(node, "unknown direction '" + *text + "' (known: increase, decrease, both)");
  }

  Result<MetricKind> Kind(const YAML::Node& node) const {
    auto text = Scalar(node, "kind");
    if (!text.ok()) return text.error();
    if (*text == "event") return MetricKind::kEvent;
    if (*text == "framework_tax") return MetricKind::kFrameworkTax;
    if (*text == "allocation") return MetricKind::kAllocation;
    if (*text == "benchmark") return MetricKind::kBenchmark;
    return At(node, "unknown kind '" + *text +
                        "' (known: event, framework_tax, allocation, benchmark)");
  }

  Result<MinDelta> Delta(const YAML::Node& node) const {
    auto text = Scalar(node, "min_delta");
    if (!text.ok()) return text.error();
    auto delta = ParseMinDelta(*text);
    if (!delta.ok()) return At(node, delta.error().message);
    return delta;
  }

  // The keys shared by sections and rules, applied to `rule`.
  Status ApplyGateKeys(const YAML::Node& map, GateRule& rule) const {
    for (const auto& entry : map) {
      const std::string key = entry.first.as<std::string>();
      const YAML::Node& v = entry.second;
      if (key == "relative") {
        auto x = Percentage(v, key, 10);
        if (!x.ok()) return x.error();
        rule.relative = *x;
      } else if (key == "min_delta") {
        auto x = Delta(v);
        if (!x.ok()) return x.error();
        rule.min_delta = *x;
      } else if (key == "max_increase_pp") {
        auto x = Number(v, key);
        if (!x.ok()) return x.error();
        if (*x < 0) return At(v, "'max_increase_pp' must not be negative");
        rule.max_increase_pp = *x;
      } else if (key == "statistics") {
        auto x = Statistics(v);
        if (!x.ok()) return x.error();
        rule.statistics = *x;
      } else if (key == "direction") {
        auto x = ParseDirection(v);
        if (!x.ok()) return x.error();
        rule.direction = *x;
      } else if (key == "gate") {
        auto x = Bool(v, key);
        if (!x.ok()) return x.error();
        rule.gate = *x;
      }
    }
    return Ok{};
  }

  Status Section(const YAML::Node& node, const std::string& name, bool percentage_points,
                 GateRule& rule) const {
    if (auto s = ExpectMap(node, "'" + name + "'"); !s.ok()) return s;
    const std::set<std::string> keys =
        percentage_points
            ? std::set<std::string>{"max_increase_pp", "statistics", "direction", "gate"}
            : std::set<std::string>{"relative", "min_delta", "statistics", "direction", "gate"};
    if (auto s = CheckKeys(node, keys, "'" + name + "'"); !s.ok()) return s;
    return ApplyGateKeys(node, rule);
  }

  Result<ThresholdRule> Rule(const YAML::Node& node) const {
    if (auto s = ExpectMap(node, "a rule"); !s.ok()) return s.error();
    if (auto s = CheckKeys(node,
                           {"match", "model", "block", "kind", "relative", "min_delta",
                            "max_increase_pp", "statistics", "direction", "gate"},
                           "a rule");
        !s.ok()) {
      return s.error();
    }
    if (!node["match"]) return At(node, "a rule needs 'match' (a glob on the metric name)");
    ThresholdRule rule;
    rule.location = yaml_.Position(node);
    for (const char* key : {"match", "model", "block"}) {
      if (!node[key]) continue;
      auto text = Scalar(node[key], key);
      if (!text.ok()) return text.error();
      if (text->empty()) return At(node[key], std::string("'") + key + "' must not be empty");
      if (auto problem = GlobProblem(*text)) {
        return At(node[key],
                  std::string("'") + key + "': invalid glob '" + *text + "': " + *problem);
      }
      (std::string(key) == "match" ? rule.match
                                   : std::string(key) == "model" ? rule.model : rule.block) =
          *text;
    }
    if (node["kind"]) {
      auto kind = Kind(node["kind"]);
      if (!kind.ok()) return kind.error();
      rule.kind = *kind;
    }
    // Parse overrides through a scratch GateRule, keeping only the keys given.
    GateRule scratch;
    if (auto s = ApplyGateKeys(node, scratch); !s.ok()) return s.error();
    if (node["relative"]) rule.relative = scratch.relative;
    if (node["min_delta"]) rule.min_delta = scratch.min_delta;
    if (node["max_increase_pp"]) rule.max_increase_pp = scratch.max_increase_pp;
    if (node["statistics"]) rule.statistics = scratch.statistics;
    if (node["direction"]) rule.direction = scratch.direction;
    if (node["gate"]) rule.gate = scratch.gate;
    return rule;
  }

  Result<Thresholds> Parse(const YAML::Node& root) const {
    Thresholds t = DefaultThresholds();
    t.source = yaml_.source();
    if (root.IsNull()) return t;  // empty file: the defaults
    if (auto s = ExpectMap(root, "the thresholds file"); !s.ok()) return s.error();
    if (auto s = CheckKeys(root,
                           {"version", "fdr", "noise_aware_fdr", "alpha", "confidence", "bootstrap_resamples",
                            "min_samples", "power", "default", "end_to_end", "framework_tax",
                            "allocations", "rules"},
                           "the thresholds file");
        !s.ok()) {
      return s.error();
    }
    for (const auto& entry : root) {
      const std::string key = entry.first.as<std::string>();
      const YAML::Node& v = entry.second;
      Status status = Ok{};
      if (key == "version") {
        auto x = Integer(v, key, 1, 1);
        if (!x.ok()) status = x.error();
      } else if (key == "fdr" || key == "alpha" || key == "confidence" || key == "power") {
        auto x = Probability(v, key);
        if (!x.ok()) {
          status = x.error();
        } else {
          (key == "fdr" ? t.fdr : key == "alpha" ? t.alpha : key == "confidence" ? t.confidence
                                                                                 : t.power) = *x;
        }
      } else if (key == "noise_aware_fdr") {
        auto x = Bool(v, key);
        if (!x.ok()) status = x.error(); else t.noise_aware_fdr = *x;
      } else if (key == "bootstrap_resamples") {
        auto x = Integer(v, key, 100, 1000000);
        if (!x.ok()) status = x.error(); else t.bootstrap_resamples = *x;
      } else if (key == "min_samples") {
        auto x = Integer(v, key, 2, 1000000);
        if (!x.ok()) status = x.error(); else t.min_samples = *x;
      } else if (key == "default") {
        status = Section(v, key, false, t.per_operator);
      } else if (key == "end_to_end") {
        status = Section(v, key, false, t.end_to_end);
      } else if (key == "allocations") {
        status = Section(v, key, false, t.allocations);
      } else if (key == "framework_tax") {
        status = Section(v, key, true, t.framework_tax);
      } else if (key == "rules") {
        if (!v.IsSequence()) {
          status = At(v, "'rules' must be a list");
        } else {
          t.rules.clear();  // a file's rules replace the built-in ones
          for (const auto& item : v) {
            auto rule = Rule(item);
            if (!rule.ok()) return rule.error();
            t.rules.push_back(*rule);
          }
        }
      }
      if (!status.ok()) return status.error();
    }
    return t;
  }

 private:
  YamlReader yaml_;
};

}  // namespace

Result<Thresholds> ParseThresholdsYaml(const std::string& text, const std::string& source_name) {
  auto root = ParseYamlText(text, source_name);
  if (!root.ok()) return root.error();
  try {
    return Parser(source_name).Parse(*root);
  } catch (const YAML::Exception& e) {
    return InputError(source_name + ":" + std::to_string(e.mark.line + 1) + ":" +
                      std::to_string(e.mark.column + 1) + ": " + e.msg);
  }
}

Result<Thresholds> LoadThresholdsFile(const std::string& path, Disk& disk) {
  auto text = disk.ReadText(path);
  if (!text.ok()) return text.error();
  return ParseThresholdsYaml(*text, path);
}

}  // namespace etbench
