// A termination signal raised while a ScopedSignalHold lives is delivered
// when the hold ends: a file being written is in place first.
#include "etbench/base/signal_hold.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "etbench/base/atomic_file.h"
#include "support/test_support.h"

namespace etbench {
namespace {

// In a child with the default disposition: SIGTERM sent to itself inside
// the hold, then a file written; the child must die by SIGTERM only after
// the file is complete and no temporary file is left.
TEST(ScopedSignalHoldTest, ASignalDuringTheHoldArrivesWhenItEnds) {
  testing::TempDir dir;
  const std::string path = dir.File("baseline.json");
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::signal(SIGTERM, SIG_DFL);
    {
      const ScopedSignalHold hold;
      ::kill(::getpid(), SIGTERM);
      // Still alive: the write runs (and holds again, nested) to the end.
      if (!WriteFileAtomically(path, std::vector<uint8_t>(1 << 20, 'x')).ok()) ::_exit(3);
    }
    ::_exit(0);  // not reached: the signal ends the process when the hold does
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFSIGNALED(status)) << "exit " << WEXITSTATUS(status);
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
  EXPECT_EQ(std::filesystem::file_size(path), 1u << 20);
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    (void)entry;
    ++files;
  }
  EXPECT_EQ(files, 1u);  // no baseline.json.tmp.PID
}

TEST(ScopedSignalHoldTest, RestoresTheMaskItFound) {
  sigset_t before, after;
  ::pthread_sigmask(SIG_SETMASK, nullptr, &before);
  { const ScopedSignalHold hold; }
  ::pthread_sigmask(SIG_SETMASK, nullptr, &after);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) {
    EXPECT_EQ(sigismember(&before, sig), sigismember(&after, sig)) << sig;
  }
}

}  // namespace
}  // namespace etbench
