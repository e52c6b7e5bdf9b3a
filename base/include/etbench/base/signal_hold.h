#pragma once
// Holding termination signals back while a file is being put in place.

#include <signal.h>

namespace etbench {

/// Holds SIGINT, SIGTERM, SIGHUP and SIGQUIT back for its lifetime (the
/// calling thread's signal mask; etbench writes from one thread) and then
/// restores the previous mask, so that a signal arriving while a file is
/// written is delivered once the file is in place and its temporary file is
/// gone: even a second Ctrl-C, which ends the process at once, never leaves
/// half a file or a `*.tmp.PID` behind. WriteFileAtomically and
/// WriteNewFileAtomically hold one. Nests.
class ScopedSignalHold {
 public:
  ScopedSignalHold();
  ~ScopedSignalHold();
  ScopedSignalHold(const ScopedSignalHold&) = delete;
  ScopedSignalHold& operator=(const ScopedSignalHold&) = delete;

 private:
  sigset_t previous_;
};

}  // namespace etbench
