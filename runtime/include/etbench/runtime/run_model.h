#pragma once
// Runs a model on the reference runtime and returns its ETDump: the entry
// point of et_runner and of etbench's built-in runner.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "etbench/base/result.h"
#include "etbench/runtime/clock.h"
#include "etbench/runtime/model.h"

namespace etbench::runtime {

struct RunOptions {
  /// Executions after loading (one "Execute" block each); must be >= 1.
  int num_executions = 1;
  TimeSource time_source = TimeSource::kNs;
  /// Overrides the model's seed.
  std::optional<uint64_t> seed;
  /// Applied on top of the model's own `slowdown:` entries.
  std::vector<Slowdown> slowdowns;
  /// Debug events with every instruction's outputs (and the program
  /// outputs); tensor bytes go to RunOutput::debug_buffer.
  bool dump_intermediate_outputs = false;
  /// Debug events with the program outputs only.
  bool dump_outputs = false;
  /// Allocators and AllocationEvents in every block.
  bool log_allocations = false;
  /// Called once the method is loaded: wall time of Program::load_method in
  /// ms and the number of instructions.
  std::function<void(double load_ms, int instructions)> on_method_loaded;
  /// Called after each execution: index (0-based) and wall time in ms.
  std::function<void(int index, double wall_ms)> on_execution;
  /// Checked between executions: once it returns true the run stops and
  /// RunModel errors with "interrupted after N of M executions" (a SIGTERM
  /// is then honoured within one execution, not one repetition).
  std::function<bool()> should_stop;
};

struct OutputTensor {
  std::string name;
  std::vector<int64_t> shape;
  std::vector<float> data;
};

/// Where a delegate's events are and which unit their timestamps use.
struct DelegateRunInfo {
  std::string name;
  int32_t instruction_id = -1;
  /// "ns" or "cycles": the delegate's own event unit.
  std::string time_source;
};

struct RunOutput {
  /// The size-prefixed ETDump of the whole run.
  std::vector<uint8_t> etdump;
  /// Tensor bytes referenced by debug events; empty when none were logged.
  std::vector<uint8_t> debug_buffer;
  TimeSource time_source = TimeSource::kNs;
  TickRate tick_rate;
  uint64_t seed = 0;
  /// Every slowdown in effect (model's, then options').
  std::vector<Slowdown> slowdowns;
  /// Wall time of Program::load_method (+ Method::init), in ms.
  double load_method_ms = 0;
  /// Wall time of each execution, in ms.
  std::vector<double> execution_ms;
  /// Program outputs after the last execution.
  std::vector<OutputTensor> outputs;
  int instruction_count = 0;
  std::vector<DelegateRunInfo> delegates;
};

/// Loads the method, runs it `num_executions` times and serializes the
/// trace. Errors: bad options (executions < 1, a slowdown matching nothing,
/// cycles on a CPU without a counter).
Result<RunOutput> RunModel(const Model& model, const RunOptions& options);

}  // namespace etbench::runtime
