#pragma once
// The dependencies of a suite run (`run`, `gate`, `ab`) made from the
// command line's injected ones: a progress bar on the error stream (drawn
// only when it is a terminal), and Ctrl-C caught while the context lives.

#include <memory>

#include "etbench/base/environment.h"
#include "etbench/base/result.h"
#include "etbench/cli/cli_deps.h"
#include "etbench/harness/clock.h"
#include "etbench/harness/config.h"
#include "etbench/harness/interrupt.h"
#include "etbench/harness/orchestrator.h"
#include "etbench/harness/progress.h"
#include "etbench/harness/terminal.h"
#include "etbench/harness/workflows.h"

namespace etbench {

/// Lives for the duration of one suite run (or an ab schedule).
class SuiteRunContext {
 public:
  SuiteRunContext(const CliDeps& deps, bool show_progress);
  const harness::RunDeps& deps() const { return deps_; }

 private:
  std::unique_ptr<harness::Terminal> terminal_;
  std::unique_ptr<harness::Progress> progress_;
  std::shared_ptr<const std::atomic<bool>> cancel_;
  harness::RunDeps deps_;
};

/// RunSuite inside a SuiteRunContext (progress unless the config is quiet).
harness::SuiteRunFn RunSuiteFn(const CliDeps& deps);

}  // namespace etbench
