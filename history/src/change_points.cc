#include "etbench/history/change_points.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "etbench/stats/stats.h"

namespace etbench::history {
namespace {

// Fenwick tree over value ranks holding counts and sums, for Σ|x − y_i|
// over the values inserted so far in O(log n).
class AbsSumTree {
 public:
  explicit AbsSumTree(std::size_t n) : count_(n + 1, 0), sum_(n + 1, 0) {}
  void Insert(std::size_t rank, double value) {
    for (std::size_t i = rank + 1; i < count_.size(); i += i & (~i + 1)) {
      ++count_[i];
      sum_[i] += value;
    }
    ++total_count_;
    total_sum_ += value;
  }
  // Σ |value − y| over inserted y; `rank` is value's rank.
  double AbsDistanceSum(std::size_t rank, double value) const {
    double below_count = 0, below_sum = 0;
    for (std::size_t i = rank; i > 0; i -= i & (~i + 1)) {
      below_count += count_[i];
      below_sum += sum_[i];
    }
    const double above_count = total_count_ - below_count;
    const double above_sum = total_sum_ - below_sum;
    return (below_count * value - below_sum) + (above_sum - above_count * value);
  }

 private:
  std::vector<double> count_;
  std::vector<double> sum_;
  double total_count_ = 0;
  double total_sum_ = 0;
};

struct Moments {
  double mean = 0;
  double variance = 0;  // sample variance (n − 1)
};

Moments MomentsOf(const double* begin, const double* end) {
  const double n = static_cast<double>(end - begin);
  Moments m;
  m.mean = std::accumulate(begin, end, 0.0) / n;
  double ss = 0;
  for (const double* p = begin; p != end; ++p) ss += (*p - m.mean) * (*p - m.mean);
  m.variance = n > 1 ? ss / (n - 1) : 0;
  return m;
}

// Yuen's trimmed-mean t-test (20% trimmed each side, winsorised variances
// pooled), two-sided. Trimming makes it robust to runs hit by background
// load on a shared machine (up to a fifth of a segment), where a plain
// t-test's variance explodes. The variance is pooled because right after a
// change the new side has only min_segment values, too few for its own.
double TrimmedTP(const double* left, const double* middle, const double* right) {
  struct Side {
    double trimmed_mean = 0;
    double winsorized_ss = 0;  // Σ (w − mean(w))²
    double kept = 0;           // values left after trimming
  };
  auto side = [](const double* begin, const double* end) {
    std::vector<double> x(begin, end);
    std::sort(x.begin(), x.end());
    const std::size_t n = x.size(), g = n / 5;
    Side s;
    s.kept = static_cast<double>(n - 2 * g);
    s.trimmed_mean = std::accumulate(x.begin() + static_cast<std::ptrdiff_t>(g),
                                     x.end() - static_cast<std::ptrdiff_t>(g), 0.0) /
                     s.kept;
    for (std::size_t i = 0; i < g; ++i) {
      x[i] = x[g];
      x[n - 1 - i] = x[n - 1 - g];
    }
    const Moments w = MomentsOf(x.data(), x.data() + n);
    s.winsorized_ss = w.variance * static_cast<double>(n - 1);
    return s;
  };
  const Side a = side(left, middle), b = side(middle, right);
  const double df = a.kept + b.kept - 2;
  const double pooled = (a.winsorized_ss + b.winsorized_ss) / df;
  const double se = std::sqrt(pooled * (1 / a.kept + 1 / b.kept));
  const double diff = std::fabs(a.trimmed_mean - b.trimmed_mean);
  if (!(se > 0)) return diff > 0 ? 0.0 : 1.0;  // both sides constant
  return StudentTwoSidedP(diff / se, df);
}

}  // namespace

double TrimmedTwoSampleP(std::vector<double> a, std::vector<double> b) {
  if (a.size() < 2 || b.size() < 2) return 1;
  const std::size_t n = a.size();
  a.insert(a.end(), b.begin(), b.end());
  return TrimmedTP(a.data(), a.data() + n, a.data() + a.size());
}

SplitTest BestSplit(const std::vector<double>& values, std::size_t begin, std::size_t end,
                    std::size_t min_segment) {
  SplitTest best;
  min_segment = std::max<std::size_t>(min_segment, 2);
  if (end < begin + 2 * min_segment) return best;
  const std::size_t m = end - begin;
  // Logs make changes relative; series with zeros (allocations, a framework
  // tax of 0%) stay as they are.
  const bool positive = std::all_of(values.begin() + static_cast<std::ptrdiff_t>(begin),
                                    values.begin() + static_cast<std::ptrdiff_t>(end),
                                    [](double v) { return v > 0; });
  std::vector<double> y(m);
  for (std::size_t i = 0; i < m; ++i) y[i] = positive ? std::log(values[begin + i]) : values[begin + i];

  std::vector<std::size_t> order(m), rank(m);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return y[a] < y[b]; });
  for (std::size_t r = 0; r < m; ++r) rank[order[r]] = r;

  // within_left[t] = Σ_{i<k<t} |y_i − y_k|, within_right[t] = Σ_{t≤i<k} |y_i − y_k|.
  std::vector<double> within_left(m + 1, 0), within_right(m + 1, 0);
  AbsSumTree left_tree(m), right_tree(m);
  for (std::size_t t = 0; t < m; ++t) {
    within_left[t + 1] = within_left[t] + left_tree.AbsDistanceSum(rank[t], y[t]);
    left_tree.Insert(rank[t], y[t]);
  }
  for (std::size_t t = m; t-- > 0;) {
    within_right[t] = within_right[t + 1] + right_tree.AbsDistanceSum(rank[t], y[t]);
    right_tree.Insert(rank[t], y[t]);
  }
  const double total = within_left[m];
  std::size_t best_t = 0;
  double best_q = -1;
  for (std::size_t t = min_segment; t + min_segment <= m; ++t) {
    const double n1 = static_cast<double>(t), n2 = static_cast<double>(m - t);
    const double between = total - within_left[t] - within_right[t];
    // Q = n1·n2/(n1+n2) · (2/(n1·n2)·Σ|x−y| − Σ|x−x'|/C(n1,2) − Σ|y−y'|/C(n2,2))
    const double q = n1 * n2 / (n1 + n2) *
                     (2 * between / (n1 * n2) - within_left[t] / (n1 * (n1 - 1) / 2) -
                      within_right[t] / (n2 * (n2 - 1) / 2));
    if (q > best_q) {
      best_q = q;
      best_t = t;
    }
  }
  const double candidates = static_cast<double>(m - 2 * min_segment + 1);
  best.index = begin + best_t;
  best.energy = best_q;
  best.p_value = std::min(1.0, candidates * TrimmedTP(y.data(), y.data() + best_t, y.data() + m));
  return best;
}

