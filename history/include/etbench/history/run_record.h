#pragma once
// What the history keeps of one results file: where and when it ran, from
// which commit, and every metric with its raw samples and their
// repetition/session groups.

#include <map>
#include <string>
#include <vector>

#include "etbench/compare/metrics.h"
#include "etbench/results/history_view.h"
#include "etbench/results/results.h"

namespace etbench::history {

struct ModelRecord {
  std::string name;
  std::string status;  // "ok", "failed", "interrupted"
  std::string model_sha256;
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
/// accepts for --date and --since) naming a real UTC time: month 1–12, a day
/// of that month (leap years counted), hour < 24, minute < 60, second ≤ 60.
bool IsIsoTime(const std::string& text);

}  // namespace etbench::history
