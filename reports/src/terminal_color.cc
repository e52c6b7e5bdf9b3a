// Colour and width decisions for the terminal report.

#include "etbench/reports/terminal_color.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>

namespace etbench::reports {
namespace {

int StreamFd(const std::ostream& out) {
  if (&out == &std::cout) return STDOUT_FILENO;
  if (&out == &std::cerr || &out == &std::clog) return STDERR_FILENO;
  return -1;
}

}  // namespace

Result<ColorMode> ParseColorMode(const std::string& text) {
  if (text == "auto") return ColorMode::kAuto;
  if (text == "always") return ColorMode::kAlways;
  if (text == "never") return ColorMode::kNever;
  return UsageError("--color: unknown value '" + text + "' (expected auto, always or never)");
}

bool StreamIsTerminal(const std::ostream& out) {
  const int fd = StreamFd(out);
  return fd >= 0 && isatty(fd) == 1;
}

bool UseColor(ColorMode mode, bool stream_is_terminal, const Environment& env) {
  if (mode == ColorMode::kAlways) return true;
  if (mode == ColorMode::kNever || !stream_is_terminal) return false;
  const auto no_color = env.Get("NO_COLOR");
  if (no_color && !no_color->empty()) return false;
  return env.Get("TERM").value_or("") != "dumb";
}

std::size_t TerminalWidth(const std::ostream& out, const Environment& env,
                          std::size_t fallback) {
  if (const auto columns = env.Get("COLUMNS")) {
    const long value = std::strtol(columns->c_str(), nullptr, 10);
    if (value >= 20 && value <= 10000) return static_cast<std::size_t>(value);
  }
  const int fd = StreamFd(out);
  winsize size{};
  if (fd >= 0 && isatty(fd) == 1 && ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col >= 20) {
    return size.ws_col;
  }
  return fallback;
}

}  // namespace etbench::reports
