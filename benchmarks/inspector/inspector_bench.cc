// Speed of the inspector on synthetic ETDumps shaped like a runtime's
// (RUNS Execute runs of 500 OPERATOR_CALL + native_call pairs and a
// Method::execute, after one Default block): verify + group + statistics.
// Target: >= 20 M profile events/s on one core, linear in the event count
// (200 k, 1 M and 10 M events); memory far below the file's size.
//
//   taskset -c 1 build/benchmarks/inspector/inspector_bench      # speed
//   build/benchmarks/inspector/inspector_bench --rss [RUNS]      # peak memory
//
// BM_OpenVerifyGroup is what `etbench inspect` does with a file (mapped, in
// the page cache: EventBlockReader, one pass); BM_OpenVerifyGroupTwoPass the
// same as EtdumpFile::Open then BuildEventBlocks (two passes over the file);
// BM_VerifyGroup starts from bytes already in memory. The events/s counter
// is profile events per second.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>

#include "etbench/base/atomic_file.h"
#include "etbench/inspector/etdump_file.h"
#include "etbench/inspector/event_block_reader.h"
#include "etbench/inspector/inspector.h"
#include "etbench/inspector/perf_data.h"
#include "support/synthetic_etdump.h"

namespace {

constexpr int kInstructions = 500;

const std::vector<uint8_t>& Dump(int runs) {
  static std::map<int, std::vector<uint8_t>> dumps;
  auto it = dumps.find(runs);
  if (it == dumps.end()) {
    it = dumps.emplace(runs, etbench::bench::MakeSyntheticEtdump(runs, kInstructions)).first;
  }
  return it->second;
}

// The dump of `runs` runs written to a file in /tmp (removed at exit).
const std::string& DumpFile(int runs) {
  static std::map<int, std::string> paths;
  auto it = paths.find(runs);
  if (it == paths.end()) {
    const std::string path =
        "/tmp/etbench_inspector_bench_" + std::to_string(runs) + ".etdp";
    if (!etbench::WriteFileAtomically(path, Dump(runs), {/*sync=*/false}).ok()) std::abort();
    it = paths.emplace(runs, path).first;
    std::atexit([] {
      for (const auto& [r, p] : paths) std::remove(p.c_str());
    });
  }
  return it->second;
}

void SetCounters(benchmark::State& state, int runs) {
  state.counters["events"] =
      static_cast<double>(etbench::bench::SyntheticProfileEventCount(runs, kInstructions));
  state.counters["events/s"] = benchmark::Counter(
      state.counters["events"], benchmark::Counter::kIsIterationInvariantRate);
  state.counters["file_MB"] = static_cast<double>(Dump(runs).size()) / 1e6;
}

// Verifies a fresh copy of the bytes each iteration (the copy is not timed)
// and, with `group`, groups them into EventBlocks with their statistics.
void VerifyAndMaybeGroup(benchmark::State& state, bool group) {
  const int runs = static_cast<int>(state.range(0));
  const std::vector<uint8_t>& bytes = Dump(runs);
  for (auto _ : state) {
    state.PauseTiming();
    std::vector<uint8_t> copy = bytes;
    state.ResumeTiming();
    if (group) {
      etbench::EventBlockReader reader({});
      auto file = reader.FromBytes(std::move(copy));
      if (!file.ok()) state.SkipWithError(file.error().message.c_str());
      auto blocks = reader.Finish();
      benchmark::DoNotOptimize(blocks.value().data());
    } else {
      auto file = etbench::EtdumpFile::FromBytes(std::move(copy));
      if (!file.ok()) state.SkipWithError(file.error().message.c_str());
      benchmark::DoNotOptimize(file.ok());
    }
  }
  SetCounters(state, runs);
}

void BM_VerifyGroup(benchmark::State& state) { VerifyAndMaybeGroup(state, true); }
BENCHMARK(BM_VerifyGroup)->Arg(200)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

void BM_VerifyOnly(benchmark::State& state) { VerifyAndMaybeGroup(state, false); }
BENCHMARK(BM_VerifyOnly)->Arg(200)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

// Open (map) + verify + group + statistics of a file in the page cache.
void BM_OpenVerifyGroup(benchmark::State& state) {
  const int runs = static_cast<int>(state.range(0));
  const std::string& path = DumpFile(runs);
  for (auto _ : state) {
    etbench::EventBlockReader reader({});
    auto file = reader.Open(path);
    if (!file.ok()) state.SkipWithError(file.error().message.c_str());
    auto blocks = reader.Finish();
    benchmark::DoNotOptimize(blocks.value().data());
  }
  SetCounters(state, runs);
}
BENCHMARK(BM_OpenVerifyGroup)->Arg(200)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

// The same in two passes: verify the whole file, then group it.
void BM_OpenVerifyGroupTwoPass(benchmark::State& state) {
  const int runs = static_cast<int>(state.range(0));
  const std::string& path = DumpFile(runs);
  for (auto _ : state) {
    auto file = etbench::EtdumpFile::Open(path);
    if (!file.ok()) state.SkipWithError(file.error().message.c_str());
    auto blocks = etbench::BuildEventBlocks(file.value(), {});
    benchmark::DoNotOptimize(blocks.value().data());
  }
  SetCounters(state, runs);
}
BENCHMARK(BM_OpenVerifyGroupTwoPass)
    ->Arg(200)
    ->Arg(1000)
    ->Arg(10000)
    ->Unit(benchmark::kMillisecond);

// PerfData of one event: N durations of integer ticks (a few hundred
// distinct values, in run order, as a device's timer gives them).
void BM_PerfDataFromRaw(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<double> durations(n);
  uint64_t x = 88172645463325252ull;
  for (double& d : durations) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;  // xorshift64
    d = static_cast<double>(2000 + x % 320) / 1e6;
  }
  for (auto _ : state) {
    etbench::PerfData p = etbench::PerfData::FromRaw(durations);
    benchmark::DoNotOptimize(p.p50);
  }
  state.counters["samples/s"] = benchmark::Counter(static_cast<double>(n),
                                                   benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_PerfDataFromRaw)->Arg(200)->Arg(28600)->Unit(benchmark::kMicrosecond);

long StatusKb(const char* field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field, 0) == 0) return std::stol(line.substr(std::strlen(field)));
  }
  return -1;
}

