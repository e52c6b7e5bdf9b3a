// Statistics of sorted samples, standard normal and Student's t functions.

#include "etbench/stats/stats.h"

#include <algorithm>
#include <cmath>

#include "etbench/inspector/perf_data.h"

namespace etbench {

const char* StatisticName(Statistic statistic) {
  switch (statistic) {
    case Statistic::kP10: return "p10";
    case Statistic::kP50: return "p50";
    case Statistic::kP90: return "p90";
    case Statistic::kAvg: return "avg";
    case Statistic::kMin: return "min";
    case Statistic::kMax: return "max";
  }
  return "?";
}

std::optional<Statistic> ParseStatistic(const std::string& name) {
  for (Statistic s : {Statistic::kP10, Statistic::kP50, Statistic::kP90, Statistic::kAvg,
                      Statistic::kMin, Statistic::kMax}) {
    if (name == StatisticName(s)) return s;
  }
  return std::nullopt;
}

std::optional<double> StatisticQuantile(Statistic statistic) {
  switch (statistic) {
    case Statistic::kP10: return 0.1;
    case Statistic::kP50: return 0.5;
    case Statistic::kP90: return 0.9;
    case Statistic::kMin: return 0.0;
    case Statistic::kMax: return 1.0;
    case Statistic::kAvg: return std::nullopt;
  }
  return std::nullopt;
}

double ComputeStatistic(const std::vector<double>& sorted, Statistic statistic) {
  switch (statistic) {
    case Statistic::kAvg: return NumpyMean(sorted.data(), sorted.size());
    case Statistic::kMin: return sorted.front();
    case Statistic::kMax: return sorted.back();
    default: return Percentile(sorted, *StatisticQuantile(statistic) * 100.0);
  }
}

double StatisticOf(std::vector<double> samples, Statistic statistic) {
  std::sort(samples.begin(), samples.end());
  return ComputeStatistic(samples, statistic);
}

double RobustSigma(const std::vector<double>& sorted) {
  const double median = Percentile(sorted, 50.0);
  // The deviations of a sorted sample are two sorted runs (descending below
  // the median, ascending above it): merge them instead of sorting.
  const std::size_t split = static_cast<std::size_t>(
      std::lower_bound(sorted.begin(), sorted.end(), median) - sorted.begin());
  std::vector<double> deviations;
  deviations.reserve(sorted.size());
  std::size_t lo = split, hi = split;  // lo walks down, hi walks up
  while (lo > 0 || hi < sorted.size()) {
    const double below = lo > 0 ? median - sorted[lo - 1] : INFINITY;
    const double above = hi < sorted.size() ? sorted[hi] - median : INFINITY;
    if (below <= above) {
      deviations.push_back(below);
      --lo;
    } else {
      deviations.push_back(above);
      ++hi;
    }
  }
  return 1.4826 * Percentile(deviations, 50.0);
}

double NormalSf(double z) { return 0.5 * std::erfc(z / std::sqrt(2.0)); }

double NormalQuantile(double p) {
  // Acklam's rational approximation (|error| < 1.2e-9), then one Halley
  // step against erfc for full double precision.
  static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                             -2.759285104469687e+02, 1.383577518672690e+02,
                             -3.066479806614716e+01, 2.506628277459239e+00};
  static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                             -1.556989798598866e+02, 6.680131188771972e+01,
                             -1.328068155288572e+01};
  static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                             -2.400758277161838e+00, -2.549732539343734e+00,
                             4.374664141464968e+00,  2.938163982698783e+00};
  static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
                             2.445134137142996e+00, 3.754408661907416e+00};
  if (p <= 0) return -INFINITY;
  if (p >= 1) return INFINITY;
  const double low = 0.02425;
  double x;
  if (p < low) {
    const double q = std::sqrt(-2 * std::log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else if (p <= 1 - low) {
    const double q = p - 0.5;
    const double r = q * q;
    x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  } else {
    const double q = std::sqrt(-2 * std::log1p(-p));
    x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  const double e = 0.5 * std::erfc(-x / std::sqrt(2.0)) - p;
  const double u = e * std::sqrt(2 * M_PI) * std::exp(x * x / 2);
  return x - u / (1 + x * u / 2);
}

namespace {

// Continued fraction of the regularized incomplete beta (Lentz).
double BetaContinuedFraction(double a, double b, double x) {
  const double tiny = 1e-300;
  double c = 1, d = 1 - (a + b) * x / (a + 1);
  if (std::fabs(d) < tiny) d = tiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m <= 300; ++m) {
    const double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (std::fabs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (std::fabs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1 / d;
    const double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1) < 1e-15) break;
  }
  return h;
}

// I_x(a, b).
double RegularizedBeta(double x, double a, double b) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) +
                                a * std::log(x) + b * std::log1p(-x));
  if (x < (a + 1) / (a + b + 2)) return front * BetaContinuedFraction(a, b, x) / a;
  return 1 - front * BetaContinuedFraction(b, a, 1 - x) / b;
}

}  // namespace

double StudentTwoSidedP(double t, double df) {
  if (std::isnan(t) || !(df > 0)) return 1;
  if (std::isinf(t)) return 0;
  return std::clamp(RegularizedBeta(df / (df + t * t), df / 2, 0.5), 0.0, 1.0);
}

}  // namespace etbench
