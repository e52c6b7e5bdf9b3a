#include "etbench/harness/process.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <thread>

#include "harness_test_util.h"

namespace etbench::harness {
namespace {

using etbench::testing::TempDir;
using etbench::testing::WriteScript;
using ::testing::HasSubstr;

class HarnessProcessTest : public ::testing::Test {
 protected:
  ProcessResult Run(ProcessSpec spec, const std::atomic<bool>* cancel = nullptr) {
    return runner_->Run(spec, cancel);
  }
  std::unique_ptr<ProcessRunner> runner_ = MakeSystemProcessRunner();
  TempDir dir_;
};

TEST_F(HarnessProcessTest, CapturesBothStreamsAndTheExitStatus) {
  ProcessSpec spec;
  spec.argv = {WriteScript(dir_, "p.sh", "echo out; echo err >&2; exit 3")};
  const ProcessResult r = Run(spec);
  EXPECT_TRUE(r.started);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.stdout_text, "out\n");
  EXPECT_EQ(r.stderr_text, "err\n");
  EXPECT_FALSE(r.Succeeded());
  EXPECT_EQ(DescribeProcessExit(r), "exited with status 3");
}

TEST_F(HarnessProcessTest, LargeOutputOnBothStreamsNeverDeadlocks) {
  // 8 MB on each stream, interleaved: far beyond any pipe buffer.
  ProcessSpec spec;
  spec.argv = {WriteScript(dir_, "p.sh",
                           "for i in 1 2 3 4 5 6 7 8; do head -c 1000000 /dev/zero | tr '\\0' o; "
                           "head -c 1000000 /dev/zero | tr '\\0' e >&2; done; echo END")};
  spec.max_captured_bytes = 1000;
  spec.timeout_s = 60;
  const ProcessResult r = Run(spec);
  ASSERT_TRUE(r.Succeeded()) << DescribeProcessExit(r);
  EXPECT_EQ(r.stdout_text.size(), 1000u);
  EXPECT_EQ(r.stdout_text.substr(r.stdout_text.size() - 4), "END\n");
  EXPECT_EQ(r.stdout_dropped, 8000004u - 1000u);
  EXPECT_EQ(r.stderr_text, std::string(1000, 'e'));
  EXPECT_EQ(r.stderr_dropped, 8000000u - 1000u);
}

TEST_F(HarnessProcessTest, TimeoutStopsTheWholeProcessGroup) {
  ProcessSpec spec;
  // The shell's child (sleep) must go too, or it would hold the pipes.
  spec.argv = {WriteScript(dir_, "p.sh", "echo started; sleep 30; echo never")};
  spec.timeout_s = 0.3;
  const ProcessResult r = Run(spec);
  EXPECT_TRUE(r.timed_out);
  EXPECT_FALSE(r.killed);
  EXPECT_EQ(r.stdout_text, "started\n");
  EXPECT_LT(r.wall_s, 10);
  EXPECT_EQ(DescribeProcessExit(r, 0.3), "timed out after 0.3 s (stopped with SIGTERM)");
}

TEST_F(HarnessProcessTest, IgnoredSigtermEscalatesToSigkill) {
  ProcessSpec spec;
  spec.argv = {WriteScript(dir_, "p.sh", "trap '' TERM; sleep 30")};
  spec.timeout_s = 0.2;
  spec.kill_grace_s = 0.2;
  const ProcessResult r = Run(spec);
  EXPECT_TRUE(r.timed_out);
  EXPECT_TRUE(r.killed);
  EXPECT_EQ(r.term_signal, SIGKILL);
  EXPECT_LT(r.wall_s, 10);
  EXPECT_THAT(DescribeProcessExit(r, 0.2), HasSubstr("ignored SIGTERM; killed with SIGKILL"));
}

TEST_F(HarnessProcessTest, CrashIsDecodedWithTheSignalName) {
  ProcessSpec spec;
  spec.argv = {WriteScript(dir_, "p.sh", "echo dying >&2; kill -SEGV $$")};
  const ProcessResult r = Run(spec);
  EXPECT_EQ(r.term_signal, SIGSEGV);
  EXPECT_EQ(r.stderr_text, "dying\n");
  EXPECT_EQ(DescribeProcessExit(r), "killed by signal 11 (SIGSEGV)");
}

TEST_F(HarnessProcessTest, MissingProgramsAreReportedNotRun) {
  ProcessSpec spec;
  spec.argv = {dir_.File("absent")};
  ProcessResult r = Run(spec);
  EXPECT_FALSE(r.started);
  EXPECT_THAT(DescribeProcessExit(r), HasSubstr("no such executable file"));
  spec.argv = {"etbench-no-such-program"};
  r = Run(spec);
  EXPECT_FALSE(r.started);
  EXPECT_EQ(r.start_error, "'etbench-no-such-program': not found in PATH");
  spec.argv = {WriteScript(dir_, "p.sh", "exit 0")};
  spec.working_dir = dir_.File("no-dir");
  r = Run(spec);
  EXPECT_FALSE(r.started);
  EXPECT_THAT(r.start_error, HasSubstr("cannot enter working directory"));
}

TEST_F(HarnessProcessTest, ArgumentsReachTheProgramVerbatimWithoutAShell) {
  ProcessSpec spec;
  const std::string evil = "$(touch " + dir_.File("pwned") + "); `id` | ; & > x";
  spec.argv = {WriteScript(dir_, "p.sh", "printf '%s\\n' \"$@\""), evil, "two words", ""};
  const ProcessResult r = Run(spec);
  ASSERT_TRUE(r.Succeeded());
  EXPECT_EQ(r.stdout_text, evil + "\ntwo words\n\n");
  EXPECT_FALSE(std::filesystem::exists(dir_.File("pwned")));
}

TEST_F(HarnessProcessTest, EnvironmentWorkingDirectoryAndStdin) {
  ProcessSpec spec;
  std::filesystem::create_directories(dir_.File("work"));
  spec.argv = {WriteScript(dir_, "p.sh", "echo \"$FOO\"; pwd; cat; echo \"[$HOME]\"")};
  spec.env = {{"FOO", "bar baz"}, {"HOME", "/nowhere"}};
  spec.working_dir = dir_.File("work");
  const ProcessResult r = Run(spec);
  ASSERT_TRUE(r.Succeeded()) << r.stderr_text;
  EXPECT_EQ(r.stdout_text, "bar baz\n" + std::filesystem::canonical(dir_.File("work")).string() +
                               "\n[/nowhere]\n");
}

TEST_F(HarnessProcessTest, CpuAffinityPinsTheProgram) {
  ProcessSpec spec;
  spec.argv = {WriteScript(dir_, "p.sh", "grep Cpus_allowed_list /proc/self/status")};
  spec.cpu_affinity = {0};
  const ProcessResult r = Run(spec);
  ASSERT_TRUE(r.Succeeded()) << r.stderr_text;
  EXPECT_THAT(r.stdout_text, HasSubstr("\t0\n"));
}

TEST_F(HarnessProcessTest, CancelFlagStopsTheProgram) {
  ProcessSpec spec;
  spec.argv = {WriteScript(dir_, "p.sh", "sleep 30")};
  std::atomic<bool> cancel{false};
  std::thread setter([&cancel] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    cancel = true;
  });
  const ProcessResult r = Run(spec, &cancel);
  setter.join();
  EXPECT_TRUE(r.interrupted);
  EXPECT_FALSE(r.Succeeded());
  EXPECT_LT(r.wall_s, 10);
  EXPECT_EQ(DescribeProcessExit(r), "was interrupted");
}

