#include "etbench/compare/comparison.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "support/compare_test_util.h"

namespace etbench {
namespace {

using testing::CheckedCompare;
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
  auto c = CheckedCompare(p.baseline, p.candidate, OneMicrosecondFloor());
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(Row(*c, "native_call_convolution.out").verdict, Verdict::kRegression);
  EXPECT_NEAR(Row(*c, "native_call_convolution.out").change, 0.10, 0.02);
  EXPECT_EQ(Row(*c, "native_call_relu.out").verdict, Verdict::kImprovement);
  EXPECT_EQ(Row(*c, "native_call_addmm.out").verdict, Verdict::kUnchanged);
  const MetricComparison& tiny = Row(*c, "native_call_permute_copy.out");
  EXPECT_LT(tiny.p_value, 1e-10);
  EXPECT_NEAR(tiny.change, 0.2, 0.01);
  EXPECT_NEAR(tiny.threshold, 2.0, 0.05);  // 1 µs / 0.5 µs
  EXPECT_EQ(tiny.verdict, Verdict::kUnchanged);
  const MetricComparison& few = Row(*c, "native_call_mm.out");
  EXPECT_EQ(few.verdict, Verdict::kInconclusive);
  EXPECT_TRUE(std::isnan(few.ci_low));
  EXPECT_FALSE(few.ci_alpha.has_value());
  ASSERT_EQ(few.notes.size(), 1u);  // nothing else was inferred
  const auto* too_few = FindNote<TooFewSamplesNote>(few.notes);
  ASSERT_NE(too_few, nullptr);
  EXPECT_EQ(too_few->baseline, 3u);
  EXPECT_EQ(too_few->candidate, 4u);
  EXPECT_EQ(too_few->needed, static_cast<std::size_t>(DefaultThresholds().min_samples));
  // A judged row leads with what its intervals showed, then its units.
  const MetricComparison& relu = Row(*c, "native_call_relu.out");
  ASSERT_GE(relu.notes.size(), 2u);
  ASSERT_TRUE(std::holds_alternative<IntervalNote>(relu.notes[0]));
  EXPECT_EQ(std::get<IntervalNote>(relu.notes[0]).outcome, IntervalOutcome::kBeyondThreshold);
  ASSERT_TRUE(std::holds_alternative<UnitCountsNote>(relu.notes[1]));
  EXPECT_EQ(std::get<UnitCountsNote>(relu.notes[1]).level, "sample");
  EXPECT_EQ(Row(*c, "Method::execute").verdict, Verdict::kRegression);
  EXPECT_FALSE(Row(*c, "Method::execute").p_adjusted.has_value());
  EXPECT_DOUBLE_EQ(Row(*c, "Method::execute").level, 0.01);
  // No repetitions recorded: the samples are the units.
  EXPECT_EQ(Row(*c, "Method::execute").test, "rank_sample");

  // mm has too few samples; the other four operators form the family.
  EXPECT_EQ(c->settings.family_size, 4u);
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
  auto c = CheckedCompare(p.baseline, p.candidate, DefaultThresholds());
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->outcome, GateOutcome::kPass);
  EXPECT_EQ(c->counts.unchanged, 40u);
  EXPECT_EQ(GateExitCode(*c, true), 0);
}

TEST(CompareTest, HighNoiseIsInconclusiveWithTheIterationsNeeded) {
  Pair p;
  p.Add("native_call_op.out", 0, LogNormalSamples(20, 1.0, 0.30, 1),
        LogNormalSamples(20, 1.0, 0.30, 2));
  auto c = CheckedCompare(p.baseline, p.candidate, DefaultThresholds());
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
  auto first = CheckedCompare(p.baseline, p.candidate, DefaultThresholds());
  std::mt19937 rng(3);
  std::shuffle(p.baseline.metrics.begin(), p.baseline.metrics.end(), rng);
  std::shuffle(p.candidate.metrics.begin(), p.candidate.metrics.end(), rng);
  auto second = CheckedCompare(p.baseline, p.candidate, DefaultThresholds());
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
  auto c = CheckedCompare(p.baseline, p.candidate, DefaultThresholds());
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->rows[0].scale, ChangeScale::kAbsolute);
  EXPECT_NEAR(c->rows[0].change, 1.5, 0.1);
  EXPECT_DOUBLE_EQ(c->rows[0].threshold, 1.0);
  EXPECT_EQ(c->rows[0].verdict, Verdict::kRegression);
  // +0.5 pp is significant but below max_increase_pp.
  p.candidate.metrics[0] = tax(LogNormalSamples(50, 2.5, 0.02, 2));
  c = CheckedCompare(p.baseline, p.candidate, DefaultThresholds());
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
  auto c = CheckedCompare(p.baseline, p.candidate, *t);
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
  auto c = CheckedCompare(p.baseline, p.candidate, DefaultThresholds());
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
  auto r = CheckedCompare(p.baseline, p.candidate, DefaultThresholds());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->rows[0].scale, ChangeScale::kAbsolute);
  EXPECT_DOUBLE_EQ(r->rows[0].change, 4096);
  EXPECT_DOUBLE_EQ(r->rows[0].threshold, 64);
  EXPECT_EQ(r->rows[0].verdict, Verdict::kRegression);
}

