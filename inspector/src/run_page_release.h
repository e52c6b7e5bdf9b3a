#pragma once
// Handing a mapped ETDump's pages back behind a reader that streams through
// its runs in file order (the verifier's pass, the grouping's).

#include <algorithm>
#include <cstdint>

#include "etbench/inspector/etdump_generated.h"
#include "file_bytes.h"

namespace etbench {

/// Every kEventsPerPageRelease events, releases the pages of the runs read
/// since the last release: the span from the lowest to the highest address
/// of their RunData tables, events vectors and first and last Event tables,
/// joined with the last release's span. Writers lay a run out in one piece
/// (ETDumpGen's and etbench's FlatBuffer builders write back to front: each
/// run's tables, then its events vector, then its RunData table, below the
/// run before), so the span covers what was read, and the join covers the
/// bytes between two spans (the member tables and strings of a run's first
/// event, written before its Event table). What lies outside every span
/// (strings shared from elsewhere, another layout) stays resident until the
/// reader releases the whole file at the end of its pass.
///
/// Why not the whole mapping each time (as before): a release costs the
/// kernel a walk of every VMA it covers, up to 128 for a large file (Map),
/// so 1,200 whole-file releases of a 10 M-event dump were kernel time
/// growing with the file (perf: docs/inspector-performance.md); a span
/// covers one or two.
class RunPageRelease {
 public:
  explicit RunPageRelease(const FileBytes& pages) : pages_(pages) {}

  /// After run `run`, with its events vector `events` (null: none) of
  /// `event_count` events as the caller read them (each pointer and size is
  /// read once: a file truncated meanwhile reads as zeros, which only moves
  /// the span; the release is clipped to the file).
  void AfterRun(const fb::RunData* run,
                const flatbuffers::Vector<flatbuffers::Offset<fb::Event>>* events,
                uint64_t event_count) {
    Note(run);
    if (events != nullptr) {
      Note(events);
      Note(events->Data() + sizeof(flatbuffers::uoffset_t) * event_count);
      if (event_count > 0) {
        Note(events->Get(0));
        Note(events->Get(static_cast<flatbuffers::uoffset_t>(event_count - 1)));
      }
    }
    events_ += event_count;
    if (events_ >= kEventsPerPageRelease) Release();
  }

 private:
  void Note(const void* p) {
    const auto* b = static_cast<const uint8_t*>(p);
    if (lo_ == nullptr || b < lo_) lo_ = b;
    if (hi_ == nullptr || b > hi_) hi_ = b;
  }
  void Release() {
    const uint8_t* lo = last_lo_ != nullptr ? std::min(lo_, last_lo_) : lo_;
    const uint8_t* hi = last_hi_ != nullptr ? std::max(hi_, last_hi_) : hi_;
    pages_.ReleaseResidentPages(lo, hi + 1);  // hi's page included
    last_lo_ = lo_;
    last_hi_ = hi_;
    lo_ = hi_ = nullptr;
    events_ = 0;
  }

  const FileBytes& pages_;
  const uint8_t* lo_ = nullptr;  // noted since the last release
  const uint8_t* hi_ = nullptr;
  const uint8_t* last_lo_ = nullptr;  // noted before the last release
  const uint8_t* last_hi_ = nullptr;
  uint64_t events_ = 0;
};

}  // namespace etbench
