#include "etbench/base/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "etbench/base/atomic_file.h"
#include "etbench/base/input_file.h"
#include "etbench/base/signal_hold.h"

namespace etbench {

std::optional<FileIdentity> IdentityOf(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return FileIdentity{st.st_dev, st.st_ino};
}

Error InputOverwriteError(const std::string& path) {
  return InputError(path + ": is an input of this command; refusing to overwrite it");
}

Status CheckOutputTarget(const std::string& path) { return CheckOutputTarget(path, {}); }

Status CheckOutputTarget(const std::string& path, const std::vector<FileIdentity>& inputs) {
  if (path.empty()) return UsageError("empty output file name");
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return Ok{};  // does not exist yet
  if (!S_ISREG(st.st_mode)) {
    return InputError(path + ": " + NonRegularFileKind(st.st_mode) +
                      "; refusing to replace it with a regular file");
  }
  const std::optional<FileIdentity> id = IdentityOf(path);
  if (id && std::find(inputs.begin(), inputs.end(), *id) != inputs.end()) {
    return InputOverwriteError(path);
  }
  return Ok{};
}

Status WriteNewFileAtomically(const std::string& path, const std::vector<uint8_t>& bytes) {
  if (Status target = CheckOutputTarget(path); !target.ok()) return target;
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) return InputError(path + ": already exists");
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  const ScopedSignalHold hold;  // until the temporary file is removed again
  if (Status written = WriteFileAtomically(tmp, bytes); !written.ok()) return written;
  // link() fails with EEXIST if `path` appeared meanwhile: no check-then-
  // rename race between two writers.
  const int linked = ::link(tmp.c_str(), path.c_str());
  const int link_errno = errno;
  std::remove(tmp.c_str());
  if (linked != 0) {
    if (link_errno == EEXIST) return InputError(path + ": already exists");
    return IoError(path + ": cannot create (" + std::strerror(link_errno) + ")");
  }
  return Ok{};
}

}  // namespace etbench
