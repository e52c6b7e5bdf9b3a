// libpq is loaded when a PostgreSQL history is opened, not when the program
// starts (history/src/libpq_loader.cc): a process that never opens one
// (every `etbench inspect`) does not pay for its 21 libraries.
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "etbench/history/history_store.h"

namespace etbench::history {
namespace {

bool LibpqIsMapped() {
  std::ifstream maps("/proc/self/maps");
  std::stringstream text;
  text << maps.rdbuf();
  return text.str().find("/libpq.so") != std::string::npos;
}

// In a fresh child process (other tests of this binary may have loaded
// libpq already): exit 0 when libpq is absent before and present after an
// attempt to open a PostgreSQL history, 10 + which check failed otherwise.
TEST(HistoryLibpqLoaderTest, LibpqIsLoadedOnlyWhenAPostgresHistoryIsOpened) {
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (LibpqIsMapped()) _exit(10);
    // Nothing listens on port 1: the connection is refused at once.
    auto store = OpenHistory("postgresql://127.0.0.1:1/etbench?connect_timeout=2");
    if (store.ok()) _exit(11);
    if (store.error().message.find("postgresql") == std::string::npos) _exit(12);
    if (!LibpqIsMapped()) _exit(13);
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0)
      << "10: libpq mapped at start; 11: opened; 12: error not about PostgreSQL; 13: not loaded";
}

}  // namespace
}  // namespace etbench::history
