#include "run_staging.h"

#include "etbench/base/atomic_file.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <system_error>
#include <utility>

namespace etbench::harness {
namespace {

namespace fs = std::filesystem;

// The move into place is tried this many more times when a concurrent run
// of the same output directory got in between (see Commit).
constexpr int kCommitAttempts = 5;

}  // namespace

RunStaging::RunStaging(fs::path out_dir, fs::path dir)
    : out_dir_(std::move(out_dir)), dir_(std::move(dir)) {}

RunStaging::RunStaging(RunStaging&& other) noexcept
    : out_dir_(std::move(other.out_dir_)), dir_(std::exchange(other.dir_, fs::path())) {}

RunStaging::~RunStaging() {
  if (dir_.empty()) return;
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

Result<RunStaging> RunStaging::Create(const fs::path& out_dir) {
  const fs::path dir = out_dir / (kRunStagingPrefix + std::to_string(::getpid()));
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir, ec);
  if (ec) return IoError(dir.string() + ": cannot create directory: " + ec.message());
  return RunStaging(out_dir, dir);
}

Status RunStaging::Commit(const std::vector<std::string>& model_names) {
  for (const std::string& name : model_names) {
    const fs::path from = dir_ / name;
    std::error_code ec;
    if (!fs::is_directory(from, ec)) continue;
    const fs::path to = out_dir_ / name;
    // The previous artifacts are first renamed out of the way (atomic),
    // then removed: another run committing into the same output directory
    // at the same time (two jobs, or tests under ctest -j) never removes a
    // tree this run is removing. If that run moves its own artifacts in
    // between, they are moved away in turn; the last run's stay, whole.
    const fs::path old = out_dir_ / ("." + name + ".old-" + std::to_string(::getpid()));
    fs::remove_all(old, ec);  // left by an earlier process of the same pid
    for (int attempt = 0;; ++attempt) {
      ec.clear();
      fs::rename(to, old, ec);
      if (ec && ec != std::errc::no_such_file_or_directory) {
        return IoError(to.string() + ": cannot remove the previous run's artifacts: " + ec.message());
      }
      if (!ec) {
        fs::remove_all(old, ec);
        if (ec) return IoError(old.string() + ": cannot remove the previous run's artifacts: " + ec.message());
      }
      fs::rename(from, to, ec);
      if (!ec) break;
      const bool replaced = ec == std::errc::directory_not_empty || ec == std::errc::file_exists;
      if (!(replaced && attempt < kCommitAttempts)) {
        return IoError(to.string() + ": cannot move the run's artifacts into place: " + ec.message());
      }
    }
  }
  return Ok{};
}

}  // namespace etbench::harness
