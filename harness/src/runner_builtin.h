#pragma once
// The built-in runner: etbench's reference runtime in-process. Compiled only
// when the runtime is built; reached only through the runner registry
// (runner.cc registers it).

#include <memory>

#include "etbench/harness/runner.h"

namespace etbench::harness {

/// A runner executing model YAMLs on the reference runtime.
std::unique_ptr<Runner> MakeReferenceRuntimeRunner(const SuiteConfig& config,
                                                   const RunnerDeps& deps);

}  // namespace etbench::harness
