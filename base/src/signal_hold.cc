#include "etbench/base/signal_hold.h"

#include <pthread.h>

#include <initializer_list>

namespace etbench {

ScopedSignalHold::ScopedSignalHold() {
  sigset_t hold;
  sigemptyset(&hold);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&hold, sig);
  ::pthread_sigmask(SIG_BLOCK, &hold, &previous_);
}

ScopedSignalHold::~ScopedSignalHold() { ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }

}  // namespace etbench
