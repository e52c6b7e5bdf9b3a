#include "etbench/base/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace etbench {

const char* NonRegularFileKind(unsigned int mode) {
  if (S_ISLNK(mode)) return "is a symbolic link";
  if (S_ISDIR(mode)) return "is a directory";
  if (S_ISFIFO(mode)) return "is a FIFO";
  if (S_ISCHR(mode)) return "is a character device";
  if (S_ISBLK(mode)) return "is a block device";
  if (S_ISSOCK(mode)) return "is a socket";
  return "is a special file";
}

namespace {

Error NotRegular(const std::string& path, mode_t mode) {
  return InputError(path + ": " + NonRegularFileKind(mode) + ", not a regular file");
}

}  // namespace

InputFile::InputFile(int fd, uint64_t size, std::string path)
    : fd_(fd), size_(size), path_(std::move(path)) {}

InputFile::InputFile(InputFile&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), size_(other.size_), path_(std::move(other.path_)) {}

InputFile& InputFile::operator=(InputFile&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    size_ = other.size_;
    path_ = std::move(other.path_);
  }
  return *this;
}

InputFile::~InputFile() {
  if (fd_ >= 0) ::close(fd_);
}

Result<InputFile> InputFile::Open(const std::string& path) {
  if (path.empty()) return InputError("empty file name");
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    const int e = errno;
    // Opening a directory read-only succeeds on Linux; other failures
    // (ENOENT, EACCES, ENXIO for a socket) are reported as they are.
    return IoError(path + ": cannot open (" + std::strerror(e) + ")");
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int e = errno;
    ::close(fd);
    return IoError(path + ": cannot stat (" + std::strerror(e) + ")");
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return NotRegular(path, st.st_mode);
  }
  // Regular files never block; reads should wait for the disk as usual.
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  return InputFile(fd, static_cast<uint64_t>(st.st_size), path);
}

Result<std::vector<uint8_t>> InputFile::ReadAt(uint64_t offset, std::size_t n) const {
  std::vector<uint8_t> bytes(n);
  std::size_t got = 0;
  while (got < n) {
    const ssize_t r = ::pread(fd_, bytes.data() + got, n - got, static_cast<off_t>(offset + got));
    if (r < 0) {
      if (errno == EINTR) continue;
      return IoError(path_ + ": read failed (" + std::strerror(errno) + ")");
    }
    if (r == 0) break;
    got += static_cast<std::size_t>(r);
  }
  bytes.resize(got);
  return bytes;
}

Result<std::vector<uint8_t>> InputFile::ReadAll(uint64_t max_bytes) const {
  if (size_ > max_bytes) {
    return InputError(path_ + ": " + std::to_string(size_) + " bytes is larger than the " +
                      std::to_string(max_bytes) + "-byte limit for this kind of file");
  }
  auto bytes = ReadAt(0, static_cast<std::size_t>(size_));
  if (!bytes.ok()) return bytes;
  if (bytes->size() != size_) {
    return IoError(path_ + ": file changed while being read (" + std::to_string(size_) +
                   " bytes expected, " + std::to_string(bytes->size()) + " read)");
  }
  return bytes;
}

Result<std::string> ReadTextFile(const std::string& path, uint64_t max_bytes) {
  auto file = InputFile::Open(path);
  if (!file.ok()) return file.error();
  auto bytes = file->ReadAll(max_bytes);
  if (!bytes.ok()) return bytes.error();
  return std::string(bytes->begin(), bytes->end());
}

Status CheckRegularFile(const std::string& path) {
  auto file = InputFile::Open(path);
  if (!file.ok()) return file.error();
  return Ok{};
}

}  // namespace etbench
