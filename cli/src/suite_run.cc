#include "suite_run.h"

#include <iostream>

namespace etbench {

SystemRunContext::SystemRunContext(bool show_progress, std::ostream& err)
    : env_(harness::MakeSystemEnvironment()),
      clock_(harness::MakeSystemClock()),
      processes_(harness::MakeSystemProcessRunner()) {
  const bool interactive = &err == &std::cerr && harness::StderrIsInteractive(*env_);
  terminal_ = harness::MakeStreamTerminal(err, interactive);
  progress_ = harness::MakeProgress(terminal_.get(), clock_.get(), show_progress);
  deps_.process_runner = processes_.get();
  deps_.clock = clock_.get();
  deps_.env = env_.get();
  deps_.progress = progress_.get();
  deps_.cancel = &interrupt_.flag();
  deps_.tool_version = ETBENCH_VERSION;
}

Result<harness::SuiteRunOutput> RunSuiteWithSystemDeps(const harness::SuiteConfig& config,
                                                       std::ostream& err) {
  SystemRunContext context(!config.quiet, err);
  return harness::RunSuite(config, context.deps());
}

}  // namespace etbench