TEST(CompareTest, GuardsRefuseDifferentTimeSourcesAndUnits) {
  Pair p = Scenario();
  p.candidate.context["time_source"] = "cycles";
  auto c = CheckedCompare(p.baseline, p.candidate, DefaultThresholds());
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().message,
            "cannot compare: the baseline was measured with time source 'ns' and the candidate "
            "with 'cycles'");
  p = Scenario();
  p.baseline.context["unit"] = "ms";
  p.candidate.context["unit"] = "us";
  c = CheckedCompare(p.baseline, p.candidate, DefaultThresholds());
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().message, "cannot compare: the baseline is in 'ms' and the candidate in 'us'");
  p = Scenario();
  p.candidate.metrics[0].unit = "us";
  c = CheckedCompare(p.baseline, p.candidate, DefaultThresholds());
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().message,
            "cannot compare toy/Execute/native_call_convolution.out#0: unit 'ms' in the "
            "baseline, 'us' in the candidate");
  p = Scenario();
  p.candidate.metrics.push_back(p.candidate.metrics[0]);
  c = CheckedCompare(p.baseline, p.candidate, DefaultThresholds());
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
  auto c = CheckedCompare(p.baseline, p.candidate, DefaultThresholds());
  ASSERT_TRUE(c.ok());
  ASSERT_EQ(c->warnings.size(), 4u);
  const auto* device = std::get_if<ContextDiffersWarning>(&c->warnings[0]);
  ASSERT_NE(device, nullptr);
  EXPECT_EQ(device->key, "device");
  EXPECT_EQ(device->baseline, "host");
  EXPECT_EQ(device->candidate, "phone");
  const auto* cpu = std::get_if<ContextDiffersWarning>(&c->warnings[1]);
  ASSERT_NE(cpu, nullptr);
  EXPECT_EQ(cpu->key, "cpu");
  EXPECT_EQ(cpu->baseline, "x86");
  EXPECT_EQ(cpu->candidate, "arm");
  const auto* rate = std::get_if<TickRateDiffersWarning>(&c->warnings[2]);
  ASSERT_NE(rate, nullptr);
  EXPECT_EQ(rate->baseline_hz, 1e9);
  EXPECT_EQ(rate->candidate_hz, 2.9e9);
  const auto* model = std::get_if<ModelFileChangedWarning>(&c->warnings[3]);
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->model, "toy");
  EXPECT_EQ(model->baseline_sha256, "aaaaaaaaaaaaaaaa");
  EXPECT_EQ(model->candidate_sha256, "bbbbbbbbbbbbbbbb");
}

TEST(CompareTest, MinDeltaInAnotherUnitFamilyIsReported) {
  Pair p;
  p.Add("native_call_op.out", 0, LogNormalSamples(20, 1000, 0.01, 1),
        LogNormalSamples(20, 1000, 0.01, 2), false, "cycles");
  auto c = CheckedCompare(p.baseline, p.candidate, OneMicrosecondFloor());
  ASSERT_TRUE(c.ok());
  ASSERT_EQ(c->warnings.size(), 1u);
  const auto* w = std::get_if<MinDeltaUnitWarning>(&c->warnings[0]);
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->value, 1);
  EXPECT_EQ(w->unit, "us");
  EXPECT_EQ(w->rule, "default");
  EXPECT_EQ(w->metric_unit, "cycles");
}

