// Parse + aggregate speed of the inspector on a 200-run × 500-instruction
// ETDump (~200k profile events). Target: ≥ 10M profile events/s on one
// core; memory below 3× the file size.
//
//   build/benchmarks/inspector/inspector_bench            # speed
//   build/benchmarks/inspector/inspector_bench --rss      # peak memory
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include "etbench/base/atomic_file.h"
#include "etbench/inspector/etdump_file.h"
#include "etbench/inspector/etdump_writer.h"
#include "etbench/inspector/inspector.h"
#include "support/synthetic_etdump.h"

namespace {

constexpr int kRuns = 200;
constexpr int kInstructions = 500;

const std::vector<uint8_t>& Dump() {
  static const std::vector<uint8_t> bytes =
      etbench::bench::MakeSyntheticEtdump(kRuns, kInstructions);
  return bytes;
}

// Verifies a fresh copy of the dump each iteration (reading a file into
// memory is I/O, not parsing, so the copy is not timed); with `aggregate`,
// also groups it into EventBlocks.
void VerifyAndMaybeAggregate(benchmark::State& state, bool aggregate) {
  const std::vector<uint8_t>& bytes = Dump();
  for (auto _ : state) {
    state.PauseTiming();
    std::vector<uint8_t> copy = bytes;
    state.ResumeTiming();
    auto file = etbench::EtdumpFile::FromBytes(std::move(copy));
    if (aggregate) {
      auto blocks = etbench::BuildEventBlocks(file.value(), {});
      benchmark::DoNotOptimize(blocks.value().data());
    } else {
      benchmark::DoNotOptimize(file.ok());
    }
  }
  state.counters["events/s"] = benchmark::Counter(
      static_cast<double>(etbench::bench::SyntheticProfileEventCount(kRuns, kInstructions)),
      benchmark::Counter::kIsIterationInvariantRate);
  state.counters["file_MB"] = static_cast<double>(bytes.size()) / 1e6;
}

void BM_VerifyParseAggregate(benchmark::State& state) { VerifyAndMaybeAggregate(state, true); }
BENCHMARK(BM_VerifyParseAggregate)->Unit(benchmark::kMillisecond);

void BM_VerifyOnly(benchmark::State& state) { VerifyAndMaybeAggregate(state, false); }
BENCHMARK(BM_VerifyOnly)->Unit(benchmark::kMillisecond);

long StatusKb(const char* field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field, 0) == 0) return std::stol(line.substr(std::strlen(field)));
  }
  return -1;
}

// Peak memory of Open + BuildEventBlocks on a file written beforehand, as a
// ratio to the file size. Runs in this fresh process before anything else.
int MeasurePeakMemory() {
  const std::string path = "/tmp/etbench_inspector_bench.etdp";
  {
    const std::vector<uint8_t> bytes = etbench::bench::MakeSyntheticEtdump(kRuns, kInstructions);
    if (!etbench::WriteFileAtomically(path, bytes).ok()) return 1;
  }
  // The generator's memory is returned to the allocator but may stay
  // resident; measure against the high-water mark from here on by resetting
  // it (Linux: write "5" to clear_refs resets VmHWM).
  { std::ofstream("/proc/self/clear_refs") << "5"; }
  const long before = StatusKb("VmRSS:");
  auto file = etbench::EtdumpFile::Open(path);
  auto blocks = etbench::BuildEventBlocks(file.value(), {});
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
  if (argc > 1 && std::strcmp(argv[1], "--rss") == 0) return MeasurePeakMemory();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
