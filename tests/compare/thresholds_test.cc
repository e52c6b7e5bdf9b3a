#include "etbench/compare/thresholds.h"

#include <gtest/gtest.h>

#include "support/compare_test_util.h"
#include "support/test_support.h"

namespace etbench {
namespace {

std::string ErrorOf(const std::string& yaml) {
  auto r = ParseThresholdsYaml(yaml, "t.yaml");
  return r.ok() ? "" : r.error().message;
}

TEST(ThresholdsTest, ParsesEverySection) {
  auto t = ParseThresholdsYaml(R"(
fdr: 2%
alpha: 0.001
confidence: 90%
bootstrap_resamples: 1000
min_samples: 8
power: 90%
default: {relative: 4%, min_delta: 2us, statistics: [p50, p90], direction: increase}
end_to_end: {relative: 1.5%, min_delta: 0.01 ms}
framework_tax: {max_increase_pp: 0.5}
allocations: {relative: 0%, min_delta: 1KiB, direction: both}
rules:
  - match: "native_call_convolution*"
    relative: 3%
  - {match: "*", model: mlp, block: Execute, kind: event, gate: false}
)",
                               "t.yaml");
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_DOUBLE_EQ(t->fdr, 0.02);
  EXPECT_DOUBLE_EQ(t->alpha, 0.001);
  EXPECT_DOUBLE_EQ(t->confidence, 0.9);
  EXPECT_EQ(t->bootstrap_resamples, 1000);
  EXPECT_EQ(t->min_samples, 8);
  EXPECT_DOUBLE_EQ(t->per_operator.relative, 0.04);
  EXPECT_EQ(t->per_operator.statistics.size(), 2u);
  EXPECT_DOUBLE_EQ(t->per_operator.min_delta.value, 2);
  EXPECT_EQ(t->per_operator.min_delta.unit, "us");
  EXPECT_DOUBLE_EQ(t->end_to_end.relative, 0.015);
  EXPECT_EQ(t->end_to_end.min_delta.unit, "ms");
  EXPECT_DOUBLE_EQ(t->framework_tax.max_increase_pp, 0.5);
  EXPECT_EQ(t->allocations.direction, Direction::kBoth);
  ASSERT_EQ(t->rules.size(), 2u);
  EXPECT_EQ(t->rules[0].location, "t.yaml:13:5");
  EXPECT_EQ(t->rules[1].gate, false);
}

TEST(ThresholdsTest, EmptyFileGivesTheDefaults) {
  auto t = ParseThresholdsYaml("", "t.yaml");
  ASSERT_TRUE(t.ok());
  EXPECT_DOUBLE_EQ(t->per_operator.relative, 0.05);
  EXPECT_DOUBLE_EQ(t->end_to_end.relative, 0.02);
  EXPECT_DOUBLE_EQ(t->fdr, 0.02);
}

TEST(ThresholdsTest, ShippedFileEqualsTheBuiltInDefaults) {
  auto t = LoadThresholdsFile(testing::SourcePath("configs/thresholds.yaml"));
  ASSERT_TRUE(t.ok()) << t.error().message;
  const Thresholds d = DefaultThresholds();
  EXPECT_DOUBLE_EQ(t->fdr, d.fdr);
  EXPECT_DOUBLE_EQ(t->alpha, d.alpha);
  EXPECT_DOUBLE_EQ(t->per_operator.relative, d.per_operator.relative);
  EXPECT_DOUBLE_EQ(t->per_operator.min_delta.value, d.per_operator.min_delta.value);
  EXPECT_DOUBLE_EQ(t->end_to_end.relative, d.end_to_end.relative);
  EXPECT_DOUBLE_EQ(t->framework_tax.max_increase_pp, d.framework_tax.max_increase_pp);
  EXPECT_DOUBLE_EQ(t->allocations.relative, d.allocations.relative);
  EXPECT_EQ(t->bootstrap_resamples, d.bootstrap_resamples);
  EXPECT_EQ(t->noise_aware_fdr, d.noise_aware_fdr);
  ASSERT_EQ(t->rules.size(), d.rules.size());
  for (std::size_t i = 0; i < d.rules.size(); ++i) {
    EXPECT_EQ(t->rules[i].match, d.rules[i].match);
    EXPECT_EQ(t->rules[i].relative, d.rules[i].relative);
  }
}

TEST(ThresholdsTest, InvalidGlobsAreRejected) {
  EXPECT_EQ(ErrorOf("rules:\n  - {match: \"[abc\", relative: 5%}\n"),
            "t.yaml:2:13: 'match': invalid glob '[abc': '[' at offset 0 has no closing ']'");
  EXPECT_EQ(ErrorOf("rules:\n  - {match: x, model: \"m\\\\\"}\n"),
            "t.yaml:2:23: 'model': invalid glob 'm\\': ends in a lone backslash");
  EXPECT_EQ(ErrorOf("rules:\n  - {match: \"native_call_[!a]*\", relative: 5%}\n"), "");
  EXPECT_FALSE(GlobProblem("[]]").has_value());
  EXPECT_FALSE(GlobProblem("\\[").has_value());
}

TEST(ThresholdsTest, ASecondDocumentIsAnErrorNotIgnored) {
  EXPECT_EQ(ErrorOf("default: {relative: 5%}\n---\ndefault: {relative: 50%}\n"),
            "t.yaml:2:1: a second YAML document; a file holds one document");
}

TEST(ThresholdsTest, TooDeepNestingSaysSo) {
  const std::string deep = "rules: " + std::string(3000, '[') + std::string(3000, ']');
  EXPECT_NE(ErrorOf(deep).find("levels deep"), std::string::npos) << ErrorOf(deep);
}

TEST(ThresholdsTest, ErrorsNameFileLineAndColumn) {
  EXPECT_EQ(ErrorOf("default:\n  relativ: 5%\n"),
            "t.yaml:2:3: unknown key 'relativ' in 'default' (expected one of: direction, gate, "
            "min_delta, relative, statistics)");
  EXPECT_EQ(ErrorOf("default:\n  relative: 5\n"),
            "t.yaml:2:13: 'relative' must be a percentage like 5%, got '5'");
  EXPECT_EQ(ErrorOf("default: {relative: -3%}"),
            "t.yaml:1:21: 'relative' must be between 0% and 1000%, got '-3%'");
  EXPECT_EQ(ErrorOf("default: {statistics: [p50, p99]}"),
            "t.yaml:1:29: unknown statistic 'p99' (known: p10, p50, p90, avg, min, max)");
  EXPECT_EQ(ErrorOf("default: {direction: up}"),
            "t.yaml:1:22: unknown direction 'up' (known: increase, decrease, both)");
  EXPECT_EQ(ErrorOf("default: {min_delta: 3 parsecs}"),
            "t.yaml:1:22: min_delta '3 parsecs' has an unknown unit 'parsecs' (known: ns, us, "
            "ms, s, B, bytes, KiB, MiB, GiB, cycles)");
  EXPECT_EQ(ErrorOf("fdr: 1.5"),
            "t.yaml:1:6: 'fdr' must be strictly between 0 and 1 (or 0% and 100%), got '1.5'");
  EXPECT_EQ(ErrorOf("framework_tax: {relative: 5%}"),
            "t.yaml:1:17: unknown key 'relative' in 'framework_tax' (expected one of: "
            "direction, gate, max_increase_pp, statistics)");
  EXPECT_EQ(ErrorOf("rules:\n  - relative: 3%\n"),
            "t.yaml:2:5: a rule needs 'match' (a glob on the metric name)");
  EXPECT_EQ(ErrorOf("rules: {match: x}"), "t.yaml:1:8: 'rules' must be a list");
  EXPECT_EQ(ErrorOf("bootstrap_resamples: 10.5"),
            "t.yaml:1:22: 'bootstrap_resamples' must be an integer from 100 to 1000000");
  EXPECT_EQ(ErrorOf("fdr: 1%\ndefault: [1, 2"),
            "t.yaml:2:1: invalid YAML: end of sequence flow not found");
  EXPECT_EQ(ErrorOf("- 1\n- 2\n"), "t.yaml:1:1: the thresholds file must be a mapping");
}

TEST(ThresholdsTest, DuplicateKeysAreErrors) {
  EXPECT_EQ(ErrorOf("fdr: 1%\nfdr: 2%\n"), "t.yaml:2:1: duplicate key 'fdr' in the thresholds file");
  EXPECT_EQ(ErrorOf("default: {relative: 3%, relative: 4%}"),
            "t.yaml:1:25: duplicate key 'relative' in 'default'");
}

TEST(ThresholdsTest, MissingFileIsAnIoError) {
  auto t = LoadThresholdsFile("/nonexistent/t.yaml");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, ErrorCode::kIo);
}

