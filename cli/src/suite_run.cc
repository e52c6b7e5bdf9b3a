#include "suite_run.h"

namespace etbench {

SuiteRunContext::SuiteRunContext(const CliDeps& deps, bool show_progress) {
  std::ostream& bar = deps.progress_err != nullptr ? *deps.progress_err : *deps.err;
  terminal_ = harness::MakeStreamTerminal(bar, deps.err_is_terminal);
  progress_ = harness::MakeProgress(terminal_.get(), deps.clock, show_progress);
  if (deps.catch_interrupts) cancel_ = deps.catch_interrupts();
  deps_.process_runner = deps.process_runner;
  deps_.clock = deps.clock;
  deps_.env = deps.env;
  deps_.disk = deps.disk;
  deps_.progress = progress_.get();
  deps_.cancel = cancel_.get();
  deps_.tool_version = ETBENCH_VERSION;
}

harness::SuiteRunFn RunSuiteFn(const CliDeps& deps) {
  return [&deps](const harness::SuiteConfig& config) {
    SuiteRunContext context(deps, !config.quiet);
    return harness::RunSuite(config, context.deps());
  };
}

}  // namespace etbench
