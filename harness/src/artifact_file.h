#pragma once
// Writing run artifacts (ETDumps, sidecars) next to the results.

#include <cstdint>
#include <string>
#include <vector>

#include "etbench/inspector/result.h"

namespace etbench::harness {

/// Temporary file + rename, so a reader never sees half a file, but without
/// fsync: artifacts are written once per repetition and an fsync costs
/// milliseconds, more than many model runs. (The results file itself is
/// written with WriteFileAtomically, fsync included.)
Status WriteArtifactFile(const std::string& path, const std::vector<uint8_t>& bytes);

}  // namespace etbench::harness
