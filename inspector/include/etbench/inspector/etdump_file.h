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

class FileBytes;  // the mapped (or in-memory) bytes: inspector/src/file_bytes.h
class VerifiedRunSink;  // inspector/src/verified_run_sink.h
class EventBlockReader;  // event_block_reader.h

class EtdumpFile {
 public:
  /// Maps the file read-only and verifies it. Errors name the path. The
  /// mapping lives as long as any copy of the EtdumpFile. A file truncated
  /// by another process while mapped does not end the process with SIGBUS:
  /// the lost pages read as zeros and truncated() becomes true; Open (while
  /// verifying) and BuildEventBlocks report it as an input error naming the
  /// path. Open a dump once its writer has finished.
  static Result<EtdumpFile> Open(const std::string& path);

  /// Verifies bytes that are already in memory (size-prefixed or plain).
  /// `source_name` is used in error messages (a path or "<memory>").
  static Result<EtdumpFile> FromBytes(std::vector<uint8_t> bytes,
                                      std::string source_name = "<memory>");

  const fb::ETDump& root() const { return *root_; }
  bool size_prefixed() const { return size_prefixed_; }
  const std::string& source_name() const { return source_name_; }
  std::size_t size_bytes() const;
  /// For readers that stream through the file once (the verifier, the
  /// grouping): drops the mapped file's pages from this process's resident
  /// set. Nothing read through root() becomes invalid: the pages stay in the
  /// page cache and are faulted back in when read again. No-op for
  /// FromBytes (the bytes are the caller's copy in memory).
  void ReleaseResidentPages() const;
  /// Whether a read of the mapped file found it truncated by another process
  /// since it was opened (what was read from the lost pages was zeros).
  /// Readers of root() other than BuildEventBlocks check it after reading.
  bool truncated() const;
  /// The input error for truncated(): names the path and the size it had.
  Error TruncationError() const;
  /// Oddities that the reader tolerates like the reference does, one line
  /// each naming the file (at most one per kind, naming the first event).
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  // EventBlockReader opens with a sink that groups each run as soon as it
  // is verified (sink may be null: verification alone).
  friend class EventBlockReader;
  static Result<EtdumpFile> Open(const std::string& path, VerifiedRunSink* sink);
  static Result<EtdumpFile> FromBytes(std::vector<uint8_t> bytes, std::string source_name,
                                      VerifiedRunSink* sink);

  EtdumpFile() = default;
  static Result<EtdumpFile> FromStorage(std::shared_ptr<const FileBytes> storage,
                                        std::string source_name, VerifiedRunSink* sink);
  // Shared so that EtdumpFile is cheap to move and copy; immutable.
  std::shared_ptr<const FileBytes> bytes_;
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
