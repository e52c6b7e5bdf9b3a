#pragma once
// Which directories a run may write its outputs into.

#include <string>

#include "etbench/base/result.h"

namespace etbench::harness {

/// Errors (InputError, one line naming `dir` and the file found) when
/// `dir` holds source code: a CMakeLists.txt or a C or C++ source or header
/// (.c .cc .cpp .cxx .h .hh .hpp), directly or up to 4 directories below
/// it, which no run writes. Such a directory is a source tree, not a place
/// for outputs: the default output_dir results/{suite} lies beside the
/// results library's own results/src and results/include, so a suite named
/// "src" or "include" would write its results file, ETDumps and reports
/// into the library and replace its model directories there. A directory
/// that does not exist yet, or holds only outputs, is fine. Symbolic links
/// inside `dir` are not followed.
Status CheckOutputDir(const std::string& dir);

}  // namespace etbench::harness
