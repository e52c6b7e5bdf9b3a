// Mann–Whitney test, Hodges–Lehmann shift and interval from one null
// distribution (see rank_shift.h and docs/comparison.md).

#include "etbench/stats/rank_shift.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "etbench/stats/mann_whitney.h"
#include "etbench/stats/rng.h"
#include "etbench/stats/stats.h"

namespace etbench {

RankShiftDistribution::RankShiftDistribution(std::size_t m, std::size_t n) : m_(m), n_(n) {
  if (m == 0 || n == 0 || m > kMannWhitneyExactMaxSize || n > kMannWhitneyExactMaxSize) return;
  const std::vector<int64_t> counts = MannWhitneyExactCounts(m, n);
  double total = 0;
  for (int64_t c : counts) total += static_cast<double>(c);
  cdf_.resize(counts.size());
  double sum = 0;
  for (std::size_t u = 0; u < counts.size(); ++u) {
    sum += static_cast<double>(counts[u]);
    cdf_[u] = sum / total;
  }
}

double RankShiftDistribution::Cdf(double u) const {
  const double mn = static_cast<double>(m_) * static_cast<double>(n_);
  if (u < 0) return 0;
  if (u >= mn) return 1;
  const double floor_u = std::floor(u);
  if (!cdf_.empty()) return cdf_[static_cast<std::size_t>(floor_u)];
  const double sd = std::sqrt(mn * (static_cast<double>(m_ + n_) + 1) / 12);
  return NormalSf((mn / 2 - floor_u - 0.5) / sd);
}

PairwiseDifferences::PairwiseDifferences(std::vector<double> x, std::vector<double> y)
    : x_(std::move(x)), y_(std::move(y)) {}

// Both counts walk y upwards: y_j − x_i grows with j, so the boundary in x
// only moves right. Floating-point subtraction is monotone in each operand,
// so the counts agree with Select's order exactly.
std::size_t PairwiseDifferences::CountAtMost(double t) const {
  const std::size_t m = x_.size();
  std::size_t total = 0, i = 0;  // i: first x with y_j − x_i ≤ t
  for (double y : y_) {
    while (i < m && !(y - x_[i] <= t)) ++i;
    total += m - i;
  }
  return total;
}

std::size_t PairwiseDifferences::CountAtLeast(double t) const {
  const std::size_t m = x_.size();
  std::size_t total = 0, i = 0;  // i: first x with y_j − x_i < t
  for (double y : y_) {
    while (i < m && y - x_[i] >= t) ++i;
    total += i;
  }
  return total;
}

// Selection in the implicit matrix row j = y_j, column c = x_(m−1−c)
// (rows and columns ascending): a random active element as pivot, every
// row's count below and at the pivot, and the active column range of each
// row narrowed to the side holding the answer. Elements left of a row's
// range are below the answer, right of it above.
double PairwiseDifferences::Select(std::size_t k) const {
  const std::size_t m = x_.size(), n = y_.size();
  const auto value = [&](std::size_t j, std::size_t c) { return y_[j] - x_[m - 1 - c]; };
  std::vector<std::size_t> left(n, 0), right(n, m), lt(n), le(n);
  uint64_t state = 0x9e3779b97f4a7c15ULL ^ (m * 1000003u + n);
  // Few enough left to sort directly: a pass over the rows costs as much.
  const std::size_t small = std::max<std::size_t>(64, m + n);
  std::size_t active = m * n, below = 0;
  std::vector<double> rest;
  for (;;) {
    if (active <= small) {
      rest.clear();
      for (std::size_t j = 0; j < n; ++j) {
        for (std::size_t c = left[j]; c < right[j]; ++c) rest.push_back(value(j, c));
      }
      const std::size_t at = k - below - 1;
      std::nth_element(rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(at), rest.end());
      return rest[at];
    }
    // The pivot: in a row drawn with probability ∝ its active width, the
    // element at the target's relative rank among the active ones (rows
    // are sorted, so it estimates the target's value and few rounds are
    // needed). It is active, so every round removes at least itself.
    const double target = static_cast<double>(k - below) / static_cast<double>(active);
    std::size_t pick = static_cast<std::size_t>(internal::SplitMix64(state) % active);
    double pivot = 0;
    for (std::size_t j = 0; j < n; ++j) {
      const std::size_t width = right[j] - left[j];
      if (pick < width) {
        const auto at = static_cast<std::size_t>(target * static_cast<double>(width));
        pivot = value(j, left[j] + std::min(width - 1, at));
        break;
      }
      pick -= width;
    }
    // Per row, the columns below the pivot (lt) and up to it (le); rows
    // grow with j, so both boundaries only move left.
    std::size_t count_lt = 0, count_le = 0;
    for (std::size_t j = 0, b_lt = m, b_le = m; j < n; ++j) {
      while (b_le > 0 && !(value(j, b_le - 1) <= pivot)) --b_le;
      if (b_lt > b_le) b_lt = b_le;
      while (b_lt > 0 && !(value(j, b_lt - 1) < pivot)) --b_lt;
      lt[j] = b_lt;
      le[j] = b_le;
      count_lt += b_lt;
      count_le += b_le;
    }
    if (count_lt < k && k <= count_le) return pivot;
    const bool lower = k <= count_lt;
    active = 0;
    below = 0;
    for (std::size_t j = 0; j < n; ++j) {
      if (lower) {
        right[j] = std::min(right[j], lt[j]);
      } else {
        left[j] = std::max(left[j], le[j]);
      }
      if (right[j] < left[j]) right[j] = left[j];
      active += right[j] - left[j];
      below += left[j];
    }
  }
}

double PairwiseDifferences::Next(double v) const {
  // Per row the first column above v; rows grow with j, so it moves left.
  const std::size_t m = x_.size();
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t j = 0, i = 0; j < y_.size(); ++j) {
    // i: first x (ascending) with y_j − x_i ≤ v; x_(i−1) gives the
    // smallest difference above v in this row.
    while (i < m && !(y_[j] - x_[i] <= v)) ++i;
    if (i > 0) best = std::min(best, y_[j] - x_[i - 1]);
  }
  return best;
}

