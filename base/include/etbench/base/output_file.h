#pragma once
// Checks and writes for files etbench persists (results, baselines, reports,
// converted ETDumps). WriteFileAtomically (etdump_writer.h) applies
// CheckOutputTarget to every write.

#include <cstdint>
#include <string>
#include <vector>

#include "etbench/base/result.h"

namespace etbench {

/// Errors when writing `path` would destroy something else: an existing
/// non-regular file (a symlink, device node such as /dev/null, FIFO,
/// socket or directory: "PATH: is a character device; refusing to replace
/// it with a regular file"), or a file the running command reads as input
/// (IsInputOfThisCommand: "PATH: is an input of this command; refusing to
/// overwrite it").
Status CheckOutputTarget(const std::string& path);

/// Like WriteFileAtomically (temporary file in the same directory, fsync,
/// then into place) but never replaces an existing file, even one created
/// concurrently: the temporary file is hard-linked to `path`, which fails
/// atomically when `path` exists ("PATH: already exists").
Status WriteNewFileAtomically(const std::string& path, const std::vector<uint8_t>& bytes);

}  // namespace etbench
