#pragma once
// Summary statistics that comparisons gate on, and the few distribution
// functions the comparison needs (standard normal tail and quantile,
// Student's t two-sided tail).

#include <optional>
#include <string>
#include <vector>

namespace etbench {

/// A statistic of a metric's samples. Percentiles use numpy's default
/// ('linear') method and avg numpy's pairwise mean, as the inspector does.
enum class Statistic { kP10, kP50, kP90, kAvg, kMin, kMax };

/// "p10", "p50", "p90", "avg", "min", "max".
const char* StatisticName(Statistic statistic);

/// Inverse of StatisticName; nullopt for anything else.
std::optional<Statistic> ParseStatistic(const std::string& name);

/// The quantile level (0..1) of an order statistic: p10 → 0.1, min → 0,
/// max → 1; nullopt for avg.
std::optional<double> StatisticQuantile(Statistic statistic);

/// The statistic of `sorted` (ascending, non-empty).
double ComputeStatistic(const std::vector<double>& sorted, Statistic statistic);
/// The same of `samples` in any order (sorts a copy; non-empty).
double StatisticOf(std::vector<double> samples, Statistic statistic);

/// Median absolute deviation from the median, scaled by 1.4826 (a robust
/// estimate of the standard deviation under normality). `sorted` non-empty.
double RobustSigma(const std::vector<double>& sorted);

/// P(Z > z) for a standard normal Z, accurate in the far tail.
double NormalSf(double z);

/// The standard normal quantile: Φ⁻¹(p) for p in (0, 1).
double NormalQuantile(double p);

/// P(|T| > |t|) for Student's t with `df` > 0 degrees of freedom; 1 for a
/// NaN t or df ≤ 0, 0 for an infinite t.
double StudentTwoSidedP(double t, double df);

}  // namespace etbench
