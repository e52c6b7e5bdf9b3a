#pragma once
// Runs a suite with the real process runner, clock, environment, progress
// on a TTY and Ctrl-C handling: shared by `run` and `gate`.

#include <ostream>

#include "etbench/harness/config.h"
#include "etbench/harness/orchestrator.h"
#include "etbench/inspector/result.h"

namespace etbench {

/// Progress and diagnostics go to `err` (a progress bar only when `err` is
/// an interactive terminal and the config is not quiet).
Result<harness::SuiteRunOutput> RunSuiteWithSystemDeps(const harness::SuiteConfig& config,
                                                       std::ostream& err);

}  // namespace etbench
