#pragma once
// Runs a suite: selects the models (filter, shard), runs warm-up,
// iterations and repetitions through the runner, turns each ETDump into
// blocks, records per-model failures and keeps going, stops cleanly on
// Ctrl-C, and writes the results file atomically.

#include <atomic>
#include <string>

#include "etbench/base/disk.h"
#include "etbench/base/environment.h"
#include "etbench/base/result.h"
#include "etbench/harness/clock.h"
#include "etbench/harness/config.h"
#include "etbench/harness/process.h"
#include "etbench/harness/progress.h"
#include "etbench/harness/runner.h"
#include "etbench/results/results.h"

namespace etbench::harness {

struct RunDeps {
  ProcessRunner* process_runner = nullptr;    // required
  Clock* clock = nullptr;                     // required
  Environment* env = nullptr;                 // required
  Progress* progress = nullptr;               // optional
  const std::atomic<bool>* cancel = nullptr;  // optional (Ctrl-C)
  /// Used instead of the runner the config names (tests, benchmarks).
  Runner* runner = nullptr;
  std::string tool_version;
  /// Ask git for the commit and branch when the labels and the
  /// environment do not say.
  bool query_git = true;
  /// Writes the results file and is told of the model files read
  /// (Disk::NoteRead). Null: the real disk (DefaultDisk()).
  Disk* disk = nullptr;
};

/// `*deps.disk`, or DefaultDisk() when it is null.
Disk& DiskOf(const RunDeps& deps);

struct SuiteRunOutput {
  results::RunResults results;
  std::string results_path;
};

/// Runs the selected models and writes `<output_dir>/<ResultsFileName>`.
/// Errors (exit 2): bad selection, an output directory that cannot be
/// created, no runner, a results file that cannot be written. Model
/// failures are not errors: they are in the results.
Result<SuiteRunOutput> RunSuite(const SuiteConfig& config, const RunDeps& deps);

/// "results.json", or "results-shard-I-of-N.json" for a shard.
std::string ResultsFileName(const SuiteConfig& config);

}  // namespace etbench::harness
