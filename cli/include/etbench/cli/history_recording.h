#pragma once
// Adding runs to a history from the command line: results files read from
// disk (`history add`, ab's --history), with the commit and branch asked of
// git when the results have none, and a run right after it finished (the
// --history flag of run and gate). Here rather than in history because it
// needs the harness's process runner and host information.

#include <string>

#include "etbench/base/disk.h"
#include "etbench/base/environment.h"
#include "etbench/base/result.h"
#include "etbench/harness/process.h"
#include "etbench/history/history_store.h"
#include "etbench/history/run_record.h"
#include "etbench/results/results.h"

namespace etbench {

/// Commit and branch of the run when its results have none: from git in the
/// current directory through `processes` (null = leave them empty).
void FillSourceFromGit(harness::ProcessRunner* processes, const Environment& env,
                       history::RunRecord* run);

/// Reads `path` (through `disk`) and adds it. Returns true when added, false
/// when the run was already stored. Errors name the file.
Result<bool> AddResultsFile(history::HistoryStore& store, const std::string& path,
                            const history::RunOverrides& overrides,
                            harness::ProcessRunner* processes, const Environment& env,
                            Disk& disk = DefaultDisk());

/// Adds a just-finished run to the history at `spec` (the --history flag of
/// run, gate and ab). `metrics` set: recorded instead of the results'
/// own (a gate's night of several sessions, each session's repetitions
/// kept apart). Returns a one-line note for stderr.
Result<std::string> RecordRun(const std::string& spec, const results::RunResults& results,
                              const std::string& results_path,
                              const MetricSet* metrics = nullptr);

}  // namespace etbench
