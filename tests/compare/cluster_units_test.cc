#include "etbench/compare/cluster_units.h"

#include <gtest/gtest.h>

#include <cmath>

#include "support/compare_test_util.h"

namespace etbench {
namespace {

using testing::EventMetric;

// `levels`: per session, per repetition, the value every one of its
// `per_rep` samples is close to (± 1%).
Metric Clustered(const std::vector<std::vector<double>>& levels, int per_rep) {
  Metric m = EventMetric("native_call_op.out", 0, {});
  for (const auto& session : levels) {
    m.session_sizes.push_back(session.size());
    for (double level : session) {
      m.group_sizes.push_back(static_cast<uint64_t>(per_rep));
      for (int i = 0; i < per_rep; ++i) m.samples.push_back(level * (0.99 + 0.02 * i / per_rep));
    }
  }
  return m;
}

TEST(ClusterUnitsTest, RepetitionsAreTheUnitsAsLogMedians) {
  const Metric b = Clustered({{1.0, 2.0, 4.0}}, 5);
  const Metric c = Clustered({{1.0, 1.0}}, 5);
  const ClusterUnits u = BuildClusterUnits(b, c, Statistic::kP50, true, 0.05);
  EXPECT_EQ(u.level, ClusterLevel::kRepetition);
  EXPECT_TRUE(u.log_scale);
  ASSERT_EQ(u.baseline.size(), 3u);
  ASSERT_EQ(u.candidate.size(), 2u);
  // Median of 0.99, 0.994, 0.998, 1.002, 1.006 (× level) is 0.998 × level.
  EXPECT_NEAR(u.baseline[0], std::log(0.998), 1e-12);
  EXPECT_NEAR(u.baseline[2], std::log(4 * 0.998), 1e-12);
  EXPECT_FALSE(u.drift_measured);  // one baseline session
}

TEST(ClusterUnitsTest, WithoutRepetitionsOnBothSidesSamplesAreTheUnits) {
  const Metric b = Clustered({{1.0, 2.0}}, 3);
  Metric c = EventMetric("native_call_op.out", 0, {1, 2, 3, 4});
  const ClusterUnits u = BuildClusterUnits(b, c, Statistic::kP50, true, 0.05);
  EXPECT_EQ(u.level, ClusterLevel::kSample);
  EXPECT_EQ(u.baseline.size(), 6u);
  EXPECT_EQ(u.candidate.size(), 4u);
  // Framework tax (amounts): no logs.
  EXPECT_FALSE(BuildClusterUnits(b, c, Statistic::kP50, false, 0.05).log_scale);
}

TEST(ClusterUnitsTest, ADriftingBaselineMeetsTheCandidateAtItsNearestSession) {
  // Three nights: 1.0, 1.1, 1.2 with repetitions agreeing within 0.1%.
  const Metric b = Clustered({{1.0, 1.001, 0.999}, {1.1, 1.101, 1.099}, {1.2, 1.2, 1.201}}, 4);
  const Metric c = Clustered({{1.5, 1.5, 1.501}}, 4);
  const ClusterUnits u = BuildClusterUnits(b, c, Statistic::kP50, true, std::log1p(0.05) / 2);
  EXPECT_TRUE(u.drift_measured);
  EXPECT_TRUE(u.drifting);
  EXPECT_EQ(u.level, ClusterLevel::kRepetition);
  EXPECT_EQ(u.nearest_session, 2u);
  ASSERT_EQ(u.baseline.size(), 3u);  // the third night's repetitions (median of 4: 0.9975 x level)
  EXPECT_NEAR(u.baseline[0], std::log(1.2 * 0.9975), 1e-12);
  EXPECT_EQ(u.candidate.size(), 3u);
  EXPECT_TRUE(u.candidate_outside);
  EXPECT_EQ(u.baseline_sessions, 3u);
  EXPECT_NEAR(u.session_range, std::log(1.2 / 1.0), 0.01);
  EXPECT_LT(u.within_sigma, 0.002);
  // A candidate between the nights meets the nearest one and is inside.
  const Metric middle = Clustered({{1.09, 1.09}}, 4);
  const ClusterUnits m = BuildClusterUnits(b, middle, Statistic::kP50, true, std::log1p(0.05) / 2);
  EXPECT_EQ(m.nearest_session, 1u);
  EXPECT_FALSE(m.candidate_outside);

  // Sessions within half the threshold of each other: repetitions stay the unit.
  const Metric quiet = Clustered({{1.0, 1.001}, {1.01, 1.011}, {1.005, 1.0}}, 4);
  const ClusterUnits q = BuildClusterUnits(quiet, c, Statistic::kP50, true, std::log1p(0.05) / 2);
  EXPECT_TRUE(q.drift_measured);
  EXPECT_FALSE(q.drifting);
  EXPECT_EQ(q.level, ClusterLevel::kRepetition);
  EXPECT_EQ(q.baseline.size(), 6u);

  // Sessions apart by as much as their repetitions scatter: noise, not drift.
  const Metric noisy = Clustered({{1.0, 1.3}, {1.1, 1.4}, {1.2, 0.95}}, 4);
  EXPECT_FALSE(BuildClusterUnits(noisy, c, Statistic::kP50, true, std::log1p(0.05) / 2).drifting);
}

TEST(ClusterUnitsTest, ACandidateOfSeveralSessionsIsComparedWhole) {
  // The drifting nights of the test above as the candidate too: it samples
  // machine states itself, so nothing is narrowed and a self-comparison
  // has identical units on both sides.
  const Metric b = Clustered({{1.0, 1.001, 0.999}, {1.1, 1.101, 1.099}, {1.2, 1.2, 1.201}}, 4);
  const ClusterUnits u = BuildClusterUnits(b, b, Statistic::kP50, true, std::log1p(0.05) / 2);
  EXPECT_FALSE(u.drift_measured);
  EXPECT_FALSE(u.drifting);
  EXPECT_EQ(u.baseline.size(), 9u);
  EXPECT_EQ(u.baseline, u.candidate);
}

TEST(ClusterUnitsTest, TheRowStatisticIsTakenPerRepetition) {
  const Metric b = Clustered({{1.0, 2.0}}, 11);
  const ClusterUnits u = BuildClusterUnits(b, b, Statistic::kMax, true, 0.05);
  // Max of 0.99 + 0.02·i/11, i < 11, is 0.99 + 0.02·10/11.
  EXPECT_NEAR(u.baseline[0], std::log(0.99 + 0.02 * 10 / 11.0), 1e-12);
}

}  // namespace
}  // namespace etbench