// Peak memory of EventBlockReader (Open + Finish) on a file written beforehand, as a
// ratio to the file size. Runs in this fresh process before anything else.
int MeasurePeakMemory(int runs) {
  const std::string path = "/tmp/etbench_inspector_bench_rss.etdp";
  {
    const std::vector<uint8_t> bytes = etbench::bench::MakeSyntheticEtdump(runs, kInstructions);
    if (!etbench::WriteFileAtomically(path, bytes, {/*sync=*/false}).ok()) return 1;
  }
  // The generator's memory is returned to the allocator but may stay
  // resident; measure against the high-water mark from here on by resetting
  // it (Linux: write "5" to clear_refs resets VmHWM).
  { std::ofstream("/proc/self/clear_refs") << "5"; }
  const long before = StatusKb("VmRSS:");
  etbench::EventBlockReader reader({});
  auto file = reader.Open(path);
  auto blocks = reader.Finish();
  const long peak = StatusKb("VmHWM:");
  const double file_kb = static_cast<double>(file->size_bytes()) / 1024.0;
  std::printf("file: %.0f KiB, peak RSS growth during open+aggregate: %ld KiB (%.2fx file)\n",
              file_kb, peak - before, static_cast<double>(peak - before) / file_kb);
  std::printf("blocks: %zu, events in Execute block: %zu, runs: %zu\n", blocks->size(),
              blocks->back().events.size(), blocks->back().run_count);
  std::remove(path.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--rss") == 0) {
    return MeasurePeakMemory(argc > 2 ? std::atoi(argv[2]) : 200);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
