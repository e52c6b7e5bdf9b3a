// Tracer overhead: the cost of one start/end profile event pair, the way
// the executor records it around every kernel.
//
//   runtime_benchmarks --benchmark_filter='Tracer|Builder|Clock'
//
// Arg 0 = ns (CLOCK_MONOTONIC), 1 = cycles (TSC / CNTVCT_EL0). The per_pair
// counter is the time of one pair (items are pairs).

#include <benchmark/benchmark.h>

#include "etbench/inspector/etdump_writer.h"
#include "etbench/runtime/clock.h"
#include "etbench/runtime/tracer.h"

namespace etbench::runtime {
namespace {

constexpr int kPairsPerBatch = 1000;

TimeSource SourceOf(const benchmark::State& state) {
  return state.range(0) == 0 ? TimeSource::kNs : TimeSource::kCycles;
}

void SetPerPair(benchmark::State& state) {
  state.SetLabel(std::string(TimeSourceName(SourceOf(state))));
  state.SetItemsProcessed(state.iterations() * kPairsPerBatch);
  state.counters["per_pair"] = benchmark::Counter(
      kPairsPerBatch, benchmark::Counter::kIsIterationInvariantRate |
                          benchmark::Counter::kInvert);
}

// One tick read: the floor under every pair (two reads).
void BM_ClockRead(benchmark::State& state) {
  const TimeSource source = SourceOf(state);
  for (auto _ : state) benchmark::DoNotOptimize(ReadTicks(source));
  state.SetLabel(std::string(TimeSourceName(source)));
}
BENCHMARK(BM_ClockRead)->Arg(0)->Arg(1);

// The hot path: start tick, end tick, one POD record into the preallocated
// buffer (what the executor pays per event while a model runs).
void BM_TracerRecordPair(benchmark::State& state) {
  Tracer tracer(SourceOf(state), 2 * kPairsPerBatch);
  const uint32_t name = tracer.Intern("native_call_convolution.out");
  tracer.BeginRun(tracer.Intern("Execute"));
  for (auto _ : state) {
    for (int i = 0; i < kPairsPerBatch; ++i) {
      const uint64_t start = tracer.Now();
      tracer.EndProfiling(name, 0, i, start);
    }
    benchmark::ClobberMemory();
    tracer.Clear();
  }
  SetPerPair(state);
}
BENCHMARK(BM_TracerRecordPair)->Arg(0)->Arg(1);

// The whole cost of a pair landing in the ETDump: recording plus replaying
// the buffer into EtdumpBuilder and serializing it.
void BM_TracerRecordAndSerializePair(benchmark::State& state) {
  Tracer tracer(SourceOf(state), 2 * kPairsPerBatch + 4);
  const uint32_t name = tracer.Intern("native_call_convolution.out");
  const uint32_t run = tracer.Intern("Execute");
  for (auto _ : state) {
    tracer.BeginRun(run);
    for (int i = 0; i < kPairsPerBatch; ++i) {
      const uint64_t start = tracer.Now();
      tracer.EndProfiling(name, 0, i, start);
    }
    tracer.EndRun();
    benchmark::DoNotOptimize(tracer.ToEtdump());
    tracer.Clear();
  }
  SetPerPair(state);
}
BENCHMARK(BM_TracerRecordAndSerializePair)->Arg(0)->Arg(1);

// The alternative: EtdumpBuilder::AddProfileEvent called directly at the end
// of each event (no intermediate buffer), including Finish.
void BM_BuilderAddProfileEventPair(benchmark::State& state) {
  const TimeSource source = SourceOf(state);
  for (auto _ : state) {
    EtdumpBuilder builder;
    builder.BeginRun("Execute");
    for (int i = 0; i < kPairsPerBatch; ++i) {
      const uint64_t start = ReadTicks(source);
      builder.AddProfileEvent("native_call_convolution.out", 0, i, start,
                              ReadTicks(source));
    }
    builder.EndRun();
    benchmark::DoNotOptimize(builder.Finish());
  }
  SetPerPair(state);
}
BENCHMARK(BM_BuilderAddProfileEventPair)->Arg(0)->Arg(1);

}  // namespace
}  // namespace etbench::runtime
