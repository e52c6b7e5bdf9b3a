#include "etbench/inspector/perf_data.h"

#include "perf_data_ticks.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <deque>

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

namespace {

// numpy 'linear' (method 7): virtual index v = (n-1)·q/100, i = floor(v),
// gamma = v − i, then numpy's _lerp of x[i] and x[i+1].
struct VirtualIndex {
  std::size_t i;
  double gamma;
};

VirtualIndex LinearIndex(std::size_t n, double q) {
  const double quantile = q / 100.0;
  const double v = static_cast<double>(n - 1) * quantile;
  const double previous = std::floor(v);
  return {std::min(static_cast<std::size_t>(previous), n - 1), v - previous};
}

double NumpyLerp(double a, double b, double gamma) {
  const double diff = b - a;
  if (gamma >= 0.5) return b - diff * (1.0 - gamma);
  return a + diff * gamma;
}

}  // namespace

double Percentile(const std::vector<double>& sorted, double q) {
  assert(!sorted.empty());
  const VirtualIndex vi = LinearIndex(sorted.size(), q);
  return NumpyLerp(sorted[vi.i], sorted[std::min(vi.i + 1, sorted.size() - 1)], vi.gamma);
}

namespace {

// x[i] and x[i+1] (x sorted) of each of the three percentiles, and min and
// max, of many samples in one pass instead of three selections: a sorted
// sample of kSample values gives each percentile a value range expected to
// hold ranks i and i+1 (with a margin of about four standard deviations of
// a sample quantile); the pass counts the values below each range and
// copies those inside it, and a selection within those copies gives the
// ranks. False when a rank falls outside its range (an unlucky or hostile
// order, or NaN): the caller selects over all values instead.
constexpr std::size_t kSample = 1024;
constexpr std::size_t kMargin = 64;

bool SampledPercentileNeighbours(const std::vector<double>& values, const VirtualIndex (&vi)[3],
                                 double (&a)[3], double (&b)[3], double* min, double* max) {
  const std::size_t n = values.size();
  thread_local std::vector<double> sample;
  thread_local std::vector<double> inside[3];
  sample.resize(kSample);
  for (std::size_t j = 0; j < kSample; ++j) sample[j] = values[j * n / kSample];
  std::sort(sample.begin(), sample.end());
  double lo[3];
  double hi[3];
  for (int k = 0; k < 3; ++k) {
    const std::size_t at = vi[k].i * kSample / n;
    lo[k] = sample[at > kMargin ? at - kMargin : 0];
    hi[k] = sample[std::min(kSample - 1, at + kMargin + 1)];
    inside[k].clear();
  }
  // Locals, not arrays, so that they stay in registers across the (rare)
  // push_back calls.
  const double lo0 = lo[0], lo1 = lo[1], lo2 = lo[2];
  const double hi0 = hi[0], hi1 = hi[1], hi2 = hi[2];
  std::size_t below0 = 0, below1 = 0, below2 = 0;
  double smallest = values[0];
  double largest = values[0];
  bool nan = false;
  for (const double v : values) {
    nan |= !(v == v);
    smallest = v < smallest ? v : smallest;
    largest = v > largest ? v : largest;
    // Counted without a branch (below the median's range is a coin toss);
    // inside a range is the rare case.
    below0 += v < lo0;
    below1 += v < lo1;
    below2 += v < lo2;
    if (v >= lo0 && v <= hi0) inside[0].push_back(v);
    if (v >= lo1 && v <= hi1) inside[1].push_back(v);
    if (v >= lo2 && v <= hi2) inside[2].push_back(v);
  }
  if (nan) return false;  // no order
  const std::size_t below[3] = {below0, below1, below2};
  for (int k = 0; k < 3; ++k) {
    const std::size_t i = vi[k].i;
    const std::size_t last = std::min(i + 1, n - 1);
    if (below[k] > i || below[k] + inside[k].size() <= last) return false;
    std::vector<double>& in = inside[k];
    const auto at_i = in.begin() + static_cast<std::ptrdiff_t>(i - below[k]);
    std::nth_element(in.begin(), at_i, in.end());
    a[k] = *at_i;
    b[k] = last == i ? a[k] : *std::min_element(at_i + 1, in.end());
  }
  *min = smallest;
  *max = largest;
  return true;
}

// The mean (numpy's) and the sample standard deviation.
void FinishMoments(PerfData* p, const std::vector<double>& raw) {
  const std::size_t n = raw.size();
  p->avg = NumpyMean(raw.data(), n);
  if (n > 1) {
    // Two-pass sample variance (stable; not part of the reference).
    double ss = 0;
    for (double x : raw) ss += (x - p->avg) * (x - p->avg);
    p->stddev = std::sqrt(ss / static_cast<double>(n - 1));
  }
}

// Below this many samples the three selections are cheap enough.
constexpr std::size_t kSampledFrom = 8 * kSample;

}  // namespace