TEST(CompareTest, BenjaminiHochbergControlsManyNoisyOperators) {
  // 200 operators of pure noise at CV 8%: single tests at 5% would flag
  // about ten; the gate must not.
  Pair p;
  for (int i = 0; i < 200; ++i) {
    p.Add("native_call_op" + std::to_string(i) + ".out", i,
          LogNormalSamples(50, 0.5, 0.08, 1000 + i), LogNormalSamples(50, 0.5, 0.08, 5000 + i));
  }
  auto c = CheckedCompare(p.baseline, p.candidate, DefaultThresholds());
  ASSERT_TRUE(c.ok());
  int raw_significant = 0;
  for (const MetricComparison& r : c->rows) raw_significant += r.p_value < 0.05;
  EXPECT_GT(raw_significant, 2);
  EXPECT_EQ(c->counts.regressions, 0u);
  EXPECT_EQ(c->settings.family_size, 200u);
}

// `levels`: one repetition per entry, 20 samples of CV 2% around it.
std::vector<double> Repetitions(const std::vector<double>& levels, uint64_t seed) {
  std::vector<double> out;
  for (std::size_t r = 0; r < levels.size(); ++r) {
    for (double x : LogNormalSamples(20, levels[r], 0.02, seed + r)) out.push_back(x);
  }
  return out;
}

Pair OneMetricWithRepetitions(const std::vector<double>& b, const std::vector<double>& c,
                              bool e2e = true) {
  Pair p;
  p.baseline.context = p.candidate.context = {{"time_source", "ns"}};
  p.Add(e2e ? "Method::execute" : "native_call_conv.out", 0, Repetitions(b, 10),
        Repetitions(c, 50), e2e);
  p.baseline.metrics[0].group_sizes.assign(b.size(), 20);
  p.candidate.metrics[0].group_sizes.assign(c.size(), 20);
  return p;
}

// Six repetition medians per side, every candidate above every baseline:
// U = 36 of 36, exact two-sided p = 2 / C(12, 6) = 2 / 924; the estimate
// is the median of the 36 differences of log medians.
TEST(CompareTest, RepetitionsAreTheUnitsWithExactRankInference) {
  const Pair p = OneMetricWithRepetitions({1.0, 1.02, 0.98, 1.01, 0.99, 1.0},
                                          {1.2, 1.22, 1.18, 1.21, 1.19, 1.2});
  auto c = CheckedCompare(p.baseline, p.candidate, DefaultThresholds());
  ASSERT_TRUE(c.ok()) << c.error().message;
  const MetricComparison& r = c->rows.at(0);
  EXPECT_EQ(r.test, "rank_repetition");
  EXPECT_DOUBLE_EQ(r.p_value, 2.0 / 924);
  EXPECT_NEAR(r.change, 0.20, 0.02);
  ASSERT_TRUE(r.ci_alpha.has_value());
  EXPECT_DOUBLE_EQ(*r.ci_alpha, 0.01);
  EXPECT_GT(r.ci_low, 0.1);
  EXPECT_LT(r.ci_high, 0.3);
  EXPECT_LE(r.ci_low, r.change);
  EXPECT_GE(r.ci_high, r.change);
  EXPECT_EQ(r.verdict, Verdict::kRegression);
  const auto* counts = FindNote<UnitCountsNote>(r.notes);
  ASSERT_NE(counts, nullptr);
  EXPECT_EQ(counts->level, "repetition");
  EXPECT_EQ(counts->baseline, 6u);
  EXPECT_EQ(counts->candidate, 6u);
  EXPECT_EQ(FindNote<TooFewUnitsNote>(r.notes), nullptr);
  EXPECT_EQ(GateExitCode(*c, false), 1);
}

// However large the change, three repetitions a side cannot reach p ≤ 0.01
// (2 / C(6, 3) = 0.1): inconclusive, saying how many would.
TEST(CompareTest, TooFewRepetitionsSayHowManyAreNeeded) {
  const Pair p = OneMetricWithRepetitions({1.0, 1.01, 0.99}, {2.0, 2.01, 1.99});
  auto c = CheckedCompare(p.baseline, p.candidate, DefaultThresholds());
  ASSERT_TRUE(c.ok());
  const MetricComparison& r = c->rows.at(0);
  EXPECT_DOUBLE_EQ(r.p_value, 0.1);
  EXPECT_EQ(r.verdict, Verdict::kInconclusive);
  const auto* too_few = FindNote<TooFewUnitsNote>(r.notes);
  ASSERT_NE(too_few, nullptr);
  EXPECT_EQ(too_few->level, "repetition");
  EXPECT_DOUBLE_EQ(too_few->alpha, 0.01);
  EXPECT_EQ(too_few->per_side, 5u);
}

