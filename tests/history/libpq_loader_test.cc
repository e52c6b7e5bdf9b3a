// libpq is loaded when a PostgreSQL history is opened, not when the program
// starts (history/src/libpq_loader.cc): a process that never opens one
// (every `etbench inspect`) does not pay for its 21 libraries.
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdlib>
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

constexpr char kChildVariable[] = "ETBENCH_LIBPQ_LOADER_CHILD";

// The body of the test below, run in a fresh process (this program executed
// again: a forked child would inherit libpq from tests that opened a
// PostgreSQL history before). Exit 0 when libpq is absent before and present
// after an attempt to open a PostgreSQL history, 10 + which check failed.
TEST(HistoryLibpqLoaderTest, FreshProcessPart) {
  if (std::getenv(kChildVariable) == nullptr) GTEST_SKIP() << "run by the test below";
  if (LibpqIsMapped()) _exit(10);
  // Nothing listens on port 1: the connection is refused at once.
  auto store = OpenHistory("postgresql://127.0.0.1:1/etbench?connect_timeout=2");
  if (store.ok()) _exit(11);
  if (store.error().message.find("postgresql") == std::string::npos) _exit(12);
  if (!LibpqIsMapped()) _exit(13);
  _exit(0);
}

TEST(HistoryLibpqLoaderTest, LibpqIsLoadedOnlyWhenAPostgresHistoryIsOpened) {
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    setenv(kChildVariable, "1", 1);
    execl("/proc/self/exe", "history_tests", "--gtest_filter=HistoryLibpqLoaderTest.FreshProcessPart",
          static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0)
      << "10: libpq mapped at start; 11: opened; 12: error not about PostgreSQL; 13: not loaded; "
         "127: could not run the test program again";
}

}  // namespace
}  // namespace etbench::history
