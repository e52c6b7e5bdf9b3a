#pragma once
// What the etbench command line needs from the outside world, injected:
// its output streams, process spawning, clocks, the environment, the file
// system and Ctrl-C handling. The real ones are built only by the executable's main
// (tools/etbench/main.cc); tests pass doubles (tests/cli/cli_fakes.h) or
// the real ones (tests/cli/cli_test_util.h).

#include <atomic>
#include <functional>
#include <memory>
#include <ostream>

#include "etbench/base/disk.h"
#include "etbench/base/environment.h"
#include "etbench/harness/clock.h"
#include "etbench/harness/process.h"

namespace etbench {

/// Turns Ctrl-C (SIGINT, SIGTERM) into a flag while a suite runs: the flag is
/// set by a signal while the returned pointer (or a copy) lives; handling
/// ends when the last copy is destroyed.
using InterruptCatcher = std::function<std::shared_ptr<const std::atomic<bool>>()>;

struct CliDeps {
  std::ostream* out = nullptr;  // required: results
  std::ostream* err = nullptr;  // required: diagnostics, warnings, progress
  /// The stream the progress bar draws on; null: `err`. RunEtbench sets it
  /// to the caller's `err` and hands the commands `err` behind a guard that
  /// escapes control bytes (base/terminal_text.h); the bar draws with its
  /// own control codes and escapes the names it shows itself.
  std::ostream* progress_err = nullptr;
  /// Whether `err` is an interactive terminal (a progress bar is drawn on
  /// it only then).
  bool err_is_terminal = false;
  harness::ProcessRunner* process_runner = nullptr;  // required for run, gate, ab
  harness::Clock* clock = nullptr;                   // required for run, gate, ab
  Environment* env = nullptr;               // required
  /// The file system; null: the real one (DefaultDisk()). RunEtbench hands
  /// each command a GuardedDisk around it, so no command overwrites a file
  /// it read.
  Disk* disk = nullptr;
  /// Empty: Ctrl-C is not caught (it ends the process the default way).
  InterruptCatcher catch_interrupts;
};

}  // namespace etbench
