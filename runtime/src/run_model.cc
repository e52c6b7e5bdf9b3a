#include "etbench/runtime/run_model.h"

#include <algorithm>
#include <chrono>
#include <new>

#include "etbench/runtime/model_loader.h"
#include "etbench/runtime/tracer.h"
#include "exec/method.h"
#include "exec/program.h"

namespace etbench::runtime {
namespace {

double MsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

// Records one execution produces: two per kernel instruction, one per
// delegate op, a few per block; debug events on top.
std::size_t ExpectedRecords(const Program& program, int executions) {
  std::size_t per_execution = 8 + 3 * program.instructions.size();
  for (const Partition& partition : program.partitions) {
    per_execution += partition.nodes.size();
  }
  const std::size_t total =
      per_execution * (static_cast<std::size_t>(executions) + 1);
  return std::min<std::size_t>(total, std::size_t{1} << 20);
}

Result<RunOutput> RunModelOrThrow(const Model& model,
                                  const RunOptions& options);

}  // namespace

Result<RunOutput> RunModel(const Model& model, const RunOptions& options) {
  try {
    return RunModelOrThrow(model, options);
  } catch (const std::bad_alloc&) {
    return Error{ErrorCode::kInternal,
                 "model '" + model.name +
                     "': out of memory while loading or running it"};
  }
}

namespace {

Result<RunOutput> RunModelOrThrow(const Model& model,
                                  const RunOptions& options) {
  if (options.num_executions < 1) {
    return UsageError("num_executions must be at least 1, got " +
                      std::to_string(options.num_executions));
  }
  if (options.time_source == TimeSource::kCycles && !CycleCounterAvailable()) {
    return UsageError("time source 'cycles' is not supported on this CPU");
  }
  if (auto status = ValidateSlowdowns(model, options.slowdowns); !status) {
    return status.error();
  }

  RunOutput output;
  output.time_source = options.time_source;
  output.seed = options.seed.value_or(model.seed);
  const TickRateMeter meter(options.time_source);

  const Program program = LowerModel(model, options.slowdowns);
  output.slowdowns = program.model.slowdowns;
  output.instruction_count = static_cast<int>(program.instructions.size());
  for (const Partition& partition : program.partitions) {
    const DelegateSpec& spec = model.delegates[partition.delegate];
    output.delegates.push_back(DelegateRunInfo{
        spec.name, partition.instruction,
        std::string(spec.clock == DelegateClock::kCycles
                        ? "cycles"
                        : TimeSourceName(options.time_source))});
  }

  MethodOptions method_options;
  method_options.seed = output.seed;
  method_options.log_intermediate_outputs = options.dump_intermediate_outputs;
  method_options.log_program_outputs = options.dump_outputs;
  method_options.log_allocations = options.log_allocations;
  const bool logs_values =
      options.dump_intermediate_outputs || options.dump_outputs;

  Tracer tracer(options.time_source,
                ExpectedRecords(program, options.num_executions));
  const auto load_start = std::chrono::steady_clock::now();
  std::unique_ptr<Method> method =
      Method::Load(program, method_options, tracer,
                   logs_values ? &output.debug_buffer : nullptr);
  output.load_method_ms = MsSince(load_start);
  if (options.on_method_loaded) {
    options.on_method_loaded(output.load_method_ms, output.instruction_count);
  }

  output.execution_ms.reserve(options.num_executions);
  for (int i = 0; i < options.num_executions; ++i) {
    if (options.should_stop && options.should_stop()) {
      return UsageError("interrupted after " + std::to_string(i) + " of " +
                        std::to_string(options.num_executions) + " executions");
    }
    const auto start = std::chrono::steady_clock::now();
    method->Execute(tracer);
    output.execution_ms.push_back(MsSince(start));
    if (options.on_execution) options.on_execution(i, output.execution_ms.back());
  }

  for (std::size_t i = 0; i < program.output_values.size(); ++i) {
    const int id = program.output_values[i];
    OutputTensor tensor;
    tensor.name = program.model.outputs[i];
    tensor.shape = program.values[id].shape;
    const float* data = method->ValueData(id);
    tensor.data.assign(data, data + kernels::NumElements(tensor.shape));
    output.outputs.push_back(std::move(tensor));
  }
  output.etdump = tracer.ToEtdump();
  output.tick_rate = meter.Finish();
  return output;
}

}  // namespace

}  // namespace etbench::runtime
