#include "etbench/compare/comparison.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "support/compare_test_util.h"

namespace etbench {
namespace {

using testing::EventMetric;
using testing::LogNormalSamples;

const MetricComparison& Row(const Comparison& c, const std::string& name) {
  for (const MetricComparison& r : c.rows) {
    if (r.key.name == name) return r;
  }
  ADD_FAILURE() << "no row " << name;
  static MetricComparison none;
  return none;
}

struct Pair {
  MetricSet baseline, candidate;
  void Add(const std::string& name, int32_t instruction, std::vector<double> b,
           std::vector<double> c, bool e2e = false, const std::string& unit = "ms") {
    baseline.metrics.push_back(EventMetric(name, instruction, std::move(b), e2e, unit));
    candidate.metrics.push_back(EventMetric(name, instruction, std::move(c), e2e, unit));
  }
};

Pair Scenario() {
  Pair p;
  p.baseline.context = {{"time_source", "ns"}, {"device", "host"}};
  p.candidate.context = p.baseline.context;
  p.Add("native_call_convolution.out", 0, LogNormalSamples(50, 1.0, 0.03, 1),
        LogNormalSamples(50, 1.10, 0.03, 2));
  p.Add("native_call_relu.out", 1, LogNormalSamples(50, 0.5, 0.03, 3),
        LogNormalSamples(50, 0.45, 0.03, 4));
  p.Add("native_call_addmm.out", 2, LogNormalSamples(50, 0.8, 0.03, 5),
        LogNormalSamples(50, 0.8, 0.03, 6));
  // 0.5 µs → 0.6 µs: +20% and clearly significant, but below min_delta 1 µs.
  p.Add("native_call_permute_copy.out", 3, LogNormalSamples(50, 0.0005, 0.01, 7),
        LogNormalSamples(50, 0.0006, 0.01, 8));
  p.Add("native_call_mm.out", 4, LogNormalSamples(3, 0.2, 0.03, 9),
        LogNormalSamples(4, 0.4, 0.03, 10));
  p.Add("Method::execute", 0, LogNormalSamples(50, 2.5, 0.01, 11),
        LogNormalSamples(50, 2.6, 0.01, 12), true);
  return p;
}

// The defaults with a fixed 1 µs floor (the default is measured: `auto`).
Thresholds OneMicrosecondFloor() {
  Thresholds t = DefaultThresholds();
  t.per_operator.min_delta = MinDelta{1, "us"};
  t.end_to_end.min_delta = MinDelta{1, "us"};
  return t;
}

TEST(CompareTest, ConstructedSamplesGetTheExpectedVerdicts) {
  const Pair p = Scenario();
  auto c = Compare(p.baseline, p.candidate, OneMicrosecondFloor());
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(Row(*c, "native_call_convolution.out").verdict, Verdict::kRegression);
  EXPECT_NEAR(Row(*c, "native_call_convolution.out").change, 0.10, 0.02);
  EXPECT_EQ(Row(*c, "native_call_relu.out").verdict, Verdict::kImprovement);
  EXPECT_EQ(Row(*c, "native_call_addmm.out").verdict, Verdict::kUnchanged);
  const MetricComparison& tiny = Row(*c, "native_call_permute_copy.out");
  EXPECT_LT(tiny.p_value, 1e-10);
  EXPECT_TRUE(tiny.threshold_protected);  // 1 µs is 200% of 0.5 µs
  EXPECT_NEAR(tiny.change, 0.2, 0.01);
  EXPECT_NEAR(tiny.threshold, 2.0, 0.05);  // 1 µs / 0.5 µs
  EXPECT_EQ(tiny.verdict, Verdict::kUnchanged);
  const MetricComparison& few = Row(*c, "native_call_mm.out");
  EXPECT_EQ(few.verdict, Verdict::kInconclusive);
  EXPECT_TRUE(std::isnan(few.ci_low));
  EXPECT_EQ(Row(*c, "Method::execute").verdict, Verdict::kRegression);
  EXPECT_FALSE(Row(*c, "Method::execute").p_adjusted.has_value());
  EXPECT_DOUBLE_EQ(Row(*c, "Method::execute").level, 0.01);

  // mm has too few samples; the quiet operators are protected by their
  // threshold, leaving the family.
  EXPECT_EQ(c->settings.family_size + c->settings.threshold_protected, 4u);
  EXPECT_EQ(c->outcome, GateOutcome::kRegression);
  EXPECT_EQ(c->counts.regressions, 2u);
  EXPECT_EQ(c->counts.improvements, 1u);
  EXPECT_EQ(c->counts.inconclusive, 1u);
  EXPECT_EQ(c->counts.unchanged, 2u);
  EXPECT_EQ(GateExitCode(*c, false), 1);
}

TEST(CompareTest, PureNoisePasses) {
  Pair p;
  for (int i = 0; i < 40; ++i) {
    p.Add("native_call_op" + std::to_string(i) + ".out", i,
          LogNormalSamples(50, 0.1 + 0.01 * i, 0.02, 100 + i),
          LogNormalSamples(50, 0.1 + 0.01 * i, 0.02, 200 + i));
  }
  auto c = Compare(p.baseline, p.candidate, DefaultThresholds());
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->outcome, GateOutcome::kPass);
  EXPECT_EQ(c->counts.unchanged, 40u);
  EXPECT_EQ(GateExitCode(*c, true), 0);
}

TEST(CompareTest, HighNoiseIsInconclusiveWithTheIterationsNeeded) {
  Pair p;
  p.Add("native_call_op.out", 0, LogNormalSamples(20, 1.0, 0.30, 1),
        LogNormalSamples(20, 1.0, 0.30, 2));
  auto c = Compare(p.baseline, p.candidate, DefaultThresholds());
  ASSERT_TRUE(c.ok());
  const MetricComparison& r = c->rows.at(0);
  EXPECT_EQ(r.verdict, Verdict::kInconclusive);
  EXPECT_GT(r.mde, r.threshold);
  ASSERT_TRUE(r.iterations_needed.has_value());
  EXPECT_GT(*r.iterations_needed, 20);
  EXPECT_EQ(c->outcome, GateOutcome::kInconclusive);
  EXPECT_EQ(GateExitCode(*c, false), 0);
  EXPECT_EQ(GateExitCode(*c, true), 3);
}

TEST(CompareTest, ResultsDoNotDependOnMetricOrder) {
  Pair p = Scenario();
  auto first = Compare(p.baseline, p.candidate, DefaultThresholds());
  std::mt19937 rng(3);
  std::shuffle(p.baseline.metrics.begin(), p.baseline.metrics.end(), rng);
  std::shuffle(p.candidate.metrics.begin(), p.candidate.metrics.end(), rng);
  auto second = Compare(p.baseline, p.candidate, DefaultThresholds());
  ASSERT_TRUE(first.ok() && second.ok());
  ASSERT_EQ(first->rows.size(), second->rows.size());
  for (std::size_t i = 0; i < first->rows.size(); ++i) {
    EXPECT_EQ(first->rows[i].label, second->rows[i].label);
    if (std::isnan(first->rows[i].ci_low)) {
      EXPECT_TRUE(std::isnan(second->rows[i].ci_low));
      continue;
    }
    EXPECT_EQ(first->rows[i].ci_low, second->rows[i].ci_low);
    EXPECT_EQ(first->rows[i].ci_high, second->rows[i].ci_high);
    EXPECT_EQ(first->rows[i].verdict, second->rows[i].verdict);
  }
}

TEST(CompareTest, FrameworkTaxIsGatedInPercentagePoints) {
  Pair p;
  auto tax = [](std::vector<double> samples) {
    Metric m;
    m.key = {"toy", "Execute", MetricKind::kFrameworkTax, "framework_tax", {}, "", 0};
    m.unit = "percent";
    m.end_to_end = true;
    m.samples = std::move(samples);
    return m;
  };
  p.baseline.metrics.push_back(tax(LogNormalSamples(50, 2.0, 0.02, 1)));
  p.candidate.metrics.push_back(tax(LogNormalSamples(50, 3.5, 0.02, 2)));
  auto c = Compare(p.baseline, p.candidate, DefaultThresholds());
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->rows[0].scale, ChangeScale::kAbsolute);
  EXPECT_NEAR(c->rows[0].change, 1.5, 0.1);
  EXPECT_DOUBLE_EQ(c->rows[0].threshold, 1.0);
  EXPECT_EQ(c->rows[0].verdict, Verdict::kRegression);
  // +0.5 pp is significant but below max_increase_pp.
  p.candidate.metrics[0] = tax(LogNormalSamples(50, 2.5, 0.02, 2));
  c = Compare(p.baseline, p.candidate, DefaultThresholds());
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->rows[0].verdict, Verdict::kUnchanged);
}