PerfData PerfData::FromRaw(std::vector<double> raw) {
  assert(!raw.empty());
  PerfData p;
  const std::size_t n = raw.size();
  p.count = n;
  // Order statistics by successive selection (O(n) each) instead of a full
  // sort: only x[i] and x[i+1] of each percentile are needed. The scratch
  // copy is reused across calls: a fresh one per event would be fresh
  // (page-faulted) memory for every event of a many-run block.
  const double qs[] = {10, 50, 90};
  VirtualIndex vi[3];
  for (int k = 0; k < 3; ++k) vi[k] = LinearIndex(n, qs[k]);
  double at[3];    // x[i]
  double after[3]; // x[i+1]
  if (n >= kSampledFrom && SampledPercentileNeighbours(raw, vi, at, after, &p.min, &p.max)) {
    p.p10 = NumpyLerp(at[0], after[0], vi[0].gamma);
    p.p50 = NumpyLerp(at[1], after[1], vi[1].gamma);
    p.p90 = NumpyLerp(at[2], after[2], vi[2].gamma);
    FinishMoments(&p, raw);
    p.raw = std::move(raw);
    return p;
  }
  thread_local std::vector<double> work;
  work.assign(raw.begin(), raw.end());
  std::size_t selected_from = 0;
  for (int k = 0; k < 3; ++k) {
    if (vi[k].i >= selected_from) {
      std::nth_element(work.begin() + static_cast<std::ptrdiff_t>(selected_from),
                       work.begin() + static_cast<std::ptrdiff_t>(vi[k].i), work.end());
      selected_from = vi[k].i + 1;
    }
  }
  // Now x[i] sits at work[i] for each selected i, everything before it is
  // <= and everything after it >=. So x[i+1], the smallest element after
  // i, lies between i and the next selected index (inclusive), and only
  // that stretch is scanned; the minimum lies at or before the first
  // selected index and the maximum after the last.
  auto min_of = [&](std::size_t from, std::size_t to) {  // [from, to], from <= to
    return *std::min_element(work.begin() + static_cast<std::ptrdiff_t>(from),
                             work.begin() + static_cast<std::ptrdiff_t>(to) + 1);
  };
  double* results[] = {&p.p10, &p.p50, &p.p90};
  for (int k = 0; k < 3; ++k) {
    const std::size_t i = vi[k].i;
    const double a = work[i];
    double b = a;
    if (i + 1 < n) {
      std::size_t next = n - 1;
      for (int m = k + 1; m < 3; ++m) {
        if (vi[m].i > i) {
          next = vi[m].i;
          break;
        }
      }
      b = min_of(i + 1, next);
    }
    *results[k] = NumpyLerp(a, b, vi[k].gamma);
  }
  p.min = min_of(0, vi[0].i);
  p.max = *std::max_element(work.begin() + static_cast<std::ptrdiff_t>(vi[2].i), work.end());
  FinishMoments(&p, raw);
  if (work.capacity() > (std::size_t{1} << 20)) std::vector<double>().swap(work);  // > 8 MB: not kept
  p.raw = std::move(raw);
  return p;
}

