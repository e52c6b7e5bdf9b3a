#pragma once
// Ctrl-C: the first SIGINT (or SIGTERM) sets a flag the orchestrator polls
// (the run stops after the current execution step and keeps what
// finished); a second one ends the process the default way.

#include <atomic>

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

}  // namespace etbench::harness
