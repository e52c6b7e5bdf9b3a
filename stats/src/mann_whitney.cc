// Mann–Whitney U: midranks over the merged sorted samples, exact null
// distribution for small samples without ties, normal approximation with
// tie and continuity correction otherwise.

#include "etbench/stats/mann_whitney.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "etbench/stats/stats.h"

namespace etbench {

// Number of arrangements giving each U in 0..n_a·n_b: the coefficients of
// the Gaussian binomial [n_a + n_b choose n_a]_q, built by multiplying by
// (1 − q^(n_b + i)) and dividing by (1 − q^i) for i = 1..n_a. Exact in
// int64 for sizes up to kMannWhitneyExactMaxSize (C(40, 20) < 2^38).
std::vector<int64_t> MannWhitneyExactCounts(std::size_t n_a, std::size_t n_b) {
  const std::size_t max_u = n_a * n_b;
  std::vector<int64_t> c(max_u + 1, 0);
  c[0] = 1;
  for (std::size_t i = 1; i <= n_a; ++i) {
    const std::size_t up = n_b + i;
    for (std::size_t u = max_u; u >= up; --u) {
      c[u] -= c[u - up];
      if (u == up) break;
    }
    for (std::size_t u = i; u <= max_u; ++u) c[u] += c[u - i];
  }
  return c;
}

MannWhitneyResult MannWhitneyU(const std::vector<double>& sorted_a,
                               const std::vector<double>& sorted_b) {
  MannWhitneyResult result;
  const std::size_t n_a = sorted_a.size();
  const std::size_t n_b = sorted_b.size();
  if (n_a == 0 || n_b == 0) return result;

  // Walk both sorted samples; each run of equal values gets its midrank.
  double rank_sum_b = 0;
  double tie_term = 0;  // Σ (t³ − t)
  std::size_t i = 0, j = 0, rank = 0;
  while (i < n_a || j < n_b) {
    const double v = (j >= n_b || (i < n_a && sorted_a[i] <= sorted_b[j])) ? sorted_a[i]
                                                                           : sorted_b[j];
    std::size_t count_a = 0, count_b = 0;
    while (i < n_a && sorted_a[i] == v) ++i, ++count_a;
    while (j < n_b && sorted_b[j] == v) ++j, ++count_b;
    const std::size_t t = count_a + count_b;
    const double midrank = static_cast<double>(rank) + (static_cast<double>(t) + 1) / 2;
    rank_sum_b += midrank * static_cast<double>(count_b);
    const double td = static_cast<double>(t);
    tie_term += td * td * td - td;
    rank += t;
  }
  const double na = static_cast<double>(n_a), nb = static_cast<double>(n_b);
  result.u = rank_sum_b - nb * (nb + 1) / 2;
  result.prob_superiority = result.u / (na * nb);
  const double mean = na * nb / 2;

  if (tie_term == 0 && n_a <= kMannWhitneyExactMaxSize && n_b <= kMannWhitneyExactMaxSize) {
    const std::vector<int64_t> counts = MannWhitneyExactCounts(n_a, n_b);
    const int64_t u = static_cast<int64_t>(std::llround(result.u));
    double total = 0, at_most = 0;
    for (std::size_t k = 0; k < counts.size(); ++k) {
      total += static_cast<double>(counts[k]);
      if (static_cast<int64_t>(k) <= u) at_most += static_cast<double>(counts[k]);
    }
    // P(U ≥ u) = P(U ≤ n_a·n_b − u) by symmetry.
    double at_least = 0;
    for (std::size_t k = static_cast<std::size_t>(u); k < counts.size(); ++k) {
      at_least += static_cast<double>(counts[k]);
    }
    result.p_value = std::min(1.0, 2 * std::min(at_most, at_least) / total);
    result.exact = true;
    return result;
  }

  const double n = na + nb;
  const double variance = na * nb / 12 * ((n + 1) - tie_term / (n * (n - 1)));
  if (variance <= 0) {
    result.p_value = 1;  // every value tied: no evidence of any shift
    return result;
  }
  const double z = (std::fabs(result.u - mean) - 0.5) / std::sqrt(variance);
  result.p_value = std::min(1.0, 2 * NormalSf(z));
  return result;
}

MannWhitneyResult MannWhitneyUUnsorted(std::vector<double> a, std::vector<double> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  return MannWhitneyU(a, b);
}

}  // namespace etbench
