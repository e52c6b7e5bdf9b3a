#include "etbench/base/atomic_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace etbench {

Status WriteFileAtomically(const std::string& path, const std::vector<uint8_t>& bytes,
                           const AtomicWriteOptions& options) {
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
  return Ok{};
}

}  // namespace etbench