TEST(CompareTest, RulesChooseStatisticsDirectionAndGating) {
  Pair p;
  p.Add("throughput", -1, LogNormalSamples(30, 100, 0.01, 1), LogNormalSamples(30, 90, 0.01, 2),
        true, "items/s");
  p.Add("native_call_noisy.out", 0, LogNormalSamples(30, 1, 0.01, 3),
        LogNormalSamples(30, 1.5, 0.01, 4));
  auto t = ParseThresholdsYaml(R"(
rules:
  - {match: throughput, direction: decrease, statistics: [p50, min]}
  - {match: "native_call_noisy*", gate: false}
)");
  ASSERT_TRUE(t.ok()) << t.error().message;
  auto c = Compare(p.baseline, p.candidate, *t);
  ASSERT_TRUE(c.ok());
  ASSERT_EQ(c->rows.size(), 3u);
  EXPECT_EQ(c->rows[0].verdict, Verdict::kRegression);  // noisy, ungated
  EXPECT_FALSE(c->rows[0].gated);
  EXPECT_EQ(c->rows[1].statistic, Statistic::kP50);
  EXPECT_EQ(c->rows[1].verdict, Verdict::kRegression);
  EXPECT_EQ(c->rows[2].statistic, Statistic::kMin);
  EXPECT_EQ(c->counts.regressions, 2u);  // the ungated row does not count
}

