#include "etbench/runtime/run_metadata.h"

namespace etbench::runtime {

RunMetadata MakeRunMetadata(const Model& model, const RunOutput& output,
                            const std::string& model_sha256,
                            const std::string& etdump_path,
                            const std::optional<std::string>& debug_output_path) {
  RunMetadata metadata;
  metadata.model = model.name;
  metadata.model_path = model.source_path;
  metadata.model_sha256 = model_sha256;
  metadata.time_source = std::string(TimeSourceName(output.time_source));
  metadata.tick_rate_hz = output.tick_rate.hz;
  metadata.tick_rate_measured = output.tick_rate.measured;
  metadata.num_executions = static_cast<int>(output.execution_ms.size());
  metadata.seed = output.seed;
  for (const Slowdown& s : output.slowdowns) metadata.slowdowns.push_back({s.target, s.factor});
  for (const DelegateRunInfo& d : output.delegates) {
    metadata.delegates.push_back({d.name, d.instruction_id, d.time_source});
  }
  metadata.etdump_path = etdump_path;
  metadata.debug_output_path = debug_output_path;
  return metadata;
}

}  // namespace etbench::runtime
