#include "etbench/base/atomic_file.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "etbench/base/output_file.h"
#include "etbench/base/signal_hold.h"

namespace etbench {
namespace {

namespace fs = std::filesystem;

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

bool IsRunFileName(const std::string& name) {
  return TrailingPid(name, kRunStagingPrefix, /*at_start=*/true) != 0 ||
         TrailingPid(name, ".tmp.", /*at_start=*/false) != 0;
}

Status WriteFileAtomically(const std::string& path, const std::vector<uint8_t>& bytes,
                           const AtomicWriteOptions& options) {
  if (Status target = CheckOutputTarget(path); !target.ok()) return target;
  const ScopedSignalHold hold;  // from the temporary file's creation to the rename
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) {
    return IoError(path + ": cannot create " + tmp + " (" + std::strerror(errno) + ")");
  }
  const bool wrote = bytes.empty() || std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  const bool flushed = std::fflush(f) == 0 && (!options.sync || ::fsync(fileno(f)) == 0);
  const bool closed = std::fclose(f) == 0;
  if (!wrote || !flushed || !closed) {
    const std::string reason = std::strerror(errno);
    std::remove(tmp.c_str());
    return IoError(path + ": write failed (" + reason + ")");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    std::remove(tmp.c_str());
    return IoError(path + ": cannot rename " + tmp + " into place (" + reason + ")");
  }
  if (options.sync) {
    // The rename itself is durable only once the directory is synced.
    const std::size_t slash = path.rfind('/');
    const std::string dir =
        slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
    const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir_fd >= 0) {
      (void)::fsync(dir_fd);
      ::close(dir_fd);
    }
  }
  return Ok{};
}

void RemoveStaleRunFiles(const std::filesystem::path& dir) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const pid_t staging_pid = TrailingPid(name, kRunStagingPrefix, /*at_start=*/true);
    const pid_t tmp_pid = staging_pid == 0 ? TrailingPid(name, ".tmp.", false) : 0;
    const pid_t pid = staging_pid != 0 ? staging_pid : tmp_pid;
    if (pid <= 0 || pid == ::getpid() || ProcessExists(pid)) continue;
    std::error_code ignored;
    fs::remove_all(it->path(), ignored);
  }
}

}  // namespace etbench
