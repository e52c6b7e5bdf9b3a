// Throughput of the analysis views on the foundation issue's synthetic
// ETDump: 200 Execute runs x 500 instructions (native_call + OPERATOR_CALL)
// + Method::execute per run, after one Default block: 200,202 events.
//
//   build/benchmarks/inspector/analysis/analysis_bench
//
// items_per_second is profile events per second.
#include <benchmark/benchmark.h>

#include <cstdlib>

#include "etbench/inspector/etdump_file.h"
#include "etbench/inspector/event_tree.h"
#include "etbench/inspector/inspector.h"
#include "etbench/inspector/key_averages.h"
#include "etbench/reports/profiler_table.h"
#include "support/synthetic_etdump.h"

namespace etbench {
namespace {

constexpr int kRuns = 200;
constexpr int kInstructions = 500;

const EtdumpFile& File() {
  static const EtdumpFile file = [] {
    Result<EtdumpFile> f = EtdumpFile::FromBytes(
        bench::MakeSyntheticEtdump(kRuns, kInstructions), "synthetic");
    if (!f.ok()) std::abort();
    return std::move(f).value();
  }();
  return file;
}

const std::vector<EventBlock>& Blocks() {
  static const std::vector<EventBlock> blocks = [] {
    Result<std::vector<EventBlock>> b = BuildEventBlocks(File(), {});
    if (!b.ok()) std::abort();
    return std::move(b).value();
  }();
  return blocks;
}

void SetItems(benchmark::State& state) {
  state.SetItemsProcessed(
      static_cast<int64_t>(state.iterations()) *
      static_cast<int64_t>(
          bench::SyntheticProfileEventCount(kRuns, kInstructions)));
}

// The acceptance number: trees of every run + key averages of every block.
void BM_TreeAndKeyAverages(benchmark::State& state) {
  const std::vector<EventBlock>& blocks = Blocks();
  for (auto _ : state) {
    std::vector<BlockEventTrees> trees = BuildEventTrees(blocks);
    for (std::size_t b = 0; b < blocks.size(); ++b) {
      ProfileTable table =
          ComputeKeyAverages(blocks[b], trees[b], GroupBy::kName);
      benchmark::DoNotOptimize(table.self_total_sum);
    }
    benchmark::DoNotOptimize(trees.data());
  }
  SetItems(state);
}
BENCHMARK(BM_TreeAndKeyAverages)->Unit(benchmark::kMillisecond);

void BM_TreesOnly(benchmark::State& state) {
  const std::vector<EventBlock>& blocks = Blocks();
  for (auto _ : state) {
    std::vector<BlockEventTrees> trees = BuildEventTrees(blocks);
    benchmark::DoNotOptimize(trees.data());
  }
  SetItems(state);
}
BENCHMARK(BM_TreesOnly)->Unit(benchmark::kMillisecond);

// Everything `etbench inspect --view key_averages` does after reading the
// file: grouping into EventBlocks, trees, key averages, table text.
void BM_KeyAveragesViewFromFile(benchmark::State& state) {
  const EtdumpFile& file = File();
  AnalysisViewOptions options;
  for (auto _ : state) {
    Result<std::vector<EventBlock>> blocks = BuildEventBlocks(file, {});
    Result<std::string> text = RenderAnalysisView(blocks.value(), options);
    benchmark::DoNotOptimize(text.value().data());
  }
  SetItems(state);
}
BENCHMARK(BM_KeyAveragesViewFromFile)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace etbench

BENCHMARK_MAIN();