namespace {

// Buckets of the tick histogram: about one per sample (so that a bucket
// holds about one sample when the ticks spread evenly), at least 64, at
// most 65,536 (256 KiB of counts, in the L2 cache).
std::size_t HistogramBuckets(std::size_t n) {
  std::size_t b = 64;
  while (b < n && b < (std::size_t{1} << 16)) b <<= 1;
  return b;
}

// At most this many samples in a rank's bucket are selected among;
// more (ticks crowded into a few buckets next to a far outlier) are
// counted again into buckets of the bucket's own range.
constexpr std::size_t kSelectAmong = 256;

// Scratch of TickRanks, one set per level of refinement.
struct TickScratch {
  std::vector<uint32_t> counts;
  std::vector<uint64_t> members[6];
};

// out[r] = the ranks[r]-th smallest (0-based) of ticks[0, n) for r < k
// (k <= 6, ranks in any order), all ticks lying in [lo, hi]. One pass
// counts the ticks per bucket of 2^shift ticks; the bucket of each rank
// follows from the running counts. With buckets of one tick (a narrow
// range, the usual case) the bucket is the value; otherwise a second pass
// copies the samples of the ranks' buckets, and a selection among those
// (or, for many, the same again within the bucket) gives the value.
void TickRanks(const uint64_t* ticks, std::size_t n, uint64_t lo, uint64_t hi,
               const std::size_t* ranks, int k, uint64_t* out, std::size_t level) {
  // A deque: a deeper level added keeps this level's scratch in place.
  thread_local std::deque<TickScratch> scratch;
  if (scratch.size() <= level) scratch.resize(level + 1);
  std::vector<uint32_t>& counts = scratch[level].counts;
  const uint64_t range = hi - lo;
  const std::size_t buckets = HistogramBuckets(n);
  int shift = 0;
  while ((range >> shift) >= buckets) ++shift;
  counts.assign(static_cast<std::size_t>(range >> shift) + 1, 0);
  for (std::size_t j = 0; j < n; ++j) ++counts[(ticks[j] - lo) >> shift];
  std::size_t bucket_of[6];
  std::size_t offset_in[6];  // the rank's place among its bucket's samples
  {
    std::size_t b = 0;
    std::size_t before = 0;  // samples in buckets before b
    for (int r = 0; r < k; ++r) {
      // Ranks mostly ascend (x[i], x[i+1] of p10, p50, p90), except for a
      // few samples (n = 3: x[i+1] of p50 is x[2], p90's i is 1): the scan
      // then starts again.
      if (r > 0 && ranks[r] < ranks[r - 1]) b = before = 0;
      while (before + counts[b] <= ranks[r]) before += counts[b++];
      bucket_of[r] = b;
      offset_in[r] = ranks[r] - before;
    }
  }
  if (shift == 0) {
    for (int r = 0; r < k; ++r) out[r] = lo + bucket_of[r];
    return;
  }
  // counts[b] now marks the wanted buckets: 1 + its slot, else 0.
  std::vector<uint64_t>* members = scratch[level].members;
  std::size_t slot_of[6];
  std::size_t slots = 0;
  std::fill(counts.begin(), counts.end(), 0);
  for (int r = 0; r < k; ++r) {
    uint32_t& mark = counts[bucket_of[r]];
    if (mark == 0) {
      members[slots].clear();
      mark = static_cast<uint32_t>(++slots);
    }
    slot_of[r] = mark - 1;
  }
  for (std::size_t j = 0; j < n; ++j) {
    if (const uint32_t mark = counts[(ticks[j] - lo) >> shift]) members[mark - 1].push_back(ticks[j]);
  }
  for (std::size_t slot = 0; slot < slots; ++slot) {
    std::vector<uint64_t>& m = members[slot];
    std::size_t wanted[6] = {};
    int which[6] = {};
    int count = 0;
    for (int r = 0; r < k; ++r) {
      if (slot_of[r] == slot) {
        wanted[count] = offset_in[r];
        which[count++] = r;
      }
    }
    if (m.size() > kSelectAmong) {
      const uint64_t bucket_lo = lo + (static_cast<uint64_t>(bucket_of[which[0]]) << shift);
      const uint64_t bucket_hi = std::min(hi, bucket_lo + ((uint64_t{1} << shift) - 1));
      uint64_t found[6];
      TickRanks(m.data(), m.size(), bucket_lo, bucket_hi, wanted, count, found, level + 1);
      for (int c = 0; c < count; ++c) out[which[c]] = found[c];
      continue;
    }
    for (int c = 0; c < count; ++c) {
      const auto at = m.begin() + static_cast<std::ptrdiff_t>(wanted[c]);
      std::nth_element(m.begin(), at, m.end());
      out[which[c]] = *at;
    }
  }
}

}  // namespace

PerfData PerfDataFromTicks(std::vector<double> raw, const uint64_t* ticks, uint64_t min_tick,
                           uint64_t max_tick, double factor) {
  assert(!raw.empty());
  const std::size_t n = raw.size();
  PerfData p;
  p.count = n;
  const double qs[] = {10, 50, 90};
  VirtualIndex vi[3];
  for (int k = 0; k < 3; ++k) vi[k] = LinearIndex(n, qs[k]);
  // The ranks wanted: x[i] and x[i+1] of each percentile.
  std::size_t ranks[6];
  for (int k = 0; k < 3; ++k) {
    ranks[2 * k] = vi[k].i;
    ranks[2 * k + 1] = std::min(vi[k].i + 1, n - 1);
  }
  uint64_t value[6];
  TickRanks(ticks, n, min_tick, max_tick, ranks, 6, value, 0);
  // The durations of those ticks, exactly as the caller computed raw.
  auto duration = [&](uint64_t t) { return static_cast<double>(t) / factor; };
  p.p10 = NumpyLerp(duration(value[0]), duration(value[1]), vi[0].gamma);
  p.p50 = NumpyLerp(duration(value[2]), duration(value[3]), vi[1].gamma);
  p.p90 = NumpyLerp(duration(value[4]), duration(value[5]), vi[2].gamma);
  p.min = duration(min_tick);
  p.max = duration(max_tick);
  FinishMoments(&p, raw);
  p.raw = std::move(raw);
  return p;
}

}  // namespace etbench
