#include "etbench/base/guarded_disk.h"

#include <algorithm>

namespace etbench {

void GuardedDisk::NoteRead(const std::string& path) {
  const FileStat stat = inner_.Stat(path);
  if (!stat.exists || !stat.regular) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (std::find(inputs_.begin(), inputs_.end(), stat.identity) ==
      inputs_.end()) {
    inputs_.push_back(stat.identity);
  }
}

bool GuardedDisk::IsInput(const std::string& path) {
  const FileStat stat = inner_.Stat(path);
  if (!stat.exists) return false;
  std::lock_guard<std::mutex> lock(mutex_);
  return std::find(inputs_.begin(), inputs_.end(), stat.identity) !=
         inputs_.end();
}

Result<std::vector<uint8_t>> GuardedDisk::Read(const std::string& path,
                                               uint64_t max_bytes) {
  auto bytes = inner_.Read(path, max_bytes);
  NoteRead(path);
  return bytes;
}

Status GuardedDisk::CheckWriteTarget(const std::string& path) {
  if (Status target = inner_.CheckWriteTarget(path); !target.ok())
    return target;
  if (IsInput(path)) {
    return InputOverwriteError(path);
  }
  return Ok{};
}

Status GuardedDisk::WriteAtomically(const std::string& path,
                                    const std::vector<uint8_t>& bytes,
                                    const AtomicWriteOptions& options) {
  if (Status target = CheckWriteTarget(path); !target.ok()) return target;
  return inner_.WriteAtomically(path, bytes, options);
}

Status GuardedDisk::WriteNew(const std::string& path,
                             const std::vector<uint8_t>& bytes) {
  if (Status target = CheckWriteTarget(path); !target.ok()) return target;
  return inner_.WriteNew(path, bytes);
}

}  // namespace etbench
