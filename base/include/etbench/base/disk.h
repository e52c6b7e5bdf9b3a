#pragma once
// The filesystem behind an interface (as ninja's DiskInterface): the
// libraries read the files they are given and persist what they write
// through a Disk, so that tests pass an in-memory one
// (tests/support/memory_disk.h) and the command line wraps the real one in
// a GuardedDisk (guarded_disk.h) that never overwrites the command's own
// inputs. Functions whose public signature predates the Disk take one as a
// last parameter that defaults to DefaultDisk().

#include <cstdint>
#include <string>
#include <vector>

#include "etbench/base/atomic_file.h"
#include "etbench/base/input_file.h"
#include "etbench/base/output_file.h"
#include "etbench/base/result.h"

namespace etbench {

/// What is at a path (symbolic links followed, as stat(2)).
struct FileStat {
  bool exists = false;
  /// A regular file: not a directory, FIFO, device node or socket.
  bool regular = false;
  /// Bytes of a regular file; 0 otherwise.
  uint64_t size = 0;
  /// The same file under another name (or a hard link) has the same identity.
  FileIdentity identity;
};

class Disk {
 public:
  virtual ~Disk() = default;

  /// The whole regular file `path` when it holds at most `max_bytes`.
  /// Errors, one line naming the path (InputFile's words): "PATH: cannot open
  /// (No such file or directory)", "PATH: is a FIFO, not a regular file",
  /// "PATH: N bytes is larger than the M-byte limit for this kind of file".
  /// Never blocks on a FIFO and never allocates more than `max_bytes`.
  virtual Result<std::vector<uint8_t>> Read(const std::string& path,
                                            uint64_t max_bytes) = 0;

  /// What is at `path`; `exists` false when nothing is (or it cannot be
  /// stat'ed).
  virtual FileStat Stat(const std::string& path) = 0;

  /// Ok when `path` may be written: nothing is there yet, or a regular file
  /// (CheckOutputTarget's words otherwise: "empty output file name" (usage),
  /// "PATH: is a character device; refusing to replace it with a regular
  /// file"). The writes below apply it themselves; a decorator asks it
  /// first to keep the order of the refusals.
  virtual Status CheckWriteTarget(const std::string& path) = 0;

  /// Writes `bytes` to `path` so that no reader ever sees half of it
  /// (WriteFileAtomically: a temporary file beside it, then rename). Refuses
  /// what CheckWriteTarget refuses; on failure `path` is untouched and the
  /// error names it, the step and the system's reason.
  virtual Status WriteAtomically(const std::string& path,
                                 const std::vector<uint8_t>& bytes,
                                 const AtomicWriteOptions& options) = 0;

  /// Like WriteAtomically, but only when nothing is at `path`, even if
  /// another process creates it meanwhile ("PATH: already exists";
  /// WriteNewFileAtomically).
  virtual Status WriteNew(const std::string& path,
                          const std::vector<uint8_t>& bytes) = 0;

  /// Creates `dir` and its missing parents (mkdir -p). The error's message is
  /// the system's reason alone ("Permission denied"): callers name the path
  /// in their own sentence.
  virtual Status CreateDirectories(const std::string& dir) = 0;

  /// Tells the disk that `path` was read by a reader of its own instead of
  /// Read (the inspector's mapped ETDump reader, libzip, the harness's suite
  /// loader): a GuardedDisk then refuses to overwrite it as it refuses what
  /// Read returned. Other disks ignore it.
  virtual void NoteRead(const std::string& path) { (void)path; }

  /// Removes, directly inside `dir`, the temporary files and staging
  /// directories that processes which no longer exist left behind
  /// (RemoveStaleRunFiles). Best effort.
  virtual void RemoveStaleTemporaries(const std::string& dir) = 0;

  /// Read() as text, with the text inputs' default limit.
  Result<std::string> ReadText(const std::string& path,
                               uint64_t max_bytes = kMaxTextFileBytes);

  /// WriteAtomically() of a text, fsync'ed (results, baselines, reports).
  Status WriteText(const std::string& path, const std::string& text);
};

/// The machine's filesystem: InputFile, WriteFileAtomically,
/// WriteNewFileAtomically, std::filesystem. Holds no state.
class RealDisk : public Disk {
 public:
  Result<std::vector<uint8_t>> Read(const std::string& path,
                                    uint64_t max_bytes) override;
  FileStat Stat(const std::string& path) override;
  Status CheckWriteTarget(const std::string& path) override;
  Status WriteAtomically(const std::string& path,
                         const std::vector<uint8_t>& bytes,
                         const AtomicWriteOptions& options) override;
  Status WriteNew(const std::string& path,
                  const std::vector<uint8_t>& bytes) override;
  Status CreateDirectories(const std::string& dir) override;
  void RemoveStaleTemporaries(const std::string& dir) override;
};

/// One RealDisk, for the default arguments of functions that took a path
/// before they took a Disk.
Disk& DefaultDisk();

}  // namespace etbench
