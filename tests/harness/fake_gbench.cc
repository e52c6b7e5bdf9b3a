// A tiny Google Benchmark binary for the gbench runner's tests: two cheap
// benchmarks, one of which can be told to fail.
#include <benchmark/benchmark.h>

#include <cstdlib>

namespace {

void BM_Sum(benchmark::State& state) {
  long sum = 0;
  for (auto _ : state) {
    for (int i = 0; i < 64; ++i) benchmark::DoNotOptimize(sum += i);
  }
}
BENCHMARK(BM_Sum);

void BM_Noop(benchmark::State& state) {
  if (std::getenv("FAKE_GBENCH_FAIL") != nullptr) {
    state.SkipWithError("asked to fail");
    return;
  }
  for (auto _ : state) benchmark::ClobberMemory();
}
BENCHMARK(BM_Noop);

}  // namespace

BENCHMARK_MAIN();
