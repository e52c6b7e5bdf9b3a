#include "etbench/harness/runner.h"

#include <map>
#include <utility>

#if ETBENCH_HAVE_RUNTIME
#include "runner_builtin.h"
#endif

namespace etbench::harness {
namespace {

std::map<RunnerKind, RunnerFactory>& Registry() {
  static std::map<RunnerKind, RunnerFactory> registry = [] {
    std::map<RunnerKind, RunnerFactory> r;
    r[RunnerKind::kCommand] = MakeCommandRunner;
    r[RunnerKind::kGbench] = MakeGbenchRunner;
#if ETBENCH_HAVE_RUNTIME
    // The only place the reference runtime is reached from the harness.
    r[RunnerKind::kBuiltin] = MakeReferenceRuntimeRunner;
#endif
    return r;
  }();
  return registry;
}

std::unique_ptr<Runner> MakeRegistered(RunnerKind kind, const SuiteConfig& config,
                                       const RunnerDeps& deps) {
  auto it = Registry().find(kind);
  if (it == Registry().end() || !it->second) return nullptr;
  return it->second(config, deps);
}

}  // namespace

void RegisterRunner(RunnerKind kind, RunnerFactory factory) { Registry()[kind] = std::move(factory); }

std::unique_ptr<Runner> MakeBuiltinRunner(const SuiteConfig& config) {
  return MakeRegistered(RunnerKind::kBuiltin, config, RunnerDeps{});
}

Result<std::unique_ptr<Runner>> MakeRunner(const SuiteConfig& config, const RunnerDeps& deps) {
  switch (config.runner) {
    case RunnerKind::kBuiltin: {
      std::unique_ptr<Runner> runner = MakeRegistered(RunnerKind::kBuiltin, config, deps);
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
      return Result<std::unique_ptr<Runner>>(MakeRegistered(RunnerKind::kCommand, config, deps));
    case RunnerKind::kGbench:
      if (deps.process_runner == nullptr) return Error{ErrorCode::kInternal, "no process runner"};
      return Result<std::unique_ptr<Runner>>(MakeRegistered(RunnerKind::kGbench, config, deps));
  }
  return Error{ErrorCode::kInternal, "unknown runner"};
}

}  // namespace etbench::harness
