#pragma once
// The real process runner, clock, environment, progress bar (on a TTY) and
// Ctrl-C handling for commands that run suites: `run`, `gate` and `ab`.

#include <memory>
#include <ostream>

#include "etbench/base/result.h"
#include "etbench/harness/clock.h"
#include "etbench/harness/config.h"
#include "etbench/harness/environment.h"
#include "etbench/harness/interrupt.h"
#include "etbench/harness/orchestrator.h"
#include "etbench/harness/process.h"
#include "etbench/harness/progress.h"
#include "etbench/harness/terminal.h"

namespace etbench {

/// Owns the system dependencies of a suite run for its lifetime; Ctrl-C
/// sets deps().cancel while it exists. Progress and diagnostics go to
/// `err` (a progress bar only when `err` is std::cerr on an interactive
/// terminal and `show_progress`).
class SystemRunContext {
 public:
  SystemRunContext(bool show_progress, std::ostream& err);
  const harness::RunDeps& deps() const { return deps_; }

 private:
  std::unique_ptr<harness::Environment> env_;
  std::unique_ptr<harness::Clock> clock_;
  std::unique_ptr<harness::ProcessRunner> processes_;
  std::unique_ptr<harness::Terminal> terminal_;
  std::unique_ptr<harness::Progress> progress_;
  harness::ScopedInterruptHandler interrupt_;
  harness::RunDeps deps_;
};

/// RunSuite with a SystemRunContext (progress unless the config is quiet).
Result<harness::SuiteRunOutput> RunSuiteWithSystemDeps(const harness::SuiteConfig& config,
                                                       std::ostream& err);

}  // namespace etbench
