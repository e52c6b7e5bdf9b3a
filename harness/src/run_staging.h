#pragma once
// Where a run writes its artifacts before they replace the previous run's.

#include <filesystem>
#include <string>
#include <vector>

#include "etbench/base/result.h"

namespace etbench::harness {

/// A run's private directory OUT/.etbench-run-PID/. Models write their
/// ETDumps, sidecars and ETRecords below it; Commit() then moves each
/// model's directory into OUT, replacing the previous run's. A run killed
/// before Commit (SIGKILL, power loss) thus leaves the previous results file
/// and the artifacts it names intact and consistent; the next run removes
/// the leftovers (RemoveStaleRunFiles, etbench/base/atomic_file.h). The destructor removes the staging
/// directory (whatever Commit did not move).
class RunStaging {
 public:
  /// Creates OUT/.etbench-run-PID/ (fresh: an existing one is emptied).
  static Result<RunStaging> Create(const std::filesystem::path& out_dir);

  RunStaging(RunStaging&& other) noexcept;
  RunStaging& operator=(RunStaging&&) = delete;
  RunStaging(const RunStaging&) = delete;
  RunStaging& operator=(const RunStaging&) = delete;
  ~RunStaging();

  const std::filesystem::path& dir() const { return dir_; }

  /// Moves STAGING/<name> to OUT/<name> for every name (replacing what was
  /// there; names without a staged directory are skipped).
  Status Commit(const std::vector<std::string>& model_names);

 private:
  RunStaging(std::filesystem::path out_dir, std::filesystem::path dir);
  std::filesystem::path out_dir_;
  std::filesystem::path dir_;
};

}  // namespace etbench::harness
