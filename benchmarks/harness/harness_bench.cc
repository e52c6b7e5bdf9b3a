// Overhead of the harness per measured iteration: everything `etbench run`
// does besides executing the model. A runner that returns a ready ETDump
// (toy_cnn's shape: 14 instructions, 30 profile events per execution)
// stands in for the model, so what is timed is the harness alone:
// writing and verifying the ETDump, grouping, dropping warm-up, merging
// repetitions, statistics, the metric set, the results file, the progress
// bar. Target: well under 1% of a 1 ms model run (10 µs per iteration).
//
//   build/benchmarks/harness/harness_bench
//
// Counters: us_per_iter (harness time per measured iteration) and
// pct_of_1ms (that time as a share of a 1 ms model execution).
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>

#include "etbench/base/atomic_file.h"
#include "etbench/harness/etdump_processing.h"
#include "etbench/harness/orchestrator.h"
#include "etbench/harness/process.h"
#include "etbench/harness/progress.h"
#include "etbench/results/results.h"
#include "support/synthetic_etdump.h"

namespace etbench::harness {
namespace {

constexpr int kInstructions = 14;  // toy_cnn
constexpr int kWarmup = 3;
constexpr int kRepetitions = 2;

class NullTerminal : public Terminal {
 public:
  bool IsInteractive() const override { return true; }
  int Columns() const override { return 120; }
  void Write(std::string_view text) override { benchmark::DoNotOptimize(text.data()); }
};

// Hands out a pre-built ETDump as if the model had just run.
class ReadyEtdumpRunner : public Runner {
 public:
  explicit ReadyEtdumpRunner(int executions)
      : etdump_(bench::MakeSyntheticEtdump(executions, kInstructions)), executions_(executions) {}
  std::string Name() const override { return "ready"; }
  std::string Version() const override { return "1"; }
  RepetitionOutput Run(const ModelSpec&, const RepetitionPlan& plan) override {
    RepetitionOutput out;
    for (int i = 1; i <= executions_; ++i) {
      if (plan.on_execution) plan.on_execution(i);
    }
    // Keep the file, as the builtin runner does.
    Status written = WriteArtifactFile(plan.etdump_path, etdump_);
    if (!written.ok()) {
      out.ok = false;
      out.error = written.error().message;
      return out;
    }
    out.etdump = etdump_;
    out.tick_rate_hz = 1e9;
    out.warmup_runs = static_cast<std::size_t>(plan.warmup);
    out.expected_execute_runs = static_cast<std::size_t>(executions_);
    return out;
  }

 private:
  std::vector<uint8_t> etdump_;
  int executions_;
};

class FixedClock : public Clock {
 public:
  double MonotonicSeconds() override { return now_ += 1e-6; }
  int64_t UnixSeconds() override { return 1700000000; }

