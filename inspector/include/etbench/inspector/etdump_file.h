#pragma once
// Verified, zero-copy access to an ETDump file.
//
// Contract: an EtdumpFile only exists once its bytes passed the FlatBuffers
// verifier and the format's own consistency checks (every Event has a
// member, allocation events name an existing allocator by 1-based id, values
// carry the member their type says). After that, root() may be read freely.
// An Event with several members is read as the reference reads it (profile,
// else debug) and reported in warnings().

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "etbench/base/result.h"
#include "etbench/inspector/etdump_generated.h"
#include "etbench/inspector/etdump_record.h"

namespace etbench {

class EtdumpFile {
 public:
  /// Reads the whole file and verifies it. Errors name the path.
  static Result<EtdumpFile> Open(const std::string& path);

  /// Verifies bytes that are already in memory (size-prefixed or plain).
  /// `source_name` is used in error messages (a path or "<memory>").
  static Result<EtdumpFile> FromBytes(std::vector<uint8_t> bytes,
                                      std::string source_name = "<memory>");

  const fb::ETDump& root() const { return *root_; }
  bool size_prefixed() const { return size_prefixed_; }
  const std::string& source_name() const { return source_name_; }
  std::size_t size_bytes() const { return bytes_->size(); }
  /// Oddities that the reader tolerates like the reference does, one line
  /// each naming the file (at most one per kind, naming the first event).
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  EtdumpFile() = default;
  // Shared so that EtdumpFile is cheap to move and copy; immutable.
  std::shared_ptr<const std::vector<uint8_t>> bytes_;
  const fb::ETDump* root_ = nullptr;
  bool size_prefixed_ = false;
  std::string source_name_;
  std::vector<std::string> warnings_;
};

/// Copies a verified file into the owning record form (for tools, tests and
/// conversions; aggregation reads the FlatBuffer directly).
EtdumpRecord DecodeEtdump(const EtdumpFile& file);

/// Reads a whole binary file (debug buffers, etc.). Errors name the path.
Result<std::vector<uint8_t>> ReadFileBytes(const std::string& path);

}  // namespace etbench
