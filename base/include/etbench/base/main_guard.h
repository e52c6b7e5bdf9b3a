#pragma once
// The last line of defence of every executable's main().

#include <functional>
#include <ostream>

namespace etbench {

/// Runs `body` (a program's whole behaviour) and returns its exit code, but
/// never aborts: an exception that escapes `body` (or terminates any thread)
/// becomes one line "PROGRAM: internal error: WHAT" on `err` and exit code 2.
/// Afterwards stdout is flushed and checked: a write error (a full disk, a
/// closed descriptor) is "PROGRAM: error writing standard output: REASON" and
/// exit code 2, so that output a pipe or file never received is not reported
/// as success.
int RunGuardedMain(const char* program, const std::function<int()>& body, std::ostream& err);

}  // namespace etbench