TEST(ThresholdsTest, FirstMatchingRuleWinsOverTheSection) {
  auto t = ParseThresholdsYaml(R"(
rules:
  - {match: "native_call_convolution*", block: Execute, relative: 3%}
  - {match: "native_call_*", relative: 8%, statistics: [p90]}
  - {match: "Method::execute", relative: 1%}
)",
                               "t.yaml");
  ASSERT_TRUE(t.ok()) << t.error().message;
  const Metric conv = testing::EventMetric("native_call_convolution.out", 0, {});
  const Metric relu = testing::EventMetric("native_call_relu.out", 1, {});
  const Metric exec = testing::EventMetric("Method::execute", 0, {}, true);
  const Metric other = testing::EventMetric("DELEGATE_CALL", 2, {});
  auto r = ResolveRule(*t, conv);
  EXPECT_DOUBLE_EQ(r.rule.relative, 0.03);
  EXPECT_EQ(r.name, "rules[0] (match: native_call_convolution*) at t.yaml:3:5");
  r = ResolveRule(*t, relu);
  EXPECT_DOUBLE_EQ(r.rule.relative, 0.08);
  EXPECT_EQ(r.rule.statistics, std::vector<Statistic>{Statistic::kP90});
  EXPECT_TRUE(r.rule.min_delta.measured);  // inherited from `default`: auto
  r = ResolveRule(*t, exec);
  EXPECT_DOUBLE_EQ(r.rule.relative, 0.01);
  r = ResolveRule(*t, other);
  EXPECT_EQ(r.name, "default");
  Metric tax;
  tax.key.kind = MetricKind::kFrameworkTax;
  tax.key.name = "framework_tax";
  tax.end_to_end = true;
  EXPECT_EQ(ResolveRule(*t, tax).name, "framework_tax");
}

