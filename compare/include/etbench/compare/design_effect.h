#pragma once
// Clustered samples. The samples of one repetition (one process, one loaded
// method) share memory layout, cache state and clock frequency, so they move
// together; the repetitions of one session (one `etbench run`, minutes of
// one machine state) move together again. On the reference runtime the
// medians of repetitions of one operator differ by 5–30%, and the same
// suite run minutes apart on a shared VM drifts by several percent. Treating
// 2 × 30 such samples as 60 independent ones makes every test overconfident
// — the classic source of benchmark gates that cry wolf. This header
// measures the clustering (the design effect) and, when it matters, tests
// the change at the level of the clusters.

#include <cstdint>
#include <vector>

#include "etbench/compare/metrics.h"

namespace etbench {

/// From this design effect on, samples are clustered enough that the remedy
/// for noise is more repetitions or interleaving, not more iterations, and
/// the comparison uses ClusteredTest instead of the rank test.
inline constexpr double kClusteredDesignEffect = 1.5;

struct DesignEffect {
  /// Share of the variance that is between repetitions or sessions, in
  /// [0, 1] (the intra-cluster correlation).
  double icc = 0;
  /// The part of it that is between sessions (runs at different times).
  double session_share = 0;
  /// Variance of the comparison ÷ the variance under independence (≥ 1).
  double factor = 1;
  /// Repetitions and sessions that entered the estimate.
  std::size_t repetitions = 0;
  std::size_t sessions = 0;
  /// The cluster-level test of the change (valid when usable): Welch-type
  /// t on the log scale (raw scale when a sample is ≤ 0) with the variance
  /// of each side's mean from the variance components, Satterthwaite
  /// degrees of freedom, two-sided p.
  bool usable = false;
  double t = 0;
  double df = 0;
  double p_value = 1;

  /// The fitted variance components and design, kept so that WithIccFloor
  /// re-evaluates without refitting (valid when `fitted`).
  struct Model {
    double var_session = 0, var_rep = 0, var_within = 0;
    double df_session = 0, df_rep = 0, df_within = 0;
    /// Coefficients of the components in Var(mean c − mean b).
    double a_session = 0, a_rep = 0, a_within = 0;
    double inverse_n = 0;   // 1/n_b + 1/n_c
    double difference = 0;  // mean c − mean b (log scale when the test is)
    bool collapsed = false; // one sample per repetition: the levels shifted
  };
  bool fitted = false;
  Model model;
};

/// A three-level random-effects model (session > repetition > sample) on
/// the log values, estimated by nested ANOVA *within each side* (a
/// cluster's mean against its own side's mean, so that a change between the
/// sides is not mistaken for clustering):
///   σ²_w = MS_within, σ²_rep = (MS_rep − MS_within)/k̄, σ²_session =
///   (MS_session − MS_rep)/n̄_session (each ≥ 0; 0 without the degrees of
///   freedom to estimate it),
/// then each side's variance of its mean σ²_s/S + σ²_rep/R + σ²_w/N against
/// independence σ²/N. A side with one session gets the full session
/// variance estimated from the other side: a gate's candidate is one draw of
/// the machine's state. A side without usable group sizes is taken as
/// independent. Uses Metric::samples, group_sizes and session_sizes.
DesignEffect EstimateDesignEffect(const Metric& baseline, const Metric& candidate);

/// `estimate` with a pooled intra-cluster correlation (estimated over many
/// metrics) as a floor: when the metric's own clustering came out lower,
/// its repetition variance is raised to give `min_icc` (as a well-estimated
/// component). Unchanged when not fitted or already at least as clustered.
DesignEffect WithIccFloor(const DesignEffect& estimate, double min_icc);

/// A two-sided p-value of a z test with its variance multiplied by `factor`:
/// 2·Φ̄(Φ̄⁻¹(p/2) / √factor).
double InflateTwoSidedP(double p, double factor);

}  // namespace etbench
