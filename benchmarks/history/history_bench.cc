// The history's speed. Targets (docs/history.md): detect over 1,000 runs ×
// 500 metrics under 2 s; adding a results file to SQLite under 100 ms.
//   build/benchmarks/history/history_bench
#include <benchmark/benchmark.h>

#include <cstdio>
#include <filesystem>

#include "etbench/cli/history_recording.h"
#include "etbench/history/detect.h"
#include "synthetic_history.h"

namespace etbench::bench {
namespace {

// 1,000 nightly runs × 500 metrics: CV 2%, 5% of runs under background
// load, 25 metrics with a 5% step somewhere; with a third argument of 1,
// every metric also 5-15% slower over runs 400..599 (a machine shift:
// detected, and removed from every metric with its own loading).
void BM_Detect(benchmark::State& state) {
  const auto runs = static_cast<std::size_t>(state.range(0));
  const auto metrics = static_cast<std::size_t>(state.range(1));
  const bool machine_shift = state.range(2) != 0;
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
    if (machine_shift) {
      const double slower = 1.05 + 0.1 * static_cast<double>(m % 5) / 4;
      for (std::size_t r = 2 * runs / 5; r < 3 * runs / 5; ++r) series.back()[r] *= slower;
    }
  }
  const history::HistoryWindow window = MakeWindow(series);
  std::size_t found = 0, shifts = 0;
  for (auto _ : state) {
    const history::Detection d = history::DetectChangePoints(window, {}, {});
    found = d.change_points.size();
    shifts = d.machine_shifts.size();
    benchmark::DoNotOptimize(found);
  }
  state.counters["change_points"] = static_cast<double>(found);
  state.counters["machine_shifts"] = static_cast<double>(shifts);
}
BENCHMARK(BM_Detect)
    ->Args({1000, 500, 0})
    ->Args({1000, 500, 1})
    ->Args({100, 500, 0})
    ->Unit(benchmark::kMillisecond);

// What `etbench history detect` does end to end: load 1,000 runs × 500
// metrics (per-run statistics, no samples) from SQLite, then detect. The
// database is built once (10 samples per metric and run; ~20 s).
void BM_LoadAndDetectSqlite(benchmark::State& state) {
  const std::string dir = std::filesystem::temp_directory_path() / "etbench-history-load-bench";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  auto store = history::OpenHistory(dir + "/history.db");
  if (!store.ok()) {
    state.SkipWithError(store.error().message.c_str());
    return;
  }
  std::mt19937_64 rng(7);
  std::vector<std::vector<double>> series;
  for (std::size_t m = 0; m < 500; ++m) {
    SeriesSpec spec;
    spec.length = 1000;
    spec.outlier_rate = 0.05;
    if (m % 20 == 0) {
      spec.step_at = 250 + (m * 37) % 500;
      spec.step = 0.05;
    }
    series.push_back(MakeSeries(spec, rng));
  }
  const history::HistoryWindow shape = MakeWindow(series);
  for (std::size_t r = 0; r < 1000; ++r) {
    history::RunRecord run;
    run.run_id = "run" + std::to_string(r);
    run.suite = "default";
    run.device = "bench";
    char time[32];
    std::snprintf(time, sizeof time, "2026-%02zu-%02zuT%02zu:00:00Z", 1 + r / 280, 1 + r / 10 % 28,
                  r % 10);
    run.time = time;
    for (std::size_t m = 0; m < series.size(); ++m) {
      Metric metric = shape.metrics[m].metric;
      metric.samples.assign(10, series[m][r]);
      run.metrics.metrics.push_back(std::move(metric));
    }
    if (!store.value()->AddRun(run).ok()) {
      state.SkipWithError("add failed");
      return;
    }
  }
  for (auto _ : state) {
    auto window = store.value()->Load({}, "*", false);
    if (!window.ok()) {
      state.SkipWithError(window.error().message.c_str());
      break;
    }
    const history::Detection d = history::DetectChangePoints(window.value(), {}, {});
    state.counters["change_points"] = static_cast<double>(d.change_points.size());
  }
  std::filesystem::remove_all(dir);
}
BENCHMARK(BM_LoadAndDetectSqlite)->Unit(benchmark::kMillisecond)->Iterations(3);

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
  auto env = MakeSystemEnvironment();
  results::RunResults results = MakeSuiteResults(4, 27, 1);
  const std::string path = dir + "/results.json";
  int i = 0;
  for (auto _ : state) {
    state.PauseTiming();
    results.metadata.labels["night"] = std::to_string(i++);  // a new run id
    (void)results::WriteResultsFile(path, results);
    state.ResumeTiming();
    auto added = AddResultsFile(*store.value(), path, {"c1", "main", ""}, nullptr, *env);
    if (!added.ok() || !*added) state.SkipWithError("add failed");
  }
  std::filesystem::remove_all(dir);
}
BENCHMARK(BM_AddResultsFileSqlite)->Unit(benchmark::kMillisecond)->Iterations(50);

}  // namespace
}  // namespace etbench::bench
