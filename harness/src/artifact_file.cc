#include "artifact_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace etbench::harness {

Status WriteArtifactFile(const std::string& path, const std::vector<uint8_t>& bytes) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) return IoError(path + ": cannot write: " + std::strerror(errno));
  const bool wrote = bytes.empty() || std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  const bool closed = std::fclose(f) == 0;
  if (!wrote || !closed) {
    const std::string reason = std::strerror(errno);
    std::remove(tmp.c_str());
    return IoError(path + ": cannot write: " + reason);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    std::remove(tmp.c_str());
    return IoError(path + ": cannot rename into place: " + reason);
  }
  return Ok{};
}

}  // namespace etbench::harness
