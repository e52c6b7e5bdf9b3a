#pragma once
// Runs `etbench` in-process and captures its streams and exit code.

#include <sstream>
#include <string>
#include <vector>

#include "etbench/cli/etbench_cli.h"

namespace etbench::testing {

struct CliRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline CliRun RunCli(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  CliRun r;
  r.exit_code = RunEtbench(args, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

/// Number of '\n'-terminated lines.
inline std::size_t LineCount(const std::string& s) {
  std::size_t n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

}  // namespace etbench::testing
