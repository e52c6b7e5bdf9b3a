#pragma once
// One session of a night (`gate --sessions N`) in a fresh process: etbench
// runs itself (`etbench run CONFIG --quiet --summary none`) with the suite's
// flags, so each session gets its own address space, allocations and
// scheduling — what makes sessions vary independently, unlike repetitions
// inside one process.

#include <string>

#include "etbench/cli/cli_deps.h"
#include "etbench/harness/config.h"
#include "etbench/harness/workflows.h"

namespace etbench {

/// Runs the given SuiteConfig's output_dir and model_filter with
/// `config_path` and `overrides` (iterations, warmup, repetitions, runner,
/// time source, labels) by `deps.process_runner`, then reads the results
/// file it wrote. Errors: the process could not start, or wrote no results
/// (its last stderr line is the message). Empty (the gate then runs its
/// sessions in-process) when this program is not the `etbench` executable
/// (a test binary or a program embedding the CLI: running itself would
/// not run a suite).
harness::SuiteRunFn SessionRunFn(const CliDeps& deps, const std::string& config_path,
                                 const harness::ConfigOverrides& overrides);

}  // namespace etbench
