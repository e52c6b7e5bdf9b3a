#include "etbench/base/disk.h"

#include <sys/stat.h>

#include <filesystem>
#include <system_error>

namespace etbench {

Result<std::string> Disk::ReadText(const std::string& path,
                                   uint64_t max_bytes) {
  auto bytes = Read(path, max_bytes);
  if (!bytes.ok()) return bytes.error();
  return std::string(bytes->begin(), bytes->end());
}

Status Disk::WriteText(const std::string& path, const std::string& text) {
  return WriteAtomically(path, std::vector<uint8_t>(text.begin(), text.end()),
                         AtomicWriteOptions{});
}

Result<std::vector<uint8_t>> RealDisk::Read(const std::string& path,
                                            uint64_t max_bytes) {
  auto file = InputFile::Open(path);
  if (!file.ok()) return file.error();
  return file->ReadAll(max_bytes);
}

FileStat RealDisk::Stat(const std::string& path) {
  FileStat stat;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return stat;
  stat.exists = true;
  stat.regular = S_ISREG(st.st_mode);
  stat.size = stat.regular ? static_cast<uint64_t>(st.st_size) : 0;
  stat.identity = FileIdentity{static_cast<uint64_t>(st.st_dev),
                               static_cast<uint64_t>(st.st_ino)};
  return stat;
}

Status RealDisk::CheckWriteTarget(const std::string& path) {
  return CheckOutputTarget(path);
}

Status RealDisk::WriteAtomically(const std::string& path,
                                 const std::vector<uint8_t>& bytes,
                                 const AtomicWriteOptions& options) {
  return WriteFileAtomically(path, bytes, options);
}

Status RealDisk::WriteNew(const std::string& path,
                          const std::vector<uint8_t>& bytes) {
  return WriteNewFileAtomically(path, bytes);
}

Status RealDisk::CreateDirectories(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return IoError(ec.message());
  return Ok{};
}

void RealDisk::RemoveStaleTemporaries(const std::string& dir) {
  RemoveStaleRunFiles(dir);
}

Disk& DefaultDisk() {
  static RealDisk disk;
  return disk;
}

}  // namespace etbench
