#pragma once
// From one repetition's ETDump to result blocks: verify, group like the
// Inspector, drop the warm-up Execute runs, convert every sample to the
// suite's unit; then concatenate repetitions.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "etbench/base/result.h"
#include "etbench/inspector/etrecord.h"
#include "etbench/results/results.h"

namespace etbench::harness {

struct EtdumpProcessOptions {
  /// Unit of the samples: ns, us, ms, s or cycles.
  std::string unit = "ms";
  /// Tick source and rate of the timestamps.
  std::string time_source = "ns";
  double tick_rate_hz = 1e9;
  /// Each delegate's own tick source; events of a delegate whose clock
  /// differs from `time_source` are converted with `delegate_cycles_hz`.
  std::vector<std::string> delegate_time_sources;
  std::optional<double> delegate_cycles_hz;
  /// Leading Execute runs not counted.
  std::size_t warmup_runs = 0;
  /// When set, the exact number of Execute runs required.
  std::optional<std::size_t> expected_execute_runs;
  /// Op types and module paths of the events (optional).
  const Etrecord* etrecord = nullptr;
};

struct ProcessedEtdump {
  std::vector<results::BlockResult> blocks;
  std::size_t execute_runs = 0;
  std::size_t warmup_runs_dropped = 0;
  std::vector<std::string> warnings;
};

/// Samples are final; statistics (PerfData other than raw) are stale until
/// FinalizeBlockStats, which runs once after all repetitions.
/// Errors: empty bytes, a file that fails verification, too few (or, with
/// expected_execute_runs, a different number of) Execute runs, a unit that
/// needs a tick rate the run does not have.
Result<ProcessedEtdump> ProcessEtdump(std::vector<uint8_t> bytes, const std::string& source_name,
                                      const EtdumpProcessOptions& options);

/// Adds a repetition's blocks to a model's: a block with the same name and
/// the same events (name, instruction, delegate id, occurrence, in order)
/// gets the samples appended in run order; any other becomes a new block.
/// Statistics are stale until FinalizeBlockStats.
void AppendRepetitionBlocks(std::vector<results::BlockResult>* model_blocks,
                            std::vector<results::BlockResult> repetition_blocks);

/// Recomputes every PerfData (events, framework tax) from its raw samples.
/// Precondition: every event has at least one sample.
void FinalizeBlockStats(std::vector<results::BlockResult>* blocks);

}  // namespace etbench::harness