TEST(ThresholdsTest, MinDeltaConvertsWithinAUnitFamily) {
  EXPECT_DOUBLE_EQ(*MinDeltaIn({1, "us"}, "ms"), 0.001);
  EXPECT_DOUBLE_EQ(*MinDeltaIn({0.5, "ms"}, "ns"), 500000);
  EXPECT_DOUBLE_EQ(*MinDeltaIn({2, "KiB"}, "bytes"), 2048);
  EXPECT_DOUBLE_EQ(*MinDeltaIn({7, ""}, "cycles"), 7);
  EXPECT_FALSE(MinDeltaIn({1, "us"}, "cycles"));
  EXPECT_FALSE(MinDeltaIn({1, "us"}, "bytes"));
  EXPECT_FALSE(ParseMinDelta("fast").ok());
  EXPECT_FALSE(ParseMinDelta("-1us").ok());
}

}  // namespace
}  // namespace etbench

namespace etbench {
namespace {

TEST(ThresholdsTest, AutoMinDeltaIsTwoTicksOfTheSamples) {
  auto d = ParseMinDelta("auto");
  ASSERT_TRUE(d.ok());
  EXPECT_TRUE(d->measured);
  // Durations of a 1 µs clock, in ms: the tick is 0.001 ms.
  EXPECT_NEAR(MeasuredMinDelta({0.004, 0.005, 0.005}, {0.006, 0.004}), 0.002, 1e-12);
  EXPECT_EQ(MeasuredMinDelta({0.5, 0.5}, {0.5}), 0.0);  // one value: no tick to see
  const Metric a = testing::EventMetric("native_call_x.out", 0, {10, 12, 14});
  const Metric b = testing::EventMetric("native_call_x.out", 0, {11, 15});
  EXPECT_DOUBLE_EQ(*MinDeltaFor(*d, a, b), 2.0);
  EXPECT_DOUBLE_EQ(*MinDeltaFor(MinDelta{1, "us"}, a, b), 0.001);  // a is in ms
  EXPECT_TRUE(DefaultThresholds().per_operator.min_delta.measured);
  EXPECT_FALSE(DefaultThresholds().framework_tax.gate);  // a share: shown, not gated
}

}  // namespace
}  // namespace etbench
