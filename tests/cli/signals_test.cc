// Real signals sent to the real etbench executable at several points of
// `gate --baseline history` (with sessions: child etbench processes), `ab`,
// `baseline save` and `history add`. Whatever the point: exit 130 (or, for a
// signal before etbench installed its handler, death by that signal), no
// process left behind, no partially written file or `*.tmp.PID`, and the
// history and the baseline unchanged or fully updated.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/test_support.h"

namespace etbench {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::TempDir;

struct Exit {
  bool exited = false;     // false: killed by a signal (or timed out: signal 9)
  int code = -1;           // exit code, or the signal
  std::string err;
};

// Starts `args` (etbench's arguments) with stdout and stderr to files in `dir`.
pid_t Start(const TempDir& dir, const std::vector<std::string>& args) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    std::vector<std::string> argv{ETBENCH_BINARY_PATH};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> c;
    for (std::string& a : argv) c.push_back(a.data());
    c.push_back(nullptr);
    if (!std::freopen(dir.File("stdout").c_str(), "w", stdout) ||
        !std::freopen(dir.File("stderr").c_str(), "w", stderr)) {
      ::_exit(126);
    }
    ::execv(c[0], c.data());
    ::_exit(127);
  }
  return pid;
}

Exit Wait(const TempDir& dir, pid_t pid, int timeout_s = 60) {
  Exit out;
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      out.err = "timed out";
      return out;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  out.exited = WIFEXITED(status);
  out.code = out.exited ? WEXITSTATUS(status) : WTERMSIG(status);
  // (A signal may end the child before it opened its output files.)
  if (fs::exists(dir.File("stderr"))) out.err = testing::ReadTextFile(dir.File("stderr"));
  return out;
}

Exit RunToEnd(const TempDir& dir, const std::vector<std::string>& args) {
  return Wait(dir, Start(dir, args));
}

// True once `path` holds a line containing `needle` (polled up to 60 s);
// the line's first two words (the program's PID and its parent's) go to
// `pids`.
bool WaitForLine(const std::string& path, const std::string& needle, std::vector<pid_t>* pids) {
  for (int i = 0; i < 6000; ++i) {
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
      if (line.find(needle) == std::string::npos) continue;
      std::istringstream words(line);
      pid_t self = 0, parent = 0;
      words >> self >> parent;
      *pids = {self, parent};
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

// A process is gone once /proc has no entry for it, or only a zombie's.
bool Gone(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  if (!stat) return true;
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const auto paren = text.rfind(')');
  return paren != std::string::npos && paren + 2 < text.size() && text[paren + 2] == 'Z';
}

bool AllGoneWithin(const std::vector<pid_t>& pids, int seconds) {
  for (int i = 0; i < seconds * 100; ++i) {
    bool gone = true;
    for (pid_t p : pids) gone &= Gone(p);
    if (gone) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  for (pid_t p : pids) ::kill(p, SIGKILL);  // do not leave them to the next test
  return false;
}

// Files under `root` that a writer leaves when interrupted mid-write.
std::vector<std::string> Leftovers(const std::string& root) {
  std::vector<std::string> found;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.find(".tmp.") != std::string::npos || name.rfind(".etbench-run-", 0) == 0) {
      found.push_back(it->path().string());
    }
  }
  return found;
}

// A command suite whose program logs "PID PPID ETDUMP" to `log`, then,
// when the ETDump path contains `hang_on` (and it is not empty), sleeps in
// place of itself (exec: the logged PID is the sleeper) instead of writing.
class SignalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const Exit canned = RunToEnd(dir_, {"run", "configs/default.yaml", "--model", "mlp",
                                        "--warmup", "0", "--iterations", "2", "--repetitions",
                                        "1", "--output-dir", dir_.File("canned"), "--quiet"});
    ASSERT_TRUE(canned.exited && canned.code == 0) << canned.err;
  }

  std::string Suite(const std::string& hang_on) {
    const std::string script = dir_.File("program.sh");
    testing::WriteTextFile(
        script, "#!/bin/bash\necho \"$$ $PPID $2\" >> " + log() + "\n" +
                    (hang_on.empty() ? "" : "if [[ \"$2\" == *'" + hang_on + "'* ]]; then exec sleep 60; fi\n") +
                    "cp " + dir_.File("canned/mlp/rep0.etdp") + " \"$2\"\n");
    ::chmod(script.c_str(), 0755);
    const std::string suite = dir_.File("suite.yaml");
    testing::WriteTextFile(suite,
                           "suite: sigsuite\nrunner: command\nwarmup: 0\niterations: 2\nrepetitions: 1\n"
                           "command:\n  argv: [" + script + ", '{name}', '{etdump}', '{iterations}']\n"
                           "  timeout_s: 120\n"
                           "models: [configs/models/mlp.yaml, configs/models/toy_cnn.yaml]\n"
                           "output_dir: " + dir_.File("out") + "\n");
    return suite;
  }

  std::string log() const { return dir_.File("program.log"); }

  // Runs of `suite` in the history `db` (the lines `history list` prints
  // for them).
  std::size_t HistoryRuns(const std::string& db) {
    if (!fs::exists(db)) return 0;
    TempDir scratch;
    const Exit list = RunToEnd(scratch, {"history", "list", "--history", db, "--format", "json"});
    EXPECT_TRUE(list.exited && list.code == 0) << list.err;
    const std::string text = testing::ReadTextFile(scratch.File("stdout"));
    std::size_t runs = 0;
    for (std::size_t at = text.find("\"sigsuite\""); at != std::string::npos;
         at = text.find("\"sigsuite\"", at + 1)) {
      ++runs;
    }
    return runs;
  }

  TempDir dir_;
};

