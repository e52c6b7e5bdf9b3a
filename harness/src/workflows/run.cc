// The `run` workflow: a suite file with overrides, run once.
#include "etbench/harness/workflows.h"

namespace etbench::harness {

SuiteRunFn RunSuiteWith(const RunDeps& deps) {
  return [&deps](const SuiteConfig& config) { return RunSuite(config, deps); };
}

Result<RunOutcome> Run(const std::string& config_path, const ConfigOverrides& overrides,
                       const SuiteRunFn& run_suite, Disk& disk) {
  auto config = LoadSuite(config_path, overrides, disk);
  if (!config.ok()) return config.error();
  auto run = run_suite(config.value());
  if (!run.ok()) return run.error();
  return RunOutcome{std::move(config).value(), std::move(run).value()};
}

}  // namespace etbench::harness
