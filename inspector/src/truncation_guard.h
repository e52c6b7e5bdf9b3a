#pragma once
// Reading a file mapping whose file was truncated by another process raises
// SIGBUS for the pages past the new end of the file. A guarded mapping
// turns that into a flag instead of the end of the process: the handler maps
// zero-filled pages over the lost part of the mapping (so the read that
// faulted, and every later one, sees zeros) and marks the mapping truncated.
// Readers finish their pass over the (now partly zero) bytes and report the
// flag as an input error. Zeros are safe to read as a FlatBuffer: an offset
// of 0 points at itself and a length of 0 is empty, so no read leaves the
// mapping.
//
// The handler is installed once, for the whole process, and passes every
// SIGBUS that is not a read of a guarded mapping to the handler that was
// there before it (or to the default action, which ends the process).

#include <cstddef>

namespace etbench {

class TruncationGuard {
 public:
  /// Guards the mapping [begin, begin + size) (begin page-aligned, as
  /// mmap returns it) until the guard is destroyed. At most kMaxGuarded
  /// mappings are guarded at once; beyond that the mapping is not guarded
  /// (a truncation ends the process with SIGBUS, as for any mapped reader).
  TruncationGuard(const void* begin, std::size_t size);
  ~TruncationGuard();
  TruncationGuard(const TruncationGuard&) = delete;
  TruncationGuard& operator=(const TruncationGuard&) = delete;

  /// Whether a read of the mapping has found its file truncated.
  bool truncated() const;

  static constexpr std::size_t kMaxGuarded = 64;

 private:
  int slot_ = -1;  // -1: not guarded
};

}  // namespace etbench
