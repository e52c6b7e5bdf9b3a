// Per-execution time of each shipped model on the reference runtime
// (tracing on, as et_runner runs them).
//
//   runtime_benchmarks --benchmark_filter=Model

#include <string>

#include <benchmark/benchmark.h>

#include "etbench/runtime/model_loader.h"
#include "exec/method.h"
#include "exec/program.h"

namespace etbench::runtime {
namespace {

void BM_ModelExecute(benchmark::State& state, const std::string& name) {
  auto model = LoadModelFile(std::string(ETBENCH_SOURCE_DIR) +
                             "/configs/models/" + name + ".yaml");
  if (!model.ok()) {
    state.SkipWithError(model.error().message.c_str());
    return;
  }
  const Program program = LowerModel(*model, {});
  Tracer tracer(TimeSource::kNs, 1 << 16);
  auto method = Method::Load(program, MethodOptions{}, tracer, nullptr);
  for (auto _ : state) {
    method->Execute(tracer);
    if (tracer.record_count() > 60000) tracer.Clear();
  }
}
BENCHMARK_CAPTURE(BM_ModelExecute, toy_cnn, std::string("toy_cnn"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ModelExecute, mlp, std::string("mlp"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ModelExecute, mobilenet_v2_block,
                  std::string("mobilenet_v2_block"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ModelExecute, transformer_block,
                  std::string("transformer_block"))
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace etbench::runtime
