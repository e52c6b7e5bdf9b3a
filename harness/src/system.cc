// Real implementations of the small outside-world interfaces: clock,
// terminal (the environment's is base's).
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>

#include "etbench/base/environment.h"
#include "etbench/harness/clock.h"
#include "etbench/harness/terminal.h"

namespace etbench::harness {
namespace {

class SystemClock : public Clock {
 public:
  double MonotonicSeconds() override {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
  }
  int64_t UnixSeconds() override { return static_cast<int64_t>(time(nullptr)); }
};

class StreamTerminal : public Terminal {
 public:
  StreamTerminal(std::ostream& stream, bool interactive)
      : stream_(stream), interactive_(interactive) {}
  bool IsInteractive() const override { return interactive_; }
  int Columns() const override {
    winsize ws;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20) return ws.ws_col;
    return 80;
  }
  void Write(std::string_view text) override {
    stream_.write(text.data(), static_cast<std::streamsize>(text.size()));
    stream_.flush();
  }

 private:
  std::ostream& stream_;
  bool interactive_;
};

}  // namespace

std::unique_ptr<Clock> MakeSystemClock() { return std::make_unique<SystemClock>(); }

std::unique_ptr<Terminal> MakeStreamTerminal(std::ostream& stream, bool interactive) {
  return std::make_unique<StreamTerminal>(stream, interactive);
}

bool StderrIsInteractive(const Environment& env) {
  if (!isatty(STDERR_FILENO)) return false;
  if (env.Get("CI").value_or("") == "true") return false;
  return env.Get("TERM").value_or("") != "dumb";
}

}  // namespace etbench::harness
