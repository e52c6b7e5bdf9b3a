#include "etbench/harness/interrupt.h"

#include <signal.h>
#include <string.h>

#include <mutex>

namespace etbench::harness {
namespace {

std::atomic<bool> g_interrupted{false};
volatile sig_atomic_t g_signal = 0;
struct sigaction g_previous_int;
struct sigaction g_previous_term;

void OnSignal(int sig) {
  g_signal = sig;
  g_interrupted.store(true);
}

}  // namespace

ScopedInterruptHandler::ScopedInterruptHandler() {
  static_assert(std::atomic<bool>::is_always_lock_free, "signal-safe flag");
  g_interrupted.store(false);
  g_signal = 0;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = OnSignal;
  sigemptyset(&sa.sa_mask);
  // The first signal asks for a clean stop; the handler then resets to the
  // default, so a second Ctrl-C ends the process at once.
  sa.sa_flags = SA_RESETHAND;
  sigaction(SIGINT, &sa, &g_previous_int);
  sigaction(SIGTERM, &sa, &g_previous_term);
}

ScopedInterruptHandler::~ScopedInterruptHandler() {
  sigaction(SIGINT, &g_previous_int, nullptr);
  sigaction(SIGTERM, &g_previous_term, nullptr);
}

const std::atomic<bool>& ScopedInterruptHandler::flag() const { return g_interrupted; }

int ScopedInterruptHandler::signal_number() const { return g_signal; }

std::shared_ptr<const std::atomic<bool>> CatchInterrupts() {
  static std::mutex mutex;
  static std::weak_ptr<ScopedInterruptHandler> current;
  std::lock_guard<std::mutex> lock(mutex);
  std::shared_ptr<ScopedInterruptHandler> handler = current.lock();
  if (!handler) {
    handler = std::make_shared<ScopedInterruptHandler>();
    current = handler;
  }
  return std::shared_ptr<const std::atomic<bool>>(handler, &handler->flag());
}

}  // namespace etbench::harness