TEST_F(SignalTest, GateSessionStoppedBySigtermLeavesNoProcessAndNoHistoryRow) {
  const std::string db = dir_.File("history.db");
  // Session 2 is a child etbench; its program hangs until stopped.
  const pid_t gate = Start(dir_, {"gate", Suite("sessions/s2"), "--baseline", "history",
                                  "--history", db, "--sessions", "2"});
  std::vector<pid_t> hung;
  ASSERT_TRUE(WaitForLine(log(), "sessions/s2", &hung)) << "session 2 never ran its program";
  ASSERT_EQ(::kill(gate, SIGTERM), 0);
  const Exit e = Wait(dir_, gate);
  EXPECT_TRUE(e.exited) << "killed by signal " << e.code << ": " << e.err;
  EXPECT_EQ(e.code, 130) << e.err;
  EXPECT_THAT(e.err, HasSubstr("interrupted; no verdict"));
  // The hung program and the session's etbench (its parent) are gone.
  EXPECT_TRUE(AllGoneWithin(hung, 10)) << "left behind: program " << hung[0] << ", session "
                                       << hung[1];
  EXPECT_EQ(HistoryRuns(db), 0u);
  EXPECT_THAT(Leftovers(dir_.File("out")), ::testing::IsEmpty());
}

TEST_F(SignalTest, GateInterruptedInItsFirstSessionByCtrlC) {
  const std::string db = dir_.File("history.db");
  const pid_t gate = Start(dir_, {"gate", Suite("toy_cnn"), "--baseline", "history", "--history",
                                  db, "--sessions", "2"});
  std::vector<pid_t> hung;
  ASSERT_TRUE(WaitForLine(log(), "toy_cnn", &hung));
  ASSERT_EQ(::kill(gate, SIGINT), 0);
  const Exit e = Wait(dir_, gate);
  EXPECT_TRUE(e.exited && e.code == 130) << e.code << ": " << e.err;
  EXPECT_TRUE(AllGoneWithin({hung[0]}, 10));
  EXPECT_EQ(HistoryRuns(db), 0u);
  EXPECT_THAT(Leftovers(dir_.File("out")), ::testing::IsEmpty());
}

TEST_F(SignalTest, AbStoppedMidRunKeepsFinishedRunsAndLeavesNothingBehind) {
  const std::string suite = Suite("");
  // Let the first runs finish, then hang the program from the 5th call on.
  testing::WriteTextFile(dir_.File("program.sh"),
                         "#!/bin/bash\necho \"$$ $PPID $2\" >> " + log() + "\n"
                         "if [ $(wc -l < " + log() + ") -ge 5 ]; then exec sleep 60; fi\n"
                         "cp " + dir_.File("canned/mlp/rep0.etdp") + " \"$2\"\n");
  const pid_t ab = Start(dir_, {"ab", suite, "--blocks", "2", "--iterations", "2",
                                "--output-dir", dir_.File("out/ab")});
  // The 5th line is the hung call.
  std::vector<pid_t> hung{0, 0};
  for (int i = 0; i < 6000; ++i) {
    std::ifstream in(log());
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
      if (++n == 5) {
        std::istringstream words(line);
        words >> hung[0] >> hung[1];
      }
    }
    if (n >= 5) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_NE(hung[0], 0) << "the 5th call never came";
  ASSERT_EQ(::kill(ab, SIGTERM), 0);
  const Exit e = Wait(dir_, ab);
  EXPECT_TRUE(e.exited && e.code == 130) << e.code << ": " << e.err;
  EXPECT_THAT(e.err, HasSubstr("etbench ab: interrupted after"));
  EXPECT_TRUE(AllGoneWithin({hung[0]}, 10));
  EXPECT_THAT(Leftovers(dir_.File("out")), ::testing::IsEmpty());
}

