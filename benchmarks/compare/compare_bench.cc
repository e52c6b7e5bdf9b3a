// Speed of the comparison engine: 10,000 metrics × 100 samples per side
// (target < 1 s on one core), plus its parts.

#include <benchmark/benchmark.h>

#include <cmath>
#include <random>

#include "etbench/compare/comparison.h"
#include "etbench/stats/bootstrap.h"
#include "etbench/stats/mann_whitney.h"

namespace etbench {
namespace {

// `groups` > 0: the samples come in that many repetitions (group sizes set).
MetricSet MakeSet(int metrics, int samples, uint64_t seed, double change_every, int groups = 0) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  MetricSet set;
  set.context = {{"time_source", "ns"}};
  for (int i = 0; i < metrics; ++i) {
    Metric m;
    m.key = {"model" + std::to_string(i / 500), "Execute", MetricKind::kEvent,
             "native_call_op" + std::to_string(i % 500) + ".out", i % 500, "", 0};
    m.unit = "ms";
    m.end_to_end = i % 500 == 0;
    const double median = 0.05 + 0.001 * (i % 97);
    const double factor = (change_every > 0 && i % static_cast<int>(change_every) == 0) ? 1.1 : 1;
    for (int s = 0; s < samples; ++s) {
      m.samples.push_back(median * factor * std::exp(0.05 * normal(rng)));
    }
    if (groups > 0) m.group_sizes.assign(groups, static_cast<uint64_t>(samples / groups));
    set.metrics.push_back(std::move(m));
  }
  return set;
}

// range(2): repetitions per side (0 = no group sizes: samples independent).
void BM_Compare(benchmark::State& state) {
  const int metrics = static_cast<int>(state.range(0));
  const int samples = static_cast<int>(state.range(1));
  const int groups = static_cast<int>(state.range(2));
  const MetricSet b = MakeSet(metrics, samples, 1, 0, groups);
  const MetricSet c = MakeSet(metrics, samples, 2, 50, groups);  // 2% of metrics 10% slower
  const Thresholds thresholds = DefaultThresholds();
  for (auto _ : state) {
    auto result = Compare(b, c, thresholds);
    benchmark::DoNotOptimize(result);
  }
  state.counters["metrics/s"] =
      benchmark::Counter(static_cast<double>(metrics), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Compare)->Args({10000, 100, 0})->Args({10000, 100, 10})->Args({1000, 100, 0})
    ->Args({200, 50, 0})
    ->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_MannWhitney(benchmark::State& state) {
  const MetricSet b = MakeSet(1, 100, 1, 0), c = MakeSet(1, 100, 2, 0);
  std::vector<double> x = b.metrics[0].samples, y = c.metrics[0].samples;
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  for (auto _ : state) benchmark::DoNotOptimize(MannWhitneyU(x, y));
}
BENCHMARK(BM_MannWhitney);

void BM_BootstrapInterval(benchmark::State& state) {
  const MetricSet b = MakeSet(1, 100, 1, 0), c = MakeSet(1, 100, 2, 0);
  std::vector<double> x = b.metrics[0].samples, y = c.metrics[0].samples;
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  BootstrapCache cache;
  const BootstrapSettings settings{static_cast<int>(state.range(0)), 0.95};
  for (auto _ : state) {
    benchmark::DoNotOptimize(BootstrapChangeInterval(x, y, Statistic::kP50,
                                                     ChangeScale::kRelative, settings, 1, cache));
  }
}
BENCHMARK(BM_BootstrapInterval)->Arg(1000)->Arg(2000);

void BM_BuildOrderStatisticSampler(benchmark::State& state) {
  for (auto _ : state) {
    OrderStatisticSampler sampler(static_cast<std::size_t>(state.range(0)), 0.5);
    benchmark::DoNotOptimize(sampler);
  }
}
BENCHMARK(BM_BuildOrderStatisticSampler)->Arg(100)->Arg(1000)->Arg(10000)
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace etbench

BENCHMARK_MAIN();
