#include "file_bytes.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

#include "truncation_guard.h"

namespace etbench {

namespace {

// Bytes of the mapping one page fault may make resident, at least.
constexpr std::size_t kMinFaultSpan = std::size_t{256} << 10;
// Regions a mapping is split into, at most (each is one VMA of the
// process: far below the kernel's default limit of 65,530).
constexpr std::size_t kMaxFaultSpans = 128;

// The kernel (6.18 here) keeps a cached file in folios of up to 2 MB and a
// page fault on a file mapping maps the whole folio around the faulting
// page, within the VMA: reading one byte of an ETDump made 2 MB of it
// resident, however often the readers handed pages back (MADV_NOHUGEPAGE
// and MADV_RANDOM change nothing). A fault never maps past its VMA, so the
// mapping is split into VMAs of max(256 KB, size / 128): every other span
// gets MADV_DONTDUMP, which keeps the kernel from merging it with its
// neighbours and changes nothing else (a private read-only file mapping is
// not written to core dumps anyway). A failed madvise only leaves the
// spans merged: the bytes read are the same.
void LimitFaultMapping(void* map, std::size_t size) {
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  std::size_t span = std::max(kMinFaultSpan, size / kMaxFaultSpans);
  span = (span + page - 1) / page * page;
  auto* begin = static_cast<uint8_t*>(map);
  for (std::size_t offset = span; offset < size; offset += 2 * span) {
    ::madvise(begin + offset, std::min(span, size - offset), MADV_DONTDUMP);
  }
}

}  // namespace

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
    LimitFaultMapping(map, static_cast<std::size_t>(expected_size));
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

void FileBytes::ReleaseResidentPages(const void* begin, const void* end) const {
  if (map_ == nullptr) return;
  const auto base = reinterpret_cast<uintptr_t>(map_);  // page-aligned (mmap)
  const uintptr_t from = std::max(reinterpret_cast<uintptr_t>(begin), base);
  const uintptr_t to = std::min(reinterpret_cast<uintptr_t>(end), base + size_);
  if (from >= to) return;
  const auto page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  const uintptr_t first = from & ~(page - 1);
  // The kernel rounds the length up to whole pages; the mapping's last page
  // is mapped whole.
  ::madvise(reinterpret_cast<void*>(first), to - first, MADV_DONTNEED);
}

}  // namespace etbench
