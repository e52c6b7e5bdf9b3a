#pragma once
// Ctrl-C: the first SIGINT (or SIGTERM) sets a flag the orchestrator polls
// (the run stops after the current execution step and keeps what
// finished); a second one ends the process the default way.

#include <atomic>
#include <memory>

namespace etbench::harness {

/// Installs the handlers for its lifetime and restores the previous ones.
/// One at a time per process.
class ScopedInterruptHandler {
 public:
  ScopedInterruptHandler();
  ~ScopedInterruptHandler();
  ScopedInterruptHandler(const ScopedInterruptHandler&) = delete;
  ScopedInterruptHandler& operator=(const ScopedInterruptHandler&) = delete;

  /// Set once a signal arrived.
  const std::atomic<bool>& flag() const;
  /// The signal that arrived (0 if none).
  int signal_number() const;
};

/// The interrupt flag of the one handler alive in the process, installing
/// it if none is: a command holds it for its whole length and its suite
/// runs share it, so a signal between two steps is not lost (installing a
/// second handler would clear the flag). The handler goes when the last
/// copy does. (CliDeps::catch_interrupts of the etbench executable.)
std::shared_ptr<const std::atomic<bool>> CatchInterrupts();

}  // namespace etbench::harness