double PairwiseDifferences::Median() const {
  const std::size_t total = size();
  const double lower = Select((total + 1) / 2);
  if (total % 2 == 1) return lower;
  // The upper middle: the same value, or the smallest one above it.
  const double upper = CountAtMost(lower) >= total / 2 + 1 ? lower : Next(lower);
  return 0.5 * (lower + upper);
}

RankShiftInference RankShift(const PairwiseDifferences& d, const RankShiftDistribution& null) {
  RankShiftInference r;
  if (d.size() == 0) return r;
  r.estimate = d.Median();
  r.at_most_zero = d.CountAtMost(0.0);
  r.at_least_zero = d.CountAtLeast(0.0);
  const auto le = static_cast<double>(r.at_most_zero);
  const auto ge = static_cast<double>(r.at_least_zero);
  r.p_value = std::min(1.0, 2 * null.Cdf(std::min(le, ge)));
  return r;
}

std::pair<double, double> RankShiftInterval(const PairwiseDifferences& d,
                                            const RankShiftDistribution& null, double a) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const std::size_t total = d.size();
  // The same expression as RankShift's p (a < 1 makes its min irrelevant).
  const auto rejects = [&](std::size_t x) { return 2 * null.Cdf(static_cast<double>(x)) <= a; };
  if (total == 0 || a >= 1 || !rejects(0)) return {-kInf, kInf};
  std::size_t lo = 0, hi = total;  // rejects(lo), !rejects(hi): 2·F(M) = 2
  while (hi - lo > 1) {
    const std::size_t mid = lo + (hi - lo) / 2;
    (rejects(mid) ? lo : hi) = mid;
  }
  const std::size_t k = lo + 1;
  if (k > total + 1 - k) return {-kInf, kInf};
  return {d.Select(k), d.Select(total + 1 - k)};
}

double SmallestTwoSidedP(std::size_t m, std::size_t n) {
  // 2 / C(m + n, m), as a product that stays in range.
  double p = 2;
  const std::size_t small = std::min(m, n), big = std::max(m, n);
  for (std::size_t i = 1; i <= small; ++i) {
    p *= static_cast<double>(i) / static_cast<double>(big + i);
  }
  return std::min(1.0, p);
}

std::size_t ClustersPerSideNeeded(double a, std::size_t cap) {
  for (std::size_t n = 1; n < cap; ++n) {
    if (SmallestTwoSidedP(n, n) <= a) return n;
  }
  return cap;
}

}  // namespace etbench