// Run-to-run effects of ±15% and candidate repetitions that happen to land
// a little higher: pooled samples call the +6% a regression; the
// repetitions (which overlap) do not. A real 40% slowdown stands out.
TEST(CompareTest, RunToRunNoiseIsNotARegressionButALargeChangeIs) {
  Pair p = OneMetricWithRepetitions({1.0, 0.85, 1.15, 0.9, 1.1, 1.0},
                                    {1.2, 0.95, 1.25, 1.0, 1.02, 1.08}, false);
  Pair pooled = p;
  pooled.baseline.metrics[0].group_sizes.clear();
  pooled.candidate.metrics[0].group_sizes.clear();
  auto independent = CheckedCompare(pooled.baseline, pooled.candidate, DefaultThresholds());
  ASSERT_TRUE(independent.ok());
  EXPECT_EQ(independent->rows.at(0).verdict, Verdict::kRegression);
  auto clustered = CheckedCompare(p.baseline, p.candidate, DefaultThresholds());
  ASSERT_TRUE(clustered.ok());
  EXPECT_NE(clustered->rows.at(0).verdict, Verdict::kRegression);
  EXPECT_GT(clustered->rows.at(0).p_value, independent->rows.at(0).p_value);

  p.candidate.metrics[0].samples = Repetitions({1.4, 1.2, 1.6, 1.26, 1.54, 1.4}, 70);
  auto slower = CheckedCompare(p.baseline, p.candidate, DefaultThresholds());
  ASSERT_TRUE(slower.ok());
  EXPECT_EQ(slower->rows.at(0).verdict, Verdict::kRegression);
}

// Five nightly sessions drift by ±3% while their repetitions agree within
// 0.4%: the candidate meets the nearest night. 40% slower stands out of
// every night (regression), 3% slower sits among them (no regression);
// both rows name the drift and point to interleaving.
TEST(CompareTest, ADriftingBaselineIsNamedAndTheCandidateMeetsItsNearestSession) {
  std::vector<double> levels;
  for (double session : {1.0, 1.03, 0.97, 1.02, 0.98}) {
    for (double rep : {1.0, 1.004, 0.996, 1.002, 0.998, 1.0}) levels.push_back(session * rep);
  }
  Pair p = OneMetricWithRepetitions(levels, {1.4, 1.404, 1.396, 1.402, 1.398, 1.4});
  p.baseline.metrics[0].session_sizes = {6, 6, 6, 6, 6};
  auto c = CheckedCompare(p.baseline, p.candidate, DefaultThresholds());
  ASSERT_TRUE(c.ok());
  const MetricComparison& far = c->rows.at(0);
  EXPECT_EQ(far.verdict, Verdict::kRegression);
  EXPECT_NEAR(far.change, 1.4 / 1.03 - 1, 0.02);  // against the slowest night
  const auto* drift = FindNote<MachineDriftNote>(far.notes);
  ASSERT_NE(drift, nullptr);
  EXPECT_EQ(drift->baseline_sessions, 5u);
  EXPECT_TRUE(drift->candidate_outside);
  EXPECT_TRUE(drift->log_scale);
  EXPECT_EQ(drift->nearest_session, 1u);  // the slowest night (1.03)

  p.candidate.metrics[0].samples = Repetitions({1.0, 1.004, 0.996, 1.002, 0.998, 1.0}, 90);
  for (double& x : p.candidate.metrics[0].samples) x *= 1.025;
  auto near = CheckedCompare(p.baseline, p.candidate, DefaultThresholds());
  ASSERT_TRUE(near.ok());
  EXPECT_NE(near->rows.at(0).verdict, Verdict::kRegression);
  const auto* near_drift = FindNote<MachineDriftNote>(near->rows.at(0).notes);
  ASSERT_NE(near_drift, nullptr);
  EXPECT_FALSE(near_drift->candidate_outside);
}