// Signals at evenly spread moments of a short command, from before its
// handler is installed to after it has finished.
class SignalSweep {
 public:
  SignalSweep(int attempts, double span_ms) : attempts_(attempts), span_ms_(span_ms) {}
  template <typename Start, typename Check>
  void Run(Start start, Check check) {
    for (int i = 0; i < attempts_; ++i) {
      TempDir scratch;
      const pid_t pid = start(scratch);
      std::this_thread::sleep_for(
          std::chrono::microseconds(static_cast<int64_t>(1000 * span_ms_ * i / attempts_)));
      ::kill(pid, i % 2 == 0 ? SIGTERM : SIGINT);
      const Exit e = Wait(scratch, pid);
      if (e.exited && e.code == 130) ++interrupted_;
      if (e.exited && e.code == 0) ++finished_;
      if (!e.exited) ++killed_;
      check(e, i);
    }
    std::printf("[ measured ] %d signals: %d exit 130, %d finished first, %d before the handler\n",
                attempts_, interrupted_, finished_, killed_);
  }
  int interrupted() const { return interrupted_; }

 private:
  int attempts_;
  double span_ms_;
  int interrupted_ = 0, finished_ = 0, killed_ = 0;
};

// The results file of one real run of the suite.
std::string RunOnce(const TempDir& dir, const std::string& suite, const std::string& out) {
  const Exit r = RunToEnd(dir, {"run", suite, "--output-dir", out, "--quiet"});
  EXPECT_TRUE(r.exited && r.code == 0) << r.err;
  return out + "/results.json";
}

// How long `args` takes, in ms (the sweep spreads its signals over it).
double Milliseconds(const std::vector<std::string>& args) {
  TempDir scratch;
  const auto t0 = std::chrono::steady_clock::now();
  RunToEnd(scratch, args);
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

TEST_F(SignalTest, BaselineSaveIsCompleteOrAbsentWhereverTheSignalLands) {
  const std::string results = RunOnce(dir_, Suite(""), dir_.File("out/r1"));
  const std::string baseline_dir = dir_.File("baselines");
  fs::create_directories(baseline_dir);
  const double ms = Milliseconds({"baseline", "save", results, "--path", dir_.File("t.json")});
  SignalSweep sweep(40, 1.5 * ms + 5);
  sweep.Run(
      [&](const TempDir& scratch) {
        fs::remove_all(baseline_dir);
        fs::create_directories(baseline_dir);
        return Start(scratch, {"baseline", "save", results, "--path", baseline_dir + "/b.json"});
      },
      [&](const Exit& e, int i) {
        EXPECT_TRUE(!e.exited || e.code == 0 || e.code == 130) << i << ": " << e.code << e.err;
        if (fs::exists(baseline_dir + "/b.json")) {
          TempDir scratch;
          const Exit show = RunToEnd(scratch, {"baseline", "show", baseline_dir + "/b.json"});
          EXPECT_TRUE(show.exited && show.code == 0) << i << ": half a baseline: " << show.err;
        } else {
          EXPECT_NE(e.code, 0) << i << ": exit 0 without a baseline";
        }
        EXPECT_THAT(Leftovers(baseline_dir), ::testing::IsEmpty()) << i;
      });
}

TEST_F(SignalTest, HistoryAddStoresTheRunOnceOrNotAtAllWhereverTheSignalLands) {
  const std::string results = RunOnce(dir_, Suite(""), dir_.File("out/r1"));
  const std::string db = dir_.File("history.db");
  const double ms = Milliseconds({"history", "add", results, "--history", dir_.File("t.db")});
  SignalSweep sweep(30, 1.5 * ms + 5);
  sweep.Run(
      [&](const TempDir& scratch) {
        fs::remove(db);
        return Start(scratch, {"history", "add", results, "--history", db});
      },
      [&](const Exit& e, int i) {
        EXPECT_TRUE(!e.exited || e.code == 0 || e.code == 130) << i << ": " << e.code << e.err;
        const std::size_t runs = HistoryRuns(db);
        EXPECT_LE(runs, 1u) << i;
        if (e.exited && e.code == 0) {
          EXPECT_EQ(runs, 1u) << i;
        }
      });
}

TEST_F(SignalTest, GateAgainstHistoryRecordsTheNightOnceOrNotAtAllWhereverTheSignalLands) {
  // One session (in-process): the signal lands before, in or after the
  // suite, while the history is read, while the night is recorded or while
  // the reports are written.
  const std::string suite = Suite("");
  const std::string db = dir_.File("history.db");
  const std::vector<std::string> args{"gate", suite, "--baseline", "history", "--history", db,
                                      "--sessions", "1", "--report", "markdown=" +
                                      dir_.File("out/report.md")};
  const double ms = Milliseconds(args);
  SignalSweep sweep(24, 1.5 * ms + 5);
  sweep.Run(
      [&](const TempDir& scratch) {
        fs::remove(db);
        fs::remove_all(dir_.File("out"));
        return Start(scratch, args);
      },
      [&](const Exit& e, int i) {
        EXPECT_TRUE(!e.exited || e.code == 0 || e.code == 130) << i << ": " << e.code << e.err;
        const std::size_t runs = HistoryRuns(db);
        EXPECT_LE(runs, 1u) << i;
        if (e.exited && e.code == 0) {
          EXPECT_EQ(runs, 1u) << i;
        }
        EXPECT_THAT(Leftovers(dir_.path()), ::testing::IsEmpty()) << i;
      });
}

}  // namespace
}  // namespace etbench
