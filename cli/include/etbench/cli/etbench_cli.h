#pragma once
// The etbench command line as a library: every subcommand is testable
// in-process (tests pass argv and read the streams).

#include <ostream>
#include <string>
#include <vector>

#include "etbench/cli/cli_deps.h"

namespace etbench {

/// Exit codes shared by every subcommand.
enum ExitCode : int {
  kExitOk = 0,
  kExitRegression = 1,
  kExitInputError = 2,   // usage errors and bad input files
  kExitInconclusive = 3,   // only when asked (--fail-on-inconclusive)
  kExitModelsFailed = 4,   // run: results written, some models failed
  kExitInterrupted = 130,  // Ctrl-C: what finished is written
};

/// Runs `etbench <args...>` (args exclude the program name) with the
/// injected `deps`. Results go to deps.out; diagnostics, warnings and
/// progress to deps.err.
int RunEtbench(const std::vector<std::string>& args, const CliDeps& deps);

}  // namespace etbench
