#pragma once
// An in-memory Disk for tests (as ninja's VirtualFileSystem): files,
// directories and special files live in maps, so a test can save a baseline
// or write a report and read it back without touching the filesystem, and
// can count what was read and written.

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "etbench/base/disk.h"

namespace etbench::testing {

class MemoryDisk : public Disk {
 public:
  /// Creates or replaces `path` (its parent directories are created).
  void AddFile(const std::string& path, const std::string& text);
  /// A special file (FIFO, device, socket) at `path`: `kind` is its
  /// NonRegularFileKind words, e.g. "is a FIFO".
  void AddSpecial(const std::string& path, const std::string& kind);
  /// Another name for the file `existing` (a hard link: same identity).
  void Link(const std::string& existing, const std::string& alias);

  /// The text of `path`; empty when there is no such file.
  std::string Text(const std::string& path) const;
  bool Has(const std::string& path) const { return files_.count(path) > 0; }
  bool HasDirectory(const std::string& dir) const {
    return dirs_.count(dir) > 0;
  }
  /// Paths of the regular files, sorted.
  std::vector<std::string> Files() const;
  /// How many Read and successful write calls the disk served.
  int reads() const { return reads_; }
  int writes() const { return writes_; }

  Result<std::vector<uint8_t>> Read(const std::string& path,
                                    uint64_t max_bytes) override;
  FileStat Stat(const std::string& path) override;
  Status CheckWriteTarget(const std::string& path) override;
  /// Errors as the real disk: the target is refused, or its directory does
  /// not exist ("PATH: cannot create PATH.tmp.0 (No such file or
  /// directory)"). A write gives the file a new identity, as rename(2) does.
  Status WriteAtomically(const std::string& path,
                         const std::vector<uint8_t>& bytes,
                         const AtomicWriteOptions& options) override;
  Status WriteNew(const std::string& path,
                  const std::vector<uint8_t>& bytes) override;
  /// Fails with "Not a directory" when a file is in the way.
  Status CreateDirectories(const std::string& dir) override;
  void RemoveStaleTemporaries(const std::string& /*dir*/) override {}

 private:
  struct File {
    std::vector<uint8_t> bytes;
    uint64_t inode = 0;
  };
  bool ParentExists(const std::string& path) const;

  std::map<std::string, File> files_;
  std::map<std::string, std::string> specials_;  // path -> "is a FIFO", ...
  std::set<std::string> dirs_;
  uint64_t next_inode_ = 1;
  int reads_ = 0;
  int writes_ = 0;
};

}  // namespace etbench::testing
