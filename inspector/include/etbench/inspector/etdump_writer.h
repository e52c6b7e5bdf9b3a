#pragma once
// Builds ETDump files that ExecuTorch's own tools read.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "etbench/inspector/etdump_record.h"
#include "etbench/inspector/result.h"

namespace flatbuffers {
class FlatBufferBuilder;
}

namespace etbench {

struct EtdumpWriteOptions {
  /// Devices write a 4-byte little-endian length before the buffer; so do we
  /// by default.
  bool size_prefixed = true;
};

/// Streaming builder: events are appended to the current run in the order
/// they are added (the runtime's convention is completion order).
/// Usage: BeginRun → Add* … → EndRun, repeated; then Finish.
class EtdumpBuilder {
 public:
  explicit EtdumpBuilder(uint32_t version = 0);
  ~EtdumpBuilder();
  EtdumpBuilder(const EtdumpBuilder&) = delete;
  EtdumpBuilder& operator=(const EtdumpBuilder&) = delete;

  void BeginRun(std::string_view name, int32_t bundled_input_index = -1);
  /// Declares an allocator of the current run; returns its allocator id.
  int32_t AddAllocator(std::string_view name);
  void AddProfileEvent(const ProfileEventRecord& event);
  /// Fast path for the common case (no delegate ids, no metadata). `name` is
  /// interned: repeated names are stored once in the file.
  void AddProfileEvent(std::string_view name, int32_t chain_index,
                       int32_t instruction_id, uint64_t start_time,
                       uint64_t end_time);
  void AddAllocationEvent(int32_t allocator_id, uint64_t allocation_size);
  void AddDebugEvent(const DebugEventRecord& event);
  void EndRun();

  /// Serializes everything added so far. The builder must not be used after.
  std::vector<uint8_t> Finish(const EtdumpWriteOptions& options = {});

 private:
  struct Impl;
  Impl* impl_;
};

/// Serializes a whole record (convenience over EtdumpBuilder).
std::vector<uint8_t> WriteEtdump(const EtdumpRecord& record,
                                 const EtdumpWriteOptions& options = {});

/// Writes bytes to `path` atomically (temporary file in the same directory,
/// fsync, rename, directory fsync). Refuses targets CheckOutputTarget
/// refuses (non-regular files, inputs of the running command).
Status WriteFileAtomically(const std::string& path,
                           const std::vector<uint8_t>& bytes);

}  // namespace etbench
