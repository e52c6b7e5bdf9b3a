// etbench: profiling regression gate. All behaviour lives in etbench::cli;
// this is the one place that builds its real dependencies.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "etbench/cli/etbench_cli.h"
#include "etbench/harness/interrupt.h"
#include "etbench/harness/terminal.h"
#include "etbench/base/main_guard.h"

int main(int argc, char** argv) {
  // Anything unexpected becomes one line 'internal error: …' and exit 2.
  return etbench::RunGuardedMain(
      "etbench",
      [&] {
        std::vector<std::string> args(argv + 1, argv + argc);
        const std::unique_ptr<etbench::Environment> env =
            etbench::MakeSystemEnvironment();
        const std::unique_ptr<etbench::harness::Clock> clock = etbench::harness::MakeSystemClock();
        const std::unique_ptr<etbench::harness::ProcessRunner> processes =
            etbench::harness::MakeSystemProcessRunner();
        etbench::RealDisk disk;
        etbench::CliDeps deps;
        deps.out = &std::cout;
        deps.err = &std::cerr;
        deps.err_is_terminal = etbench::harness::StderrIsInteractive(*env);
        deps.process_runner = processes.get();
        deps.clock = clock.get();
        deps.env = env.get();
        deps.disk = &disk;
        // The handler is installed while a returned flag is in use.
        deps.catch_interrupts = etbench::harness::CatchInterrupts;
        return etbench::RunEtbench(args, deps);
      },
      std::cerr);
}
