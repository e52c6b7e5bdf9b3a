#pragma once
// Writing files so that a reader never sees half of one: a temporary file in
// the same directory, then rename(2) over the target.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "etbench/base/result.h"

namespace etbench {

struct AtomicWriteOptions {
  /// fsync before the rename, so the new content survives a crash. Off for
  /// per-repetition artifacts (ETDumps, sidecars): an fsync costs
  /// milliseconds, more than many model runs, and a lost artifact is
  /// re-created by the next run; results, baselines and reports keep it on.
  bool sync = true;
};

/// Writes `bytes` to `path` via "<path>.tmp.<pid>" + rename. On failure the
/// temporary file is removed, `path` is untouched and the error names the
/// path, the step that failed and the system's reason. Refuses what
/// CheckOutputTarget refuses (non-regular targets); with `sync`, also fsyncs
/// the directory after the rename. Code that writes for a command goes
/// through its Disk (disk.h), which also refuses the command's inputs.
Status WriteFileAtomically(const std::string& path, const std::vector<uint8_t>& bytes,
                           const AtomicWriteOptions& options = {});

/// WriteFileAtomically without fsync: per-repetition run artifacts.
inline Status WriteArtifactFile(const std::string& path, const std::vector<uint8_t>& bytes) {
  return WriteFileAtomically(path, bytes, AtomicWriteOptions{/*sync=*/false});
}

/// Prefix of a run's private staging directory (OUT/.etbench-run-PID/).
inline constexpr const char kRunStagingPrefix[] = ".etbench-run-";

/// True when `name` (a directory entry's name) has the form of a staging
/// directory (.etbench-run-PID) or a temporary file (NAME.tmp.PID): the
/// entries RemoveStaleRunFiles may remove. Entries etbench names after
/// something from outside (a model's artifact directory) must not have it.
bool IsRunFileName(const std::string& name);

/// Removes, directly inside `dir`, staging directories (.etbench-run-PID)
/// and temporary files (NAME.tmp.PID, left by WriteFileAtomically) whose
/// process PID no longer exists. Those of live processes (a concurrent run)
/// are left alone. Best effort.
void RemoveStaleRunFiles(const std::filesystem::path& dir);

}  // namespace etbench
