#pragma once
// Opening input files safely: only regular files, never blocking, size-capped.
//
// Every reader of a user-supplied path goes through here, so that a
// directory, FIFO, device node or socket is refused up front with one line
// ("PATH: is a FIFO, not a regular file") instead of blocking in open(),
// allocating the size of /dev/zero or throwing std::bad_alloc, and so that a
// file larger than its format allows is refused before it is read.

#include <cstdint>
#include <string>
#include <vector>

#include "etbench/base/result.h"

namespace etbench {

/// Default cap for text inputs (YAML, JSON): 512 MiB.
inline constexpr uint64_t kMaxTextFileBytes = uint64_t{512} << 20;

/// An open, regular, read-only file descriptor; closed on destruction.
class InputFile {
 public:
  /// Opens `path` without blocking (O_NONBLOCK, so a FIFO cannot hang) and
  /// checks it is a regular file. Errors: cannot open (with strerror), "is a
  /// directory", "is a FIFO", "is a character device", ... "not a regular
  /// file".
  static Result<InputFile> Open(const std::string& path);

  InputFile(InputFile&& other) noexcept;
  InputFile& operator=(InputFile&& other) noexcept;
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  ~InputFile();

  /// Size in bytes at open time.
  uint64_t size() const { return size_; }
  const std::string& path() const { return path_; }

  /// Reads up to `n` bytes starting at `offset` (fewer at end of file).
  Result<std::vector<uint8_t>> ReadAt(uint64_t offset, std::size_t n) const;

  /// Reads the whole file; errors when it is larger than `max_bytes`
  /// ("PATH: 4294967296 bytes is larger than the 536870912-byte limit").
  Result<std::vector<uint8_t>> ReadAll(uint64_t max_bytes) const;

 private:
  InputFile(int fd, uint64_t size, std::string path);
  int fd_ = -1;
  uint64_t size_ = 0;
  std::string path_;
};

/// Reads a whole regular file of at most `max_bytes` as text.
Result<std::string> ReadTextFile(const std::string& path,
                                 uint64_t max_bytes = kMaxTextFileBytes);

/// "is a directory", "is a FIFO", "is a character device", "is a symbolic
/// link", ... for the st_mode of a file that is not a regular file.
const char* NonRegularFileKind(unsigned int mode);

/// Errors unless `path` names a regular file (same messages as
/// InputFile::Open), for readers that open the file themselves (libzip).
Status CheckRegularFile(const std::string& path);

}  // namespace etbench
