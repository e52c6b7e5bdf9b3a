#include "file_bytes.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "truncation_guard.h"

namespace etbench {

Result<std::shared_ptr<const FileBytes>> FileBytes::Map(const std::string& path,
                                                        uint64_t expected_size) {
  // O_NONBLOCK: the caller checked this is a regular file, but it may have
  // been replaced by a FIFO since; opening that must not hang.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return IoError(path + ": cannot open: " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
      static_cast<uint64_t>(st.st_size) != expected_size) {
    ::close(fd);
    return IoError(path + ": file changed while being read (" + std::to_string(expected_size) +
                   " bytes expected)");
  }
  std::shared_ptr<FileBytes> bytes(new FileBytes());
  if (expected_size > 0) {
    void* map = ::mmap(nullptr, static_cast<std::size_t>(expected_size), PROT_READ, MAP_PRIVATE,
                       fd, 0);
    if (map == MAP_FAILED) {
      const int e = errno;
      ::close(fd);
      return IoError(path + ": cannot map: " + std::strerror(e));
    }
    bytes->map_ = map;
    bytes->data_ = static_cast<const uint8_t*>(map);
    bytes->size_ = static_cast<std::size_t>(expected_size);
    bytes->guard_ = std::make_unique<TruncationGuard>(map, bytes->size_);
  }
  ::close(fd);  // the mapping keeps the file open
  return std::shared_ptr<const FileBytes>(std::move(bytes));
}

FileBytes::FileBytes(std::vector<uint8_t> bytes)
    : owned_(std::move(bytes)), data_(owned_.data()), size_(owned_.size()) {}

FileBytes::~FileBytes() {
  guard_.reset();  // before the range can be mapped by someone else
  if (map_ != nullptr) ::munmap(map_, size_);
}

bool FileBytes::truncated() const { return guard_ != nullptr && guard_->truncated(); }

void FileBytes::ReleaseResidentPages() const {
  if (map_ != nullptr) ::madvise(map_, size_, MADV_DONTNEED);
}

}  // namespace etbench