TEST(CompareTest, OperatorCallWrappersOfComparedKernelsAreShownNotGated) {
  Pair p;
  p.baseline.context = p.candidate.context = {{"time_source", "ns"}};
  p.Add("native_call_convolution.out", 3, LogNormalSamples(50, 1.0, 0.02, 1),
        LogNormalSamples(50, 1.2, 0.02, 2));
  p.Add("OPERATOR_CALL", 3, LogNormalSamples(50, 1.01, 0.02, 3),
        LogNormalSamples(50, 1.21, 0.02, 4));
  // A wrapper without its kernel in the data is all there is: gated.
  p.Add("OPERATOR_CALL", 5, LogNormalSamples(50, 0.5, 0.02, 5), LogNormalSamples(50, 0.6, 0.02, 6));
  auto c = Compare(p.baseline, p.candidate, DefaultThresholds());
  ASSERT_TRUE(c.ok());
  ASSERT_EQ(c->rows.size(), 3u);
  for (const MetricComparison& r : c->rows) EXPECT_EQ(r.verdict, Verdict::kRegression) << r.label;
  const MetricComparison* wrapper = nullptr;
  const MetricComparison* lone = nullptr;
  for (const MetricComparison& r : c->rows) {
    if (r.key.name == "OPERATOR_CALL") (*r.key.instruction_id == 3 ? wrapper : lone) = &r;
  }
  ASSERT_NE(wrapper, nullptr);
  ASSERT_NE(lone, nullptr);
  EXPECT_FALSE(wrapper->gated);
  EXPECT_EQ(wrapper->rule, "operator_call_wrapper");
  EXPECT_FALSE(wrapper->p_adjusted.has_value());
  EXPECT_DOUBLE_EQ(wrapper->level, 0.02 / 2);  // BH's first step over the family of 2
  EXPECT_TRUE(lone->gated);
  EXPECT_EQ(c->settings.family_size + c->settings.threshold_protected, 2u);
  EXPECT_EQ(c->counts.regressions, 2u);  // the kernel and the lone wrapper
}

TEST(CompareTest, BaselineOfZeroSwitchesToAbsoluteChange) {
  Pair p;
  Metric b = EventMetric("bytes", -1, std::vector<double>(10, 0.0), false, "bytes");
  b.key.kind = MetricKind::kAllocation;
  Metric c = b;
  c.samples.assign(10, 4096);
  p.baseline.metrics.push_back(b);
  p.candidate.metrics.push_back(c);
  auto r = Compare(p.baseline, p.candidate, DefaultThresholds());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->rows[0].scale, ChangeScale::kAbsolute);
  EXPECT_DOUBLE_EQ(r->rows[0].change, 4096);
  EXPECT_DOUBLE_EQ(r->rows[0].threshold, 64);
  EXPECT_EQ(r->rows[0].verdict, Verdict::kRegression);
}

