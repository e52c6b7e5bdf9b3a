#pragma once
// Runs `etbench` in-process and captures its streams and exit code.

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "etbench/cli/etbench_cli.h"
#include "etbench/harness/interrupt.h"

namespace etbench::testing {

struct CliRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

/// Runs etbench with `deps` whose streams are replaced by string streams.
inline CliRun RunCliWith(const std::vector<std::string>& args, CliDeps deps) {
  std::ostringstream out, err;
  deps.out = &out;
  deps.err = &err;
  CliRun r;
  r.exit_code = RunEtbench(args, deps);
  r.out = out.str();
  r.err = err.str();
  return r;
}

/// Runs etbench with the real dependencies, as the executable does (real
/// processes, clock, environment and Ctrl-C handling; no progress bar).
inline CliRun RunCli(const std::vector<std::string>& args) {
  const auto env = MakeSystemEnvironment();
  const auto clock = harness::MakeSystemClock();
  const auto processes = harness::MakeSystemProcessRunner();
  CliDeps deps;
  deps.process_runner = processes.get();
  deps.clock = clock.get();
  deps.env = env.get();
  deps.catch_interrupts = harness::CatchInterrupts;
  return RunCliWith(args, std::move(deps));
}

/// Number of '\n'-terminated lines.
inline std::size_t LineCount(const std::string& s) {
  std::size_t n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

}  // namespace etbench::testing
