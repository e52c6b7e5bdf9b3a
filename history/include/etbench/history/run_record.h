#pragma once
// What the history keeps of one results file: where and when it ran, from
// which commit, and every metric with its raw samples and their
// repetition/session groups.

#include <map>
#include <string>
#include <vector>

#include "etbench/compare/metrics.h"
#include "etbench/results/results.h"

namespace etbench::history {

struct ModelRecord {
  std::string name;
  std::string status;  // "ok", "failed", "interrupted"
  std::string model_sha256;
};

/// Where, when and from what a run came: what `history list` shows.
struct RunMetadata {
  /// The run's identity: SHA-256 of its canonical results JSON, so adding
  /// the same results file twice (a retried CI job) is recognised.
  std::string run_id;
  std::string suite;
  std::string device;
  std::string host;
  std::string boot_id;
  std::string git_commit;
  std::string branch;
  std::string time;  // ISO 8601 UTC, the start of the run
  std::map<std::string, std::string> labels;
  /// "ok" (every model ok), "partial" (some failed) or "interrupted".
  std::string status;
  std::string source;  // the results file it was read from ("" if none)
};

struct RunRecord : RunMetadata {
  std::vector<ModelRecord> models;
  MetricSet metrics;
};

/// Overrides for `history add` (empty = keep what the results say).
struct RunOverrides {
  std::string git_commit;
  std::string branch;
  std::string time;
};

/// The record of `results` (read from `source`), with `overrides` applied.
/// The run id does not depend on the overrides.
RunRecord MakeRunRecord(const results::RunResults& results, const std::string& source,
                        const RunOverrides& overrides = {});

/// True for "YYYY-MM-DDTHH:MM:SS[.fff]Z" and "YYYY-MM-DD" (the forms history
/// accepts for --date and --since).
bool IsIsoTime(const std::string& text);

}  // namespace etbench::history
