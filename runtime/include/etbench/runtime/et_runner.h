#pragma once
// et_runner, the reference runtime's command line (executor_runner-style
// flags), as a library function so tests drive it in-process.

#include <ostream>
#include <string>
#include <vector>

namespace etbench::runtime {

/// Exit codes of et_runner.
enum EtRunnerExit : int {
  kEtRunnerOk = 0,
  kEtRunnerFailed = 1,      // the run could not complete (e.g. write error)
  kEtRunnerUsageError = 2,  // bad flags or a bad model file
};

/// Runs `et_runner <args...>` (args exclude the program name). Progress and
/// the summary go to `out`, errors to `err` (one line, prefixed
/// "et_runner: error: "). Returns an EtRunnerExit code.
int RunEtRunner(const std::vector<std::string>& args, std::ostream& out,
                std::ostream& err);

}  // namespace etbench::runtime
