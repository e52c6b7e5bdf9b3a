#pragma once
// Checks and writes for files etbench persists (results, baselines, reports,
// converted ETDumps). WriteFileAtomically (atomic_file.h) applies
// CheckOutputTarget to every write.

#include <cstdint>
#include <string>
#include <vector>

#include <optional>

#include "etbench/base/result.h"

namespace etbench {

/// Errors when writing `path` would destroy something else: an existing
/// non-regular file (a symlink, device node such as /dev/null, FIFO,
/// socket or directory: "PATH: is a character device; refusing to replace
/// it with a regular file"). A command's own inputs are refused by its
/// disk (GuardedDisk, guarded_disk.h) or by the overload below.
Status CheckOutputTarget(const std::string& path);

/// "PATH: is an input of this command; refusing to overwrite it" (an input
/// error): the one refusal of a write onto a file the command reads.
Error InputOverwriteError(const std::string& path);

/// A file's identity (device and inode): the same file under another name or
/// through a hard link has the same identity.
struct FileIdentity {
  uint64_t device = 0;
  uint64_t inode = 0;
  bool operator==(const FileIdentity& o) const { return device == o.device && inode == o.inode; }
};

/// The identity of the file `path` names (symbolic links followed);
/// nullopt when it cannot be stat'ed (missing, no permission).
std::optional<FileIdentity> IdentityOf(const std::string& path);

/// CheckOutputTarget, also refusing `path` when it is one of `inputs`
/// (InputOverwriteError): for callers that know their inputs without a
/// command's disk, such as a Python Inspector exporting what it read.
Status CheckOutputTarget(const std::string& path, const std::vector<FileIdentity>& inputs);

/// Like WriteFileAtomically (temporary file in the same directory, fsync,
/// then into place) but never replaces an existing file, even one created
/// concurrently: the temporary file is hard-linked to `path`, which fails
/// atomically when `path` exists ("PATH: already exists").
Status WriteNewFileAtomically(const std::string& path, const std::vector<uint8_t>& bytes);

}  // namespace etbench
