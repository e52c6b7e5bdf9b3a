#include "suite_run.h"

#include <iostream>
#include <memory>

#include "etbench/harness/clock.h"
#include "etbench/harness/environment.h"
#include "etbench/harness/interrupt.h"
#include "etbench/harness/process.h"
#include "etbench/harness/progress.h"
#include "etbench/harness/terminal.h"

namespace etbench {

Result<harness::SuiteRunOutput> RunSuiteWithSystemDeps(const harness::SuiteConfig& config,
                                                       std::ostream& err) {
  std::unique_ptr<harness::Environment> env = harness::MakeSystemEnvironment();
  std::unique_ptr<harness::Clock> clock = harness::MakeSystemClock();
  std::unique_ptr<harness::ProcessRunner> processes = harness::MakeSystemProcessRunner();
  const bool interactive = &err == &std::cerr && harness::StderrIsInteractive(*env);
  std::unique_ptr<harness::Terminal> terminal = harness::MakeStreamTerminal(err, interactive);
  std::unique_ptr<harness::Progress> progress =
      harness::MakeProgress(terminal.get(), clock.get(), !config.quiet);
  harness::ScopedInterruptHandler interrupt;
  harness::RunDeps deps;
  deps.process_runner = processes.get();
  deps.clock = clock.get();
  deps.env = env.get();
  deps.progress = progress.get();
  deps.cancel = &interrupt.flag();
  deps.tool_version = ETBENCH_VERSION;
  return harness::RunSuite(config, deps);
}

}  // namespace etbench