std::vector<SeriesChangePoint> FindChangePoints(const std::vector<double>& values, double alpha,
                                                std::size_t min_segment) {
  std::vector<SeriesChangePoint> found;
  // Depth-first over segments still to test.
  std::vector<std::pair<std::size_t, std::size_t>> pending{{0, values.size()}};
  while (!pending.empty()) {
    const auto [begin, end] = pending.back();
    pending.pop_back();
    const SplitTest split = BestSplit(values, begin, end, min_segment);
    if (split.p_value > alpha) continue;
    found.push_back({split.index, split.p_value});
    pending.push_back({begin, split.index});
    pending.push_back({split.index, end});
  }
  std::sort(found.begin(), found.end(),
            [](const SeriesChangePoint& a, const SeriesChangePoint& b) { return a.index < b.index; });
  return found;
}

bool IsNewLevel(const std::vector<double>& levels, std::size_t segment, double min_change) {
  if (segment == 0 || segment >= levels.size()) return false;
  const double level = levels[segment];
  const bool up = level > levels[segment - 1];
  for (std::size_t k = 0; k < segment; ++k) {
    const bool beyond = up ? level >= levels[k] * (1 + min_change)
                           : level <= levels[k] * (1 - min_change);
    if (!beyond) return false;
  }
  return true;
}

}  // namespace etbench::history
