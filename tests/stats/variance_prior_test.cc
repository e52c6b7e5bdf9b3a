#include "etbench/stats/variance_prior.h"

#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace etbench {
namespace {

TEST(VariancePriorTest, PolygammaAndStudentTMatchTables) {
  EXPECT_NEAR(Digamma(1), -0.5772156649, 1e-9);
  EXPECT_NEAR(Digamma(0.5), -1.9635100260, 1e-9);
  EXPECT_NEAR(Trigamma(1), M_PI * M_PI / 6, 1e-9);
  EXPECT_NEAR(Trigamma(0.5), M_PI * M_PI / 2, 1e-8);
  EXPECT_NEAR(StudentUpperQuantile(0.025, 10), 2.228139, 1e-5);
  EXPECT_NEAR(StudentUpperQuantile(0.05, 4), 2.131847, 1e-5);
  EXPECT_NEAR(StudentUpperP(2.228139, 10), 0.025, 1e-6);
  EXPECT_NEAR(StudentUpperP(-2.228139, 10), 0.975, 1e-6);
  EXPECT_NEAR(StudentUpperQuantile(0.05, std::numeric_limits<double>::infinity()), 1.644854, 1e-5);
}

TEST(VariancePriorTest, RecoversAKnownPriorFromScaledInverseChiSquareVariances) {
  // s² ~ s0²·d0/χ²(d0) per metric, then 4 df of sampling: the fit returns
  // d0 and s0² near the truth.
  std::mt19937 rng(7);
  std::chi_squared_distribution<double> prior_chi(20), sample_chi(4);
  std::vector<double> s2, df;
  for (int i = 0; i < 4000; ++i) {
    const double sigma2 = 0.0004 * 20 / prior_chi(rng);
    s2.push_back(sigma2 * sample_chi(rng) / 4);
    df.push_back(4);
  }
  const VariancePrior prior = FitVariancePrior(s2, df);
  EXPECT_NEAR(prior.d0, 20, 6);
  EXPECT_NEAR(prior.s0_squared, 0.0004, 0.00004);
  // Equal true variances: no excess spread beyond chance, a prior weight
  // far above the metrics' own 4 df (infinite when the excess is ≤ 0).
  std::vector<double> same;
  for (int i = 0; i < 4000; ++i) same.push_back(0.0004 * sample_chi(rng) / 4);
  EXPECT_GT(FitVariancePrior(same, df).d0, 100);
  EXPECT_TRUE(std::isinf(FitVariancePrior({1, 1, 1, 1}, {4, 4, 4, 4}).d0));
  // Too few variances: no prior.
  EXPECT_EQ(FitVariancePrior({0.1, 0.2}, {4, 4}).d0, 0);
}

TEST(VariancePriorTest, ModeratedVarianceIsTheWeightedMeanOfPriorAndOwn) {
  VariancePrior prior{4, 1.0};
  EXPECT_DOUBLE_EQ(ModeratedVariance(prior, 3.0, 4), 2.0);
  EXPECT_DOUBLE_EQ(ModeratedVariance(VariancePrior{}, 3.0, 4), 3.0);
  EXPECT_DOUBLE_EQ(
      ModeratedVariance(VariancePrior{std::numeric_limits<double>::infinity(), 1.0}, 3.0, 4), 1.0);
}

}  // namespace
}  // namespace etbench