TEST(CompareTest, GuardsRefuseDifferentTimeSourcesAndUnits) {
  Pair p = Scenario();
  p.candidate.context["time_source"] = "cycles";
  auto c = Compare(p.baseline, p.candidate, DefaultThresholds());
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().message,
            "cannot compare: the baseline was measured with time source 'ns' and the candidate "
            "with 'cycles'");
  p = Scenario();
  p.baseline.context["unit"] = "ms";
  p.candidate.context["unit"] = "us";
  c = Compare(p.baseline, p.candidate, DefaultThresholds());
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().message, "cannot compare: the baseline is in 'ms' and the candidate in 'us'");
  p = Scenario();
  p.candidate.metrics[0].unit = "us";
  c = Compare(p.baseline, p.candidate, DefaultThresholds());
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().message,
            "cannot compare toy/Execute/native_call_convolution.out#0: unit 'ms' in the "
            "baseline, 'us' in the candidate");
  p = Scenario();
  p.candidate.metrics.push_back(p.candidate.metrics[0]);
  c = Compare(p.baseline, p.candidate, DefaultThresholds());
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().message,
            "duplicate metric in the candidate: toy/Execute/native_call_convolution.out#0");
}

TEST(CompareTest, GuardsWarnOnDifferentMachinesAndModels) {
  Pair p = Scenario();
  p.baseline.context["cpu"] = "x86";
  p.candidate.context["cpu"] = "arm";
  p.baseline.context["tick_rate_hz"] = "1000000000";
  p.candidate.context["tick_rate_hz"] = "2900000000";
  p.baseline.context["model_sha256:toy"] = "aaaaaaaaaaaaaaaa";
  p.candidate.context["model_sha256:toy"] = "bbbbbbbbbbbbbbbb";
  p.candidate.context["device"] = "phone";
  auto c = Compare(p.baseline, p.candidate, DefaultThresholds());
  ASSERT_TRUE(c.ok());
  ASSERT_EQ(c->warnings.size(), 4u);
  EXPECT_EQ(c->warnings[0], "different device: 'host' (baseline) vs 'phone' (candidate)");
  EXPECT_EQ(c->warnings[1], "different cpu: 'x86' (baseline) vs 'arm' (candidate)");
  EXPECT_NE(c->warnings[2].find("tick rate"), std::string::npos);
  EXPECT_EQ(c->warnings[3], "model file of 'toy' changed (sha256 aaaaaaaaaaaa… vs bbbbbbbbbbbb…)");
}

TEST(CompareTest, MinDeltaInAnotherUnitFamilyIsReported) {
  Pair p;
  p.Add("native_call_op.out", 0, LogNormalSamples(20, 1000, 0.01, 1),
        LogNormalSamples(20, 1000, 0.01, 2), false, "cycles");
  auto c = Compare(p.baseline, p.candidate, OneMicrosecondFloor());
  ASSERT_TRUE(c.ok());
  ASSERT_EQ(c->warnings.size(), 1u);
  EXPECT_EQ(c->warnings[0],
            "min_delta 1.000000us of default does not apply to metrics in cycles (set a rule "
            "with a min_delta in that unit)");
}

TEST(CompareTest, BenjaminiHochbergControlsManyNoisyOperators) {
  // 200 operators of pure noise at CV 8%: single tests at 5% would flag
  // about ten; the gate must not.
  Pair p;
  for (int i = 0; i < 200; ++i) {
    p.Add("native_call_op" + std::to_string(i) + ".out", i,
          LogNormalSamples(50, 0.5, 0.08, 1000 + i), LogNormalSamples(50, 0.5, 0.08, 5000 + i));
  }
  auto c = Compare(p.baseline, p.candidate, DefaultThresholds());
  ASSERT_TRUE(c.ok());
  int raw_significant = 0;
  for (const MetricComparison& r : c->rows) raw_significant += r.p_value < 0.05;
  EXPECT_GT(raw_significant, 2);
  EXPECT_EQ(c->counts.regressions, 0u);
  EXPECT_EQ(c->settings.family_size, 200u);
}

}  // namespace
}  // namespace etbench
