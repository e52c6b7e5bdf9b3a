// A real Google Benchmark program for the tests of Google Benchmark files as
// etbench input: BM_Work does ETBENCH_TEST_WORK units of work per iteration
// (default 20000), so two runs with different amounts are a real, known
// slowdown; BM_Fixed does the same work in every run.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>

namespace {

void Spin(int64_t units) {
  uint64_t x = 1;
  for (int64_t i = 0; i < units; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    benchmark::DoNotOptimize(x);
  }
}

void BM_Work(benchmark::State& state) {
  const char* env = std::getenv("ETBENCH_TEST_WORK");
  const int64_t units = env != nullptr ? std::strtoll(env, nullptr, 10) : 20000;
  for (auto _ : state) Spin(units);
}
BENCHMARK(BM_Work);

void BM_Fixed(benchmark::State& state) {
  for (auto _ : state) Spin(20000);
}
BENCHMARK(BM_Fixed);

}  // namespace

BENCHMARK_MAIN();