 private:
  double now_ = 0;
};

// The whole of `etbench run` for one model (2 repetitions of warm-up +
// N iterations), minus the model: per measured iteration.
void BM_RunSuiteOverheadPerIteration(benchmark::State& state) {
  const int iterations = static_cast<int>(state.range(0));
  const std::string dir = std::filesystem::temp_directory_path() / "etbench_harness_bench";
  std::filesystem::create_directories(dir);
  const std::string model = dir + "/model.yaml";
  { std::ofstream(model) << "fake model\n"; }
  SuiteConfig config;
  config.suite = "bench";
  config.warmup = kWarmup;
  config.iterations = iterations;
  config.repetitions = kRepetitions;
  config.output_dir = dir + "/out";
  config.models.push_back(
      ModelSpec{"toy", model, {}, {}, std::nullopt, "", "", "bench.yaml:1:1", {}, {}});

  ReadyEtdumpRunner runner(kWarmup + iterations);
  std::unique_ptr<ProcessRunner> processes = MakeSystemProcessRunner();
  FixedClock clock;
  MapEnvironment env;
  NullTerminal terminal;
  std::unique_ptr<Progress> progress = MakeProgress(&terminal, &clock, true);
  RunDeps deps;
  deps.process_runner = processes.get();
  deps.clock = &clock;
  deps.env = &env;
  deps.progress = progress.get();
  deps.runner = &runner;
  deps.query_git = false;
  for (auto _ : state) {
    auto run = RunSuite(config, deps);
    if (!run.ok()) {
      state.SkipWithError(run.error().message.c_str());
      break;
    }
    MetricSet metrics = results::ToMetricSet(run->results);
    benchmark::DoNotOptimize(metrics.metrics.data());
  }
  const int measured = iterations * kRepetitions;
  state.counters["us_per_iter"] = benchmark::Counter(
      static_cast<double>(measured) / 1e6,
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["pct_of_1ms"] = benchmark::Counter(
      static_cast<double>(measured) / 1e5,
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  std::filesystem::remove_all(dir);
}
BENCHMARK(BM_RunSuiteOverheadPerIteration)->Arg(30)->Arg(300)->Unit(benchmark::kMillisecond);

// The per-iteration part alone: ETDump → blocks (verify, group, drop
// warm-up) for two repetitions, merge, statistics, results JSON, metrics.
void BM_EtdumpToResultsPerIteration(benchmark::State& state) {
  const int iterations = static_cast<int>(state.range(0));
  const std::vector<uint8_t> etdump =
      bench::MakeSyntheticEtdump(kWarmup + iterations, kInstructions);
  EtdumpProcessOptions options;
  options.warmup_runs = kWarmup;
  options.expected_execute_runs = static_cast<std::size_t>(kWarmup + iterations);
  for (auto _ : state) {
    results::RunResults results;
    results::ModelResult model;
    model.name = "toy";
    for (int r = 0; r < kRepetitions; ++r) {
      auto processed = ProcessEtdump(etdump, "bench", options);
      if (!processed.ok()) {
        state.SkipWithError(processed.error().message.c_str());
        return;
      }
      AppendRepetitionBlocks(&model.blocks, std::move(processed->blocks));
    }
    FinalizeBlockStats(&model.blocks);
    results.models.push_back(std::move(model));
    const std::string json = results::ResultsToJson(results);
    MetricSet metrics = results::ToMetricSet(results);
    benchmark::DoNotOptimize(json.data());
    benchmark::DoNotOptimize(metrics.metrics.data());
  }
  const int measured = iterations * kRepetitions;
  state.counters["us_per_iter"] = benchmark::Counter(
      static_cast<double>(measured) / 1e6,
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["pct_of_1ms"] = benchmark::Counter(
      static_cast<double>(measured) / 1e5,
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_EtdumpToResultsPerIteration)->Arg(30)->Arg(300)->Unit(benchmark::kMicrosecond);

// Parts of the above, per measured iteration: results JSON and metric set
// of one model with 2 x N iterations.
results::RunResults OneModelResults(int iterations) {
  const std::vector<uint8_t> etdump =
      bench::MakeSyntheticEtdump(kWarmup + iterations, kInstructions);
  EtdumpProcessOptions options;
  options.warmup_runs = kWarmup;
  results::ModelResult model;
  model.name = "toy";
  for (int r = 0; r < kRepetitions; ++r) {
    auto processed = ProcessEtdump(etdump, "bench", options);
    if (processed.ok()) AppendRepetitionBlocks(&model.blocks, std::move(processed->blocks));
  }
  FinalizeBlockStats(&model.blocks);
  results::RunResults results;
  results.models.push_back(std::move(model));
  return results;
}

void SetPerIterationCounters(benchmark::State& state, int measured) {
  state.counters["us_per_iter"] = benchmark::Counter(
      static_cast<double>(measured) / 1e6,
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["pct_of_1ms"] = benchmark::Counter(
      static_cast<double>(measured) / 1e5,
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_ResultsJsonPerIteration(benchmark::State& state) {
  const results::RunResults results = OneModelResults(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    const std::string json = results::ResultsToJson(results);
    benchmark::DoNotOptimize(json.data());
  }
  SetPerIterationCounters(state, static_cast<int>(state.range(0)) * kRepetitions);
}
BENCHMARK(BM_ResultsJsonPerIteration)->Arg(300)->Unit(benchmark::kMicrosecond);

void BM_ToMetricSetPerIteration(benchmark::State& state) {
  const results::RunResults results = OneModelResults(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    MetricSet metrics = results::ToMetricSet(results);
    benchmark::DoNotOptimize(metrics.metrics.data());
  }
  SetPerIterationCounters(state, static_cast<int>(state.range(0)) * kRepetitions);
}
BENCHMARK(BM_ToMetricSetPerIteration)->Arg(300)->Unit(benchmark::kMicrosecond);

// Per repetition of the command runner: starting and reaping a process
// (fork + execve + pipes), here /bin/true.
void BM_ProcessSpawn(benchmark::State& state) {
  std::unique_ptr<ProcessRunner> processes = MakeSystemProcessRunner();
  ProcessSpec spec;
  spec.argv = {"true"};
  for (auto _ : state) {
    ProcessResult r = processes->Run(spec, nullptr);
    if (!r.Succeeded()) {
      state.SkipWithError("true failed");
      break;
    }
  }
}
BENCHMARK(BM_ProcessSpawn)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace etbench::harness
