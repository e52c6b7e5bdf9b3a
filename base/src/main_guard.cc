#include "etbench/base/main_guard.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <string>

#include "etbench/base/terminal_text.h"

namespace etbench {
namespace {

const char* g_program = "etbench";

// Describes the exception being handled (inside a catch or a terminate
// handler).
std::string CurrentExceptionText() {
  try {
    const std::exception_ptr current = std::current_exception();
    if (!current) return "terminate called without an active exception";
    std::rethrow_exception(current);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "unknown exception";
  }
}

// For exceptions escaping other threads or noexcept functions: one line,
// exit code 2, no core dump. Only async-signal-safe calls after the message.
[[noreturn]] void TerminateHandler() {
  const std::string line =
      std::string(g_program) + ": internal error: " + TerminalText(CurrentExceptionText()) + "\n";
  (void)!::write(STDERR_FILENO, line.data(), line.size());
  ::_exit(2);
}

}  // namespace

int RunGuardedMain(const char* program, const std::function<int()>& body, std::ostream& err) {
  g_program = program;
  std::set_terminate(TerminateHandler);
  int code = 2;
  try {
    code = body();
  } catch (...) {
    err << program << ": internal error: " << TerminalText(CurrentExceptionText()) << "\n";
    code = 2;
  }
  errno = 0;
  std::cout.flush();
  const bool stream_failed = !std::cout;
  const bool flush_failed = std::fflush(stdout) != 0 || std::ferror(stdout) != 0;
  if (stream_failed || flush_failed) {
    const int e = errno;
    err << program << ": error writing standard output"
        << (e != 0 ? std::string(": ") + std::strerror(e) : std::string()) << "\n";
    code = 2;
  }
  err.flush();
  return code;
}

}  // namespace etbench
