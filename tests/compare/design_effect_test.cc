#include "etbench/compare/design_effect.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "etbench/stats/stats.h"
#include "support/compare_test_util.h"

namespace etbench {
namespace {

using testing::EventMetric;
using testing::LogNormalSamples;

// `groups` repetitions of `per_group` samples: each repetition's level is
// multiplied by its own factor (the run-to-run effect), CV 2% within.
std::vector<double> Clustered(const std::vector<double>& levels, std::size_t per_group,
                              uint64_t seed) {
  std::vector<double> out;
  for (std::size_t g = 0; g < levels.size(); ++g) {
    for (double x : LogNormalSamples(per_group, levels[g], 0.02, seed + g)) out.push_back(x);
  }
  return out;
}

Metric M(std::vector<double> samples, std::vector<uint64_t> groups = {},
         std::vector<uint64_t> sessions = {}) {
  Metric m = EventMetric("native_call_conv.out", 0, std::move(samples));
  m.group_sizes = std::move(groups);
  m.session_sizes = std::move(sessions);
  return m;
}

DesignEffect Estimate(const std::vector<double>& a, const std::vector<uint64_t>& ga,
                      const std::vector<double>& b, const std::vector<uint64_t>& gb) {
  return EstimateDesignEffect(M(a, ga), M(b, gb));
}

TEST(DesignEffectTest, UnknownOrSingleGroupsMeanNoAdjustment) {
  const auto a = LogNormalSamples(20, 1.0, 0.05, 1);
  const auto b = LogNormalSamples(20, 1.0, 0.05, 2);
  const DesignEffect none = Estimate(a, {}, b, {});
  EXPECT_EQ(none.factor, 1.0);
  EXPECT_EQ(none.repetitions, 0u);
  EXPECT_EQ(Estimate(a, {20}, b, {20}).factor, 1.0);
  // Group sizes that do not add up are ignored rather than trusted.
  EXPECT_EQ(Estimate(a, {10, 5}, b, {}).factor, 1.0);
}

TEST(DesignEffectTest, IndependentSamplesGiveAFactorNearOne) {
  const auto a = LogNormalSamples(60, 1.0, 0.05, 3);
  const auto b = LogNormalSamples(60, 1.0, 0.05, 4);
  const DesignEffect d = Estimate(a, {10, 10, 10, 10, 10, 10}, b, {10, 10, 10, 10, 10, 10});
  EXPECT_EQ(d.repetitions, 12u);
  EXPECT_LT(d.icc, 0.1);
  EXPECT_LT(d.factor, 1.9);
}

TEST(DesignEffectTest, RepetitionsThatDifferGiveTheirSizeAsFactor) {
  // Repetition levels differ by up to 20% while samples within vary 2%:
  // nearly all information is in the 6 repetition means, not 60 samples.
  const auto a = Clustered({1.0, 1.2, 0.9, 1.1, 0.95, 1.15}, 10, 10);
  const auto b = Clustered({1.1, 0.92, 1.18, 1.0, 1.05, 0.97}, 10, 20);
  const std::vector<uint64_t> g(6, 10);
  const DesignEffect d = Estimate(a, g, b, g);
  EXPECT_GT(d.icc, 0.8);
  EXPECT_GT(d.factor, 8.0);
  EXPECT_LE(d.factor, 10.0);  // at most the repetition size
}

TEST(DesignEffectTest, AShiftBetweenTheSidesIsNotClustering) {
  // Each side independent within; the candidate 30% slower as a whole.
  const auto a = LogNormalSamples(40, 1.0, 0.03, 5);
  const auto b = LogNormalSamples(40, 1.3, 0.03, 6);
  const std::vector<uint64_t> g(4, 10);
  EXPECT_LT(Estimate(a, g, b, g).icc, 0.15);
}

TEST(DesignEffectTest, FactorWeighsEachSideByItsOwnRepetitionSize) {
  // Perfect clustering (ICC 1): D = k per side. Baseline 2×30, candidate
  // 6×10: (30/60 + 10/60) / (1/60 + 1/60) = 20.
  std::vector<double> a, b;
  for (int g = 0; g < 2; ++g) a.insert(a.end(), 30, 1.0 + g);
  for (int g = 0; g < 6; ++g) b.insert(b.end(), 10, 1.5 + g);
  const DesignEffect d = Estimate(a, {30, 30}, b, {10, 10, 10, 10, 10, 10});
  EXPECT_DOUBLE_EQ(d.icc, 1.0);
  EXPECT_NEAR(d.factor, 20.0, 1e-12);
}

TEST(DesignEffectTest, ASingleSessionCandidateCarriesTheBaselinesSessionVariance) {
  // Baseline: 5 sessions (runs minutes apart) of 3 repetitions of 10; the
  // machine's state differs between sessions by up to ±8%, repetitions
  // within a session hardly differ. The candidate is one session.
  std::vector<double> levels;
  for (double session : {1.0, 1.08, 0.94, 1.04, 0.97}) {
    for (double rep : {1.0, 1.003, 0.997}) levels.push_back(session * rep);
  }
  const Metric base = M(Clustered(levels, 10, 60), std::vector<uint64_t>(15, 10), {3, 3, 3, 3, 3});
  const Metric cand = M(Clustered({1.06, 1.063, 1.057}, 10, 70), {10, 10, 10});
  const DesignEffect d = EstimateDesignEffect(base, cand);
  EXPECT_EQ(d.sessions, 6u);
  EXPECT_EQ(d.repetitions, 18u);
  EXPECT_GT(d.icc, 0.7);
  // Independence would give the candidate's 30 samples full weight; one
  // session is worth about one sample of the machine's state.
  EXPECT_GT(d.factor, 10.0);

  // Without session sizes the baseline is one session and the candidate's
  // shift cannot be told from the machine's drift any better than before.
  Metric flat = base;
  flat.session_sizes.clear();
  EXPECT_LT(EstimateDesignEffect(flat, cand).factor, d.factor);
}

TEST(DesignEffectTest, OneSamplePerRepetitionUsesTheSessions) {
  // Program::load_method: one sample per repetition. The baseline's five
  // sessions differ by ±10%; the candidate is one session.
  std::vector<double> base_samples, cand_samples;
  uint64_t seed = 100;
  for (double session : {1.0, 1.1, 0.9, 1.05, 0.95}) {
    for (double x : LogNormalSamples(6, session, 0.01, ++seed)) base_samples.push_back(x);
  }
  for (double x : LogNormalSamples(6, 1.12, 0.01, 200)) cand_samples.push_back(x);
  const Metric base = M(base_samples, std::vector<uint64_t>(30, 1), {6, 6, 6, 6, 6});
  const Metric cand = M(cand_samples, std::vector<uint64_t>(6, 1));
  const DesignEffect d = EstimateDesignEffect(base, cand);
  ASSERT_TRUE(d.usable);
  EXPECT_GT(d.factor, 3.0);
  EXPECT_GT(d.session_share, 0.8);  // drift between runs, not repetitions
  EXPECT_GT(d.p_value, 0.05);       // +12% is within the machine's drift
}

TEST(DesignEffectTest, APooledFloorRaisesAnUnderestimatedClustering) {
  // Independent-looking samples in 6 repetitions: alone they estimate an
  // ICC near 0; with the family's pooled 0.3 they are treated as clustered.
  const auto a = LogNormalSamples(60, 1.0, 0.05, 31);
  const auto b = LogNormalSamples(60, 1.0, 0.05, 32);
  const std::vector<uint64_t> g(6, 10);
  const DesignEffect own = EstimateDesignEffect(M(a, g), M(b, g));
  const DesignEffect pooled = WithIccFloor(own, 0.3);
  EXPECT_LT(own.icc, 0.1);
  EXPECT_NEAR(pooled.icc, 0.3, 1e-9);
  EXPECT_NEAR(pooled.factor, 1 + 9 * 0.3, 1e-9);
  EXPECT_GT(pooled.p_value, own.p_value);
  // A metric more clustered than the floor keeps its own estimate.
  const auto c = Clustered({1.0, 1.2, 0.9, 1.1, 0.95, 1.15}, 10, 10);
  const auto d = Clustered({1.1, 0.92, 1.18, 1.0, 1.05, 0.97}, 10, 20);
  EXPECT_DOUBLE_EQ(WithIccFloor(EstimateDesignEffect(M(c, g), M(d, g)), 0.3).icc,
                   EstimateDesignEffect(M(c, g), M(d, g)).icc);
}

TEST(DesignEffectTest, ClusterTestSeesALargeChangeThroughTheDrift) {
  // Baseline sessions drift by ±3%; the candidate's one session is 40%
  // slower: far beyond the drift, although a rank test would saturate.
  std::vector<double> levels;
  for (double session : {1.0, 1.03, 0.97, 1.02, 0.98}) {
    for (double rep : {1.0, 1.004, 0.996}) levels.push_back(session * rep);
  }
  const Metric base = M(Clustered(levels, 10, 80), std::vector<uint64_t>(15, 10), {3, 3, 3, 3, 3});
  const Metric cand = M(Clustered({1.4, 1.404, 1.396}, 10, 90), {10, 10, 10});
  const DesignEffect d = EstimateDesignEffect(base, cand);
  ASSERT_TRUE(d.usable);
  EXPECT_GT(d.factor, 5.0);
  EXPECT_NEAR(d.df, 4.0, 1.0);  // the baseline's sessions carry the drift estimate
  EXPECT_GT(d.t, 8.0);
  EXPECT_LT(d.p_value, 0.002);
}

TEST(DesignEffectTest, InflatedPValues) {
  EXPECT_DOUBLE_EQ(InflateTwoSidedP(0.01, 1.0), 0.01);
  // z = 4 with 4× the variance is z = 2.
  EXPECT_NEAR(InflateTwoSidedP(2 * NormalSf(4), 4.0), 2 * NormalSf(2), 1e-12);
  // The far tail keeps its precision: z = 12 → z = 6.
  EXPECT_NEAR(InflateTwoSidedP(2 * NormalSf(12), 4.0) / (2 * NormalSf(6)), 1.0, 1e-9);
  EXPECT_DOUBLE_EQ(InflateTwoSidedP(1.0, 9.0), 1.0);
  EXPECT_GT(InflateTwoSidedP(0.0, 4.0), 0.0);
}

}  // namespace
}  // namespace etbench
