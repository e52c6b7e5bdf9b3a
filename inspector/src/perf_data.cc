#include "etbench/inspector/perf_data.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace etbench {
namespace {

// numpy's pairwise_sum for float64 (numpy/core/src/umath/loops_utils.h):
// below 8 elements a plain loop; up to 128 eight accumulators combined as
// ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)) plus the tail; above, split in two
// halves at a multiple of 8. Reproduced exactly so means match to the bit.
double PairwiseSum(const double* a, std::size_t n) {
  constexpr std::size_t kBlock = 128;
  if (n < 8) {
    double res = 0.;
    for (std::size_t i = 0; i < n; ++i) res += a[i];
    return res;
  }
  if (n <= kBlock) {
    double r[8];
    for (int k = 0; k < 8; ++k) r[k] = a[k];
    std::size_t i = 8;
    for (; i < n - (n % 8); i += 8) {
      for (int k = 0; k < 8; ++k) r[k] += a[i + k];
    }
    double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res += a[i];
    return res;
  }
  std::size_t n2 = n / 2;
  n2 -= n2 % 8;
  return PairwiseSum(a, n2) + PairwiseSum(a + n2, n - n2);
}

}  // namespace

double NumpySum(const double* values, std::size_t n) {
  // np.add.reduce starts from the identity 0.0 and feeds the inner loop in
  // chunks of the iterator's buffer size (8192 elements).
  constexpr std::size_t kBufferSize = 8192;
  double total = 0.0;
  for (std::size_t start = 0; start < n; start += kBufferSize) {
    total += PairwiseSum(values + start, std::min(kBufferSize, n - start));
  }
  return total;
}

double NumpyMean(const double* values, std::size_t n) {
  assert(n > 0);
  return NumpySum(values, n) / static_cast<double>(n);
}

double Percentile(const std::vector<double>& sorted, double q) {
  assert(!sorted.empty());
  // numpy 'linear' (method 7): virtual index (n-1)*q/100, then _lerp.
  const double quantile = q / 100.0;
  const double virtual_index = static_cast<double>(sorted.size() - 1) * quantile;
  const double previous = std::floor(virtual_index);
  const double gamma = virtual_index - previous;
  const std::size_t i = static_cast<std::size_t>(previous);
  const std::size_t j = std::min(i + 1, sorted.size() - 1);
  const double a = sorted[std::min(i, sorted.size() - 1)];
  const double b = sorted[j];
  const double diff = b - a;
  if (gamma >= 0.5) return b - diff * (1.0 - gamma);
  return a + diff * gamma;
}

PerfData PerfData::FromRaw(std::vector<double> raw) {
  assert(!raw.empty());
  PerfData p;
  p.count = raw.size();
  std::vector<double> sorted = raw;
  std::sort(sorted.begin(), sorted.end());
  p.p10 = Percentile(sorted, 10);
  p.p50 = Percentile(sorted, 50);
  p.p90 = Percentile(sorted, 90);
  p.min = sorted.front();
  p.max = sorted.back();
  p.avg = NumpyMean(raw.data(), raw.size());
  if (raw.size() > 1) {
    // Two-pass sample variance (stable; not part of the reference).
    double ss = 0;
    for (double x : raw) ss += (x - p.avg) * (x - p.avg);
    p.stddev = std::sqrt(ss / static_cast<double>(raw.size() - 1));
  }
  p.raw = std::move(raw);
  return p;
}

}  // namespace etbench
