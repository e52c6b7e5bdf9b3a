#pragma once
// The zip side of ETRecords, over libzip: bounded reads of named entries and
// an in-memory writer.

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "etbench/base/result.h"

struct zip;
struct zip_source;

namespace etbench::etrecord_internal {

/// A read-only zip archive. Messages name `display_name` (the file).
class ZipReader {
 public:
  /// Opens a file. Errors: missing/unreadable (kIo), not a zip (kInvalidInput).
  static Result<ZipReader> OpenFile(const std::string& path);
  /// Opens bytes that must outlive the reader.
  static Result<ZipReader> OpenBytes(const std::vector<uint8_t>& bytes,
                                     const std::string& display_name);

  /// Entry names in archive order.
  const std::vector<std::string>& entries() const { return entries_; }
  bool Has(const std::string& name) const;

  /// The entry's bytes; errors ("<file>: entry '<name>': ...") when missing,
  /// larger than `max_bytes`, or unreadable (bad CRC, truncated data).
  Result<std::string> Read(const std::string& name, uint64_t max_bytes) const;

 private:
  struct Closer {
    void operator()(struct zip* archive) const;
  };
  ZipReader(std::unique_ptr<struct zip, Closer> archive,
            std::string display_name);

  std::unique_ptr<struct zip, Closer> archive_;
  std::string display_name_;
  std::vector<std::string> entries_;
};

/// A zip archive holding `entries` (name, content) in order, stored
/// uncompressed with a fixed timestamp (equal input, equal bytes).
Result<std::vector<uint8_t>> WriteZipToMemory(
    const std::vector<std::pair<std::string, std::string>>& entries);

}  // namespace etbench::etrecord_internal
