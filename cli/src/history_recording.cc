#include "etbench/cli/history_recording.h"

#include "etbench/harness/host_info.h"
#include "etbench/results/input_files.h"

namespace etbench {

void FillSourceFromGit(harness::ProcessRunner* processes, const Environment& env,
                       history::RunRecord* run) {
  if (!run->git_commit.empty() && !run->branch.empty()) return;
  const harness::SourceInfo source = harness::CollectSourceInfo({}, env, processes, run->host);
  if (run->git_commit.empty()) run->git_commit = source.git_commit;
  if (run->branch.empty()) run->branch = source.branch;
}

Result<bool> AddResultsFile(history::HistoryStore& store, const std::string& path,
                            const history::RunOverrides& overrides,
                            harness::ProcessRunner* processes, const Environment& env,
                            Disk& disk) {
  auto results = results::ReadRunFile(path, disk);  // a results or Google Benchmark file
  if (!results.ok()) return results.error();
  history::RunRecord run = history::MakeRunRecord(results.value(), path, overrides);
  FillSourceFromGit(processes, env, &run);
  auto added = store.AddRun(run);
  if (!added.ok()) return Error{added.error().code, path + ": " + added.error().message};
  return added;
}

Result<std::string> RecordRun(const std::string& spec, const results::RunResults& results,
                              const std::string& results_path, const MetricSet* metrics) {
  auto store = history::OpenHistory(spec);
  if (!store.ok()) return store.error();
  history::RunRecord record = history::MakeRunRecord(results, results_path);
  if (metrics) record.metrics.metrics = metrics->metrics;
  auto added = store.value()->AddRun(record);
  if (!added.ok()) return added.error();
  // A night of several sessions is recorded whole, while the results file
  // holds its first session only: say so, or the line reads as if
  // `history add` of that file would reproduce the night.
  const std::size_t sessions = SessionCount(record.metrics);
  const std::string what =
      sessions > 1 ? "the night's " + std::to_string(sessions) + " sessions (the first: " +
                         results_path + ")"
                   : results_path;
  return std::string(*added ? "added " : "already in ") + what +
         (*added ? " to the history " : " the history ") +
         history::HistoryDisplayName(spec);
}

}  // namespace etbench
