#pragma once
// What EtdumpFile's verifier hands each run to as soon as the run is
// verified and checked, while its bytes are still in the cache: the
// grouping of EventBlockReader (one pass over the file instead of two).

#include <cstddef>

#include "etbench/inspector/etdump_generated.h"

namespace etbench {

class VerifiedRunSink {
 public:
  virtual ~VerifiedRunSink() = default;
  /// Called when the buffer's run_data vector is verified, before its first
  /// run: `buffer_bytes` is the size of the bytes the runs are read from
  /// (EtdumpFile::size_bytes() of the file that results), `run_count` the
  /// vector's size. Called again, forgetting every run added before, when
  /// the reader verifies the buffer once more (a plain buffer re-verified
  /// with its stripped size prefix put back: the runs are read from a copy).
  virtual void Begin(std::size_t buffer_bytes, std::size_t run_count) = 0;
  /// Run `index`, just verified (the verifier has walked every table it
  /// references) and checked for consistency. Runs come in file order and
  /// only while every earlier run passed both: once one fails, Open fails
  /// and no later run is added.
  virtual void Add(std::size_t index, const fb::RunData& run) = 0;
};

}  // namespace etbench
