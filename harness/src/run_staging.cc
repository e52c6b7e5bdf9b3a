#include "run_staging.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <utility>

namespace etbench::harness {
namespace {

namespace fs = std::filesystem;

constexpr const char kStagingPrefix[] = ".etbench-run-";

// The PID that ends `name` after `marker` ("x.tmp.123" with ".tmp."), or 0.
pid_t TrailingPid(const std::string& name, const std::string& marker, bool at_start) {
  const std::size_t at = at_start ? (name.rfind(marker, 0) == 0 ? 0 : std::string::npos)
                                  : name.rfind(marker);
  if (at == std::string::npos) return 0;
  const std::string digits = name.substr(at + marker.size());
  if (digits.empty() || digits.size() > 9 ||
      digits.find_first_not_of("0123456789") != std::string::npos) {
    return 0;
  }
  return static_cast<pid_t>(std::atol(digits.c_str()));
}

bool ProcessExists(pid_t pid) {
  // EPERM: it exists but belongs to someone else.
  return ::kill(pid, 0) == 0 || errno == EPERM;
}

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
  const fs::path dir = out_dir / (kStagingPrefix + std::to_string(::getpid()));
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
    fs::remove_all(to, ec);
    if (ec) return IoError(to.string() + ": cannot remove the previous run's artifacts: " + ec.message());
    fs::rename(from, to, ec);
    if (ec) return IoError(to.string() + ": cannot move the run's artifacts into place: " + ec.message());
  }
  return Ok{};
}

void RemoveStaleRunFiles(const fs::path& dir) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const pid_t staging_pid = TrailingPid(name, kStagingPrefix, /*at_start=*/true);
    const pid_t tmp_pid = staging_pid == 0 ? TrailingPid(name, ".tmp.", false) : 0;
    const pid_t pid = staging_pid != 0 ? staging_pid : tmp_pid;
    if (pid <= 0 || pid == ::getpid() || ProcessExists(pid)) continue;
    std::error_code ignored;
    fs::remove_all(it->path(), ignored);
  }
}

}  // namespace etbench::harness
