// The history's speed. Targets (docs/history.md): detect over 1,000 runs ×
// 500 metrics under 2 s; adding a results file to SQLite under 100 ms.
//   build/benchmarks/history/history_bench
#include <benchmark/benchmark.h>

#include <filesystem>

#include "etbench/history/detect.h"
#include "etbench/history/history_workflow.h"
#include "synthetic_history.h"

namespace etbench::bench {
namespace {

// 1,000 nightly runs × 500 metrics: CV 2%, 5% of runs under background
// load, 25 metrics with a 5% step somewhere.
void BM_Detect(benchmark::State& state) {
  const auto runs = static_cast<std::size_t>(state.range(0));
  const auto metrics = static_cast<std::size_t>(state.range(1));
  std::mt19937_64 rng(42);
  std::vector<std::vector<double>> series;
  for (std::size_t m = 0; m < metrics; ++m) {
    SeriesSpec spec;
    spec.length = runs;
    spec.outlier_rate = 0.05;
    if (m % 20 == 0) {
      spec.step_at = runs / 4 + (m * 37) % (runs / 2);
      spec.step = 0.05;
    }
    series.push_back(MakeSeries(spec, rng));
  }
  const history::HistoryWindow window = MakeWindow(series);
  std::size_t found = 0;
  for (auto _ : state) {
    const history::Detection d = history::DetectChangePoints(window, {}, {});
    found = d.change_points.size();
    benchmark::DoNotOptimize(found);
  }
  state.counters["change_points"] = static_cast<double>(found);
}
BENCHMARK(BM_Detect)->Args({1000, 500})->Args({100, 500})->Unit(benchmark::kMillisecond);

// `etbench history add` of one results file shaped like the default suite
// (4 models × 28 events × 60 samples), into an SQLite history that grows.
void BM_AddResultsFileSqlite(benchmark::State& state) {
  const std::string dir = std::filesystem::temp_directory_path() / "etbench-history-bench";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  auto store = history::OpenHistory(dir + "/history.db");
  if (!store.ok()) {
    state.SkipWithError(store.error().message.c_str());
    return;
  }
  auto env = harness::MakeSystemEnvironment();
  harness::RunResults results = MakeSuiteResults(4, 27, 1);
  const std::string path = dir + "/results.json";
  int i = 0;
  for (auto _ : state) {
    state.PauseTiming();
    results.metadata.labels["night"] = std::to_string(i++);  // a new run id
    (void)harness::WriteResultsFile(path, results);
    state.ResumeTiming();
    auto added = history::AddResultsFile(*store.value(), path, {"c1", "main", ""}, nullptr, *env);
    if (!added.ok() || !*added) state.SkipWithError("add failed");
  }
  std::filesystem::remove_all(dir);
}
BENCHMARK(BM_AddResultsFileSqlite)->Unit(benchmark::kMillisecond)->Iterations(50);

}  // namespace
}  // namespace etbench::bench
