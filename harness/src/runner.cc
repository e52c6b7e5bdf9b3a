#include "etbench/harness/runner.h"

#include <utility>

namespace etbench::harness {

Result<std::unique_ptr<Runner>> MakeRunner(const SuiteConfig& config, const RunnerDeps& deps) {
  switch (config.runner) {
    case RunnerKind::kBuiltin: {
      std::unique_ptr<Runner> runner = MakeBuiltinRunner(config);
      if (!runner) {
        return UsageError(
            "runner 'builtin' is not available: etbench was built without the "
            "reference runtime (ETBENCH_BUILD_RUNTIME=OFF)");
      }
      return Result<std::unique_ptr<Runner>>(std::move(runner));
    }
    case RunnerKind::kCommand:
      if (!config.has_command || config.command.argv.empty()) {
        return UsageError("runner 'command' needs a 'command:' section with argv");
      }
      if (deps.process_runner == nullptr) return Error{ErrorCode::kInternal, "no process runner"};
      return MakeCommandRunner(config, deps);
    case RunnerKind::kGbench:
      if (deps.process_runner == nullptr) return Error{ErrorCode::kInternal, "no process runner"};
      return MakeGbenchRunner(config, deps);
  }
  return Error{ErrorCode::kInternal, "unknown runner"};
}

}  // namespace etbench::harness