// A Google Benchmark benchmark reports time per iteration (averaged over
// many iterations): its resolution is far below a tick, so the measured
// floor (min_delta auto) does not hide a 33 ns benchmark slowed 1.6×.
TEST(CompareTest, GbenchBenchmarksGetTheFloorOfTheirOwnResolution) {
  Metric b, c;
  b.key.model = c.key.model = "bench";
  b.key.kind = c.key.kind = MetricKind::kBenchmark;
  b.key.name = c.key.name = "BM_Small";
  b.unit = c.unit = "ms";
  b.end_to_end = c.end_to_end = true;
  b.samples = LogNormalSamples(5, 33e-6, 0.01, 1);  // 33 ns in ms
  c.samples = LogNormalSamples(5, 53e-6, 0.01, 2);
  MetricSet bs, cs;
  bs.context = cs.context = {{"time_source", "ns"}};
  bs.metrics = {b};
  cs.metrics = {c};
  auto result = CheckedCompare(bs, cs, DefaultThresholds());
  ASSERT_TRUE(result.ok());
  const MetricComparison& r = result->rows.at(0);
  EXPECT_DOUBLE_EQ(r.threshold, 0.02);  // the relative threshold, no 1 µs floor
  EXPECT_EQ(r.verdict, Verdict::kRegression);
  EXPECT_NEAR(r.change, 0.6, 0.05);
}

// The contract on every row of many random comparisons: sizes from 1 to
// 40 units, samples or repetitions or drifting sessions, coarse ticks
// (ties), zero and negative-free amounts, all directions and statistics.
TEST(CompareTest, EveryRowOfRandomComparisonsHasItsIntervalAgreeWithItsP) {
  std::mt19937_64 rng(2026);
  std::size_t rows = 0, excluding = 0;
  for (int trial = 0; trial < 150; ++trial) {
    Pair p;
    p.baseline.context = p.candidate.context = {{"time_source", "ns"}};
    const int metrics = 1 + static_cast<int>(rng() % 6);
    for (int i = 0; i < metrics; ++i) {
      const std::size_t reps_b = 1 + rng() % 8, reps_c = 1 + rng() % 8;
      const std::size_t per = 1 + rng() % 6;
      const double shift = std::vector<double>{1.0, 1.0, 1.03, 1.1, 1.5, 0.8}[rng() % 6];
      const double tick = trial % 4 == 0 ? 0.05 : 0;
      auto draw = [&](std::size_t reps, double level, uint64_t seed) {
        std::vector<double> out;
        for (std::size_t r = 0; r < reps; ++r) {
          const double rep_level = level * (1 + 0.05 * (static_cast<double>(rng() % 7) - 3) / 3);
          for (double x : LogNormalSamples(per, rep_level, 0.03, seed + r)) {
            out.push_back(tick > 0 ? tick * std::ceil(x / tick) : x);
          }
        }
        return out;
      };
      p.Add("native_call_op" + std::to_string(i) + ".out", i, draw(reps_b, 1.0, rng()),
            draw(reps_c, shift, rng()), i == 0);
      if (trial % 3 != 0) {
        p.baseline.metrics.back().group_sizes.assign(reps_b, per);
        p.candidate.metrics.back().group_sizes.assign(reps_c, per);
        if (trial % 3 == 1 && reps_b >= 4) p.baseline.metrics.back().session_sizes = {2, reps_b - 2};
      }
    }
    Thresholds t = DefaultThresholds();
    t.min_samples = 1;
    t.per_operator.statistics = {Statistic::kP50, Statistic::kP90};
    t.per_operator.direction = std::vector<Direction>{Direction::kIncrease, Direction::kBoth,
                                                      Direction::kDecrease}[trial % 3];
    auto c = CheckedCompare(p.baseline, p.candidate, t);
    ASSERT_TRUE(c.ok()) << c.error().message;
    for (const MetricComparison& r : c->rows) {
      ++rows;
      ASSERT_TRUE(r.ci_alpha.has_value()) << r.label;
      excluding += r.ci_low > 0 || r.ci_high < 0;
    }
  }
  EXPECT_GT(rows, 500u);
  EXPECT_GT(excluding, 50u);
}

}  // namespace
}  // namespace etbench
