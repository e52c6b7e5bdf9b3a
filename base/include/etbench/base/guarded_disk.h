#pragma once
// The input registry as a Disk decorator: a command's disk remembers every
// file read through it, and refuses to write over one of them (`-o` naming
// one of the command's own inputs would otherwise destroy it). The command
// line wraps one around the real disk for each command (cli/etbench_cli.cc),
// so the inputs of one command never leak into the next.

#include <mutex>
#include <string>
#include <vector>

#include "etbench/base/disk.h"

namespace etbench {

class GuardedDisk : public Disk {
 public:
  /// `inner` does the reading and writing; it must outlive this.
  explicit GuardedDisk(Disk& inner) : inner_(inner) {}

  /// Remembers `path` as an input of this command when it is a regular file
  /// (a file read without Read; see Disk::NoteRead).
  void NoteRead(const std::string& path) override;

  /// True when `path` is (the same file as, under any name) a remembered
  /// input.
  bool IsInput(const std::string& path);

  /// Reads through the inner disk and remembers `path` once it was found to
  /// be a regular file (also when it then is refused as too large).
  Result<std::vector<uint8_t>> Read(const std::string& path,
                                    uint64_t max_bytes) override;
  FileStat Stat(const std::string& path) override { return inner_.Stat(path); }
  /// The inner disk's refusals first (special files), then "PATH: is an
  /// input of this command; refusing to overwrite it" (an input error).
  Status CheckWriteTarget(const std::string& path) override;
  /// CheckWriteTarget, then the inner disk's write.
  Status WriteAtomically(const std::string& path,
                         const std::vector<uint8_t>& bytes,
                         const AtomicWriteOptions& options) override;
  Status WriteNew(const std::string& path,
                  const std::vector<uint8_t>& bytes) override;
  Status CreateDirectories(const std::string& dir) override {
    return inner_.CreateDirectories(dir);
  }
  void RemoveStaleTemporaries(const std::string& dir) override {
    inner_.RemoveStaleTemporaries(dir);
  }

 private:
  Disk& inner_;
  // A command's runs may read and write from several threads.
  std::mutex mutex_;
  std::vector<FileIdentity> inputs_;
};

}  // namespace etbench
