#pragma once
// The bytes of an ETDump: a read-only mapping of the file, or a buffer
// already in memory. Mapping means opening a file costs neither a copy nor
// zero-filled anonymous pages, and lets a reader that streams through the
// file hand the pages it has read back (ReleaseResidentPages), so the
// process's resident set stays far below the file's size.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "etbench/base/result.h"

namespace etbench {

class TruncationGuard;

/// Events a reader streaming through a mapped ETDump (the verifier, the
/// grouping) reads between two calls of FileBytes::ReleaseResidentPages:
/// 0.4-0.6 MB of a dump written by ExecuTorch or etbench, so the file's
/// share of the resident set stays that small.
constexpr std::size_t kEventsPerPageRelease = std::size_t{1} << 13;

class FileBytes {
 public:
  /// Maps the regular file at `path` read-only. `expected_size` is the size
  /// the caller checked when it opened the file; a different size now is a
  /// file changed while being read (an error naming the path). Other errors
  /// (cannot open, cannot map) name the path and the system's reason.
  static Result<std::shared_ptr<const FileBytes>> Map(const std::string& path,
                                                      uint64_t expected_size);

  /// Owns `bytes`.
  explicit FileBytes(std::vector<uint8_t> bytes);
  ~FileBytes();
  FileBytes(const FileBytes&) = delete;
  FileBytes& operator=(const FileBytes&) = delete;

  const uint8_t* data() const { return data_; }
  std::size_t size() const { return size_; }
  bool mapped() const { return map_ != nullptr; }

  /// Mapped files: drops the mapping's pages from this process's resident
  /// set (madvise MADV_DONTNEED on a private read-only file mapping). The
  /// content is unchanged: the pages stay in the page cache and the next
  /// read of them faults them back in. No-op for bytes in memory.
  void ReleaseResidentPages() const;
  /// The same for the pages holding [begin, end) only (addresses into
  /// data(), widened to whole pages, clipped to the mapping; an empty or
  /// outside span does nothing). The kernel's cost of a release grows with
  /// the span and the VMAs it covers (the mapping is split into up to 128:
  /// Map), so a reader streaming through a large file releases what it
  /// has read since its last release (RunPageRelease), not the whole file.
  void ReleaseResidentPages(const void* begin, const void* end) const;

  /// Whether a read of the mapping found the file truncated by another
  /// process (those reads saw zeros instead of ending the process with
  /// SIGBUS: truncation_guard.h). Readers check it after their pass and
  /// report an error. Always false for bytes in memory.
  bool truncated() const;

 private:
  FileBytes() = default;
  std::vector<uint8_t> owned_;
  void* map_ = nullptr;
  const uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
  std::unique_ptr<TruncationGuard> guard_;  // mapped files only
};

}  // namespace etbench
