// The last-resort handler: anything unexpected is exit 2 and one line.
#include "etbench/base/main_guard.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <iostream>
#include <new>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace etbench {
namespace {

TEST(MainGuardTest, ReturnsTheBodysExitCode) {
  std::ostringstream err;
  EXPECT_EQ(RunGuardedMain("prog", [] { return 1; }, err), 1);
  EXPECT_EQ(err.str(), "");
}

TEST(MainGuardTest, AnEscapingExceptionIsExitTwoAndOneLine) {
  std::ostringstream err;
  EXPECT_EQ(RunGuardedMain("prog", []() -> int { throw std::runtime_error("boom"); }, err), 2);
  EXPECT_EQ(err.str(), "prog: internal error: boom\n");
  std::ostringstream err2;
  EXPECT_EQ(RunGuardedMain("prog", []() -> int { throw std::bad_alloc(); }, err2), 2);
  EXPECT_EQ(err2.str(), "prog: internal error: std::bad_alloc\n");
  std::ostringstream err3;
  EXPECT_EQ(RunGuardedMain("prog", []() -> int { throw 42; }, err3), 2);
  EXPECT_EQ(err3.str(), "prog: internal error: unknown exception\n");
}

// Runs `body` under RunGuardedMain in a child whose stdout is `stdout_path`;
// returns the child's exit status.
int ExitStatusWithStdout(const char* stdout_path, int (*body)()) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int fd = ::open(stdout_path, O_WRONLY);
    if (fd < 0 || ::dup2(fd, STDOUT_FILENO) < 0) ::_exit(99);
    const int devnull = ::open("/dev/null", O_WRONLY);
    ::dup2(devnull, STDERR_FILENO);
    ::_exit(RunGuardedMain("prog", body, std::cerr));
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TEST(MainGuardTest, AFailedWriteToStdoutIsExitTwo) {
  auto writes = []() -> int {
    std::cout << std::string(1 << 16, 'x') << "\n";
    return 0;
  };
  EXPECT_EQ(ExitStatusWithStdout("/dev/full", writes), 2);  // "No space left on device"
  EXPECT_EQ(ExitStatusWithStdout("/dev/null", writes), 0);
}

TEST(MainGuardTest, AnExceptionInAnotherThreadIsExitTwoNotAnAbort) {
  auto throws_in_thread = []() -> int {
    std::thread([] { throw std::logic_error("escaped"); }).join();
    return 0;
  };
  EXPECT_EQ(ExitStatusWithStdout("/dev/null", throws_in_thread), 2);
}

}  // namespace
}  // namespace etbench
