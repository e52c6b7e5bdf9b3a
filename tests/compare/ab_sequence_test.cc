#include "etbench/compare/ab_sequence.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "support/compare_test_util.h"

namespace etbench {
namespace {

using etbench::testing::EventMetric;

// One run: Method::execute and one kernel, 20 executions at CV 0.5%.
MetricSet Run(std::mt19937_64& rng, double factor) {
  std::normal_distribution<double> noise(0, 0.005);
  std::vector<double> op(20), total(20);
  for (std::size_t s = 0; s < op.size(); ++s) {
    op[s] = 0.3 * factor * std::exp(noise(rng));
    total[s] = op[s] + 0.05;
  }
  MetricSet set;
  set.context = {{"time_source", "ns"}, {"unit", "ms"}};
  set.metrics.push_back(EventMetric("native_call_convolution.out", 0, op));
  set.metrics.push_back(EventMetric("Method::execute", -1, total, /*end_to_end=*/true));
  return set;
}

// Feeds ABBA blocks, one second per run, until the sequence says stop.
std::size_t Feed(AbSequence& sequence, std::size_t max_runs, double b_factor, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::vector<AbVariant> order = AbbaSchedule(static_cast<int>(max_runs / 4), seed);
  for (std::size_t i = 0; i < max_runs; ++i) {
    const AbVariant v = order[i];
    auto stop = sequence.Add(Run(rng, v == AbVariant::kB ? b_factor : 1.0), v, i + 1.0);
    EXPECT_TRUE(stop.ok());
    if (*stop) return i + 1;
  }
  return max_runs;
}

TEST(AbSequenceTest, FixedBlocksRunEveryBlockAndJudgeOnceAtTheEnd) {
  const Thresholds thresholds = DefaultThresholds();
  AbSequence sequence(3, /*sequential=*/false, 1e9, &thresholds, 0);
  EXPECT_EQ(Feed(sequence, 12, 1.0, 1), 12u);
  sequence.Finish();
  EXPECT_EQ(sequence.blocks(), 3u);
  EXPECT_FALSE(sequence.budget_spent());
  auto a = sequence.Side(AbVariant::kA);
  auto b = sequence.Side(AbVariant::kB);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->metrics[0].samples.size(), 6 * 20u);  // 6 runs of A
  auto c = sequence.Compare(*a, *b, 12);
  ASSERT_TRUE(c.ok()) << c.error().message;
  for (const MetricComparison& row : c->rows) EXPECT_EQ(CheckRowConsistency(row), "");
}

TEST(AbSequenceTest, ALargeSlowdownStopsAtAScheduledLookBeforeTheBudget) {
  const Thresholds thresholds = DefaultThresholds();
  AbSequence sequence(40, /*sequential=*/true, 1e9, &thresholds, 0);
  const std::size_t runs = Feed(sequence, 160, 1.5, 2);
  sequence.Finish();
  EXPECT_LT(runs, 160u);
  EXPECT_EQ(runs % 4, 0u);
  const std::vector<std::size_t> looks = LookSchedule(40);
  EXPECT_NE(std::find(looks.begin(), looks.end(), sequence.kept_blocks()), looks.end());
  EXPECT_FALSE(sequence.budget_spent());
  auto c = sequence.Compare(*sequence.Side(AbVariant::kA), *sequence.Side(AbVariant::kB), runs);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->outcome, GateOutcome::kRegression);
  for (const MetricComparison& row : c->rows) {
    EXPECT_EQ(CheckRowConsistency(row), "");
    if (row.gated) {
      EXPECT_TRUE(row.decided) << row.label;
    }
  }
}

TEST(AbSequenceTest, ABudgetTooShortForASecondBlockStopsAfterTheFirstUndecided) {
  const Thresholds thresholds = DefaultThresholds();
  // 4 s per block, 6 s of budget: a second block would end past it.
  AbSequence sequence(40, /*sequential=*/true, 6, &thresholds, 0);
  EXPECT_EQ(Feed(sequence, 160, 1.0, 3), 4u);
  sequence.Finish();
  EXPECT_EQ(sequence.blocks(), 1u);
  EXPECT_TRUE(sequence.budget_spent());
  auto c = sequence.Compare(*sequence.Side(AbVariant::kA), *sequence.Side(AbVariant::kB), 4);
  ASSERT_TRUE(c.ok());
  // One block decides nothing: not "pass", not "regression".
  EXPECT_EQ(c->outcome, GateOutcome::kInconclusive);
  for (const MetricComparison& row : c->rows) EXPECT_EQ(CheckRowConsistency(row), "");
}

}  // namespace
}  // namespace etbench
