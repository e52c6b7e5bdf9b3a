// RunResults → MetricSet, the comparison's input (metrics.h).
#include <map>

#include "etbench/compare/run_context.h"
#include "etbench/inspector/event_role.h"
#include "etbench/inspector/inspector.h"
#include "etbench/results/results.h"

namespace etbench::results {
namespace {

// The block's repetitions as sample groups, when every run of the block
// gave one sample (otherwise which sample came from where is unknown).
std::vector<uint64_t> GroupSizes(const BlockResult& block, std::size_t samples) {
  if (samples != block.run_count || block.repetition_run_counts.empty()) return {};
  return block.repetition_run_counts;
}

}  // namespace

MetricSet ToMetricSet(const RunResults& results) {
  MetricSet set;
  const ResultsMetadata& m = results.metadata;
  set.context = {{"suite", m.suite},
                 {"device", m.device},
                 {"cpu", m.cpu},
                 {"host", m.host},
                 {"os", m.os},
                 {"boot_id", m.boot_id},
                 {"time_source", m.time_source},
                 {"unit", m.unit},
                 {"git_commit", m.git_commit},
                 {"branch", m.branch},
                 {"date", m.date},
                 {"runner", m.runner},
                 {"config_hash", m.config_hash}};
  RunContext typed;
  typed.tick_rate_hz = m.tick_rate_hz;
  typed.interrupted = results.interrupted;
  typed.labels = m.labels;
  for (const ModelResult& model : results.models) {
    typed.models[model.name] = {ModelStatusName(model.status), model.model_sha256};
  }
  WriteRunContext(typed, set.context);

  for (const ModelResult& model : results.models) {
    if (model.status != ModelStatus::kOk) continue;
    std::map<std::string, int> seen_blocks;
    for (const BlockResult& block : model.blocks) {
      const int nth = seen_blocks[block.name]++;
      const std::string block_key = nth == 0 ? block.name : block.name + "#" + std::to_string(nth);
      for (const EventResult& event : block.events) {
        Metric metric;
        metric.key.model = model.name;
        metric.key.block = block_key;
        metric.key.kind = MetricKind::kEvent;
        metric.key.name = event.name;
        metric.key.instruction_id = event.instruction_id;
        metric.key.delegate_id = DelegateDebugIdToString(event.delegate_debug_identifier);
        metric.key.occurrence = event.occurrence;
        metric.unit = model.unit;
        metric.samples = event.perf_data.raw;
        metric.group_sizes = GroupSizes(block, metric.samples.size());
        const EventRole role = event.Role();
        // The method-level framework events are gated on their own.
        metric.end_to_end = IsEndToEnd(role);
        metric.op_types = event.op_types;
        metric.module_paths = event.module_paths;
        metric.delegate_backend_name = event.delegate_backend_name;
        metric.is_kernel_or_delegate_call = IsKernelOrDelegateCall(role);
        set.metrics.push_back(std::move(metric));
      }
      if (block.framework_tax) {
        Metric metric;
        metric.key.model = model.name;
        metric.key.block = block_key;
        metric.key.kind = MetricKind::kFrameworkTax;
        metric.key.name = "framework_tax";
        metric.unit = "percent";
        metric.samples = block.framework_tax->raw;
        metric.group_sizes = GroupSizes(block, metric.samples.size());
        metric.end_to_end = true;
        set.metrics.push_back(std::move(metric));
      }
      for (const AllocatorUsage& usage : block.allocations) {
        Metric metric;
        metric.key.model = model.name;
        metric.key.block = block_key;
        metric.key.kind = MetricKind::kAllocation;
        metric.key.name = usage.name;
        metric.unit = "bytes";
        metric.samples.assign(usage.bytes_per_run.begin(), usage.bytes_per_run.end());
        metric.group_sizes = GroupSizes(block, metric.samples.size());
        set.metrics.push_back(std::move(metric));
      }
    }
    for (const BenchmarkResult& benchmark : model.benchmarks) {
      Metric metric;
      metric.key.model = model.name;
      metric.key.kind = MetricKind::kBenchmark;
      metric.key.name = benchmark.name;
      metric.unit = model.unit;
      metric.samples = benchmark.perf_data.raw;
      metric.end_to_end = true;
      set.metrics.push_back(std::move(metric));
    }
  }
  return set;
}

}  // namespace etbench::results