TEST_F(HarnessProcessTest, ExitedProgramWithAGrandchildHoldingThePipesReturns) {
  ProcessSpec spec;
  spec.argv = {WriteScript(dir_, "p.sh", "(sleep 5 &) ; echo done")};
  const ProcessResult r = Run(spec);
  EXPECT_TRUE(r.Succeeded());
  EXPECT_EQ(r.stdout_text, "done\n");
  EXPECT_LT(r.wall_s, 4);
}

// True while process `pid` exists (as anything but a zombie we must reap).
bool Alive(pid_t pid) { return ::kill(pid, 0) == 0; }

pid_t ReadPid(const std::string& path) {
  return static_cast<pid_t>(std::stol(etbench::testing::ReadTextFile(path)));
}

TEST_F(HarnessProcessTest, BackgroundChildrenDoNotOutliveAProgramThatExitedZero) {
  ProcessSpec spec;
  // One plain background child, one that left the process group (setsid).
  spec.argv = {WriteScript(dir_, "p.sh",
                           "sleep 300 & echo $! > " + dir_.File("bg") +
                               "; setsid sleep 300 & echo $! > " + dir_.File("daemon") +
                               "; sleep 0.2; echo done")};
  const ProcessResult r = Run(spec);
  EXPECT_TRUE(r.Succeeded());
  EXPECT_FALSE(Alive(ReadPid(dir_.File("bg"))));
  EXPECT_FALSE(Alive(ReadPid(dir_.File("daemon"))));
}

TEST_F(HarnessProcessTest, SetsidChildrenDoNotSurviveATimeoutOrCancel) {
  for (bool cancel_it : {false, true}) {
    ProcessSpec spec;
    spec.argv = {WriteScript(dir_, "p.sh",
                             "setsid sleep 300 & echo $! > " + dir_.File("daemon") +
                                 "; sleep 30")};
    std::atomic<bool> cancel{false};
    std::thread setter;
    if (cancel_it) {
      setter = std::thread([&cancel] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        cancel = true;
      });
    } else {
      spec.timeout_s = 0.3;
    }
    const ProcessResult r = Run(spec, &cancel);
    if (setter.joinable()) setter.join();
    EXPECT_TRUE(cancel_it ? r.interrupted : r.timed_out);
    EXPECT_FALSE(Alive(ReadPid(dir_.File("daemon")))) << (cancel_it ? "cancel" : "timeout");
  }
}

TEST(HarnessFindExecutableTest, SearchesPathAndChecksTheExecuteBit) {
  EXPECT_EQ(FindExecutable("sh", "/nonexistent:/bin:/usr/bin").substr(0, 1), "/");
  EXPECT_EQ(FindExecutable("sh", "/nonexistent"), "");
  TempDir dir;
  etbench::testing::WriteTextFile(dir.File("data"), "not a program");
  EXPECT_EQ(FindExecutable(dir.File("data"), ""), "");
}

}  // namespace
}  // namespace etbench::harness
