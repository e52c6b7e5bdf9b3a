#pragma once
// Running external programs: behind an interface so runners are tested with
// a double, and one real implementation (fork + execve, no shell).

#include <atomic>
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace etbench::harness {

struct ProcessSpec {
  /// argv[0] is the program: a path when it contains '/', else looked up
  /// in PATH. Never interpreted by a shell.
  std::vector<std::string> argv;
  /// Set in (or replaced in) the inherited environment.
  std::map<std::string, std::string> env;
  /// "" = the current directory.
  std::string working_dir;
  /// Seconds before SIGTERM to the process group (0 = no limit).
  double timeout_s = 0;
  /// Seconds between SIGTERM and SIGKILL.
  double kill_grace_s = 2;
  /// CPUs the program may run on (empty = inherited).
  std::vector<int> cpu_affinity;
  /// Bytes of stdout and of stderr kept (the last ones; the rest is
  /// drained and counted).
  std::size_t max_captured_bytes = 1 << 20;
};

struct ProcessResult {
  /// False when the program could not be started (start_error says why).
  bool started = false;
  std::string start_error;
  /// Exit status when it exited normally, else -1.
  int exit_code = -1;
  /// Signal that ended it, else 0.
  int term_signal = 0;
  bool timed_out = false;
  /// Stopped because the caller's cancel flag was set.
  bool interrupted = false;
  /// True when SIGTERM was not enough.
  bool killed = false;
  std::string stdout_text;
  std::string stderr_text;
  std::size_t stdout_dropped = 0;  // bytes not kept (head of the output)
  std::size_t stderr_dropped = 0;
  double wall_s = 0;

  bool Succeeded() const {
    return started && !timed_out && !interrupted && term_signal == 0 && exit_code == 0;
  }
};

/// "exited with status 3", "killed by signal 11 (SIGSEGV)", "timed out after
/// 0.5 s (SIGTERM)", "could not be started: ...", "was interrupted".
std::string DescribeProcessExit(const ProcessResult& result, double timeout_s = 0);

class ProcessRunner {
 public:
  virtual ~ProcessRunner() = default;
  /// Runs the program to completion (or timeout, or until `*cancel` becomes
  /// true), draining stdout and stderr concurrently so any amount of output
  /// is safe. Never throws.
  virtual ProcessResult Run(const ProcessSpec& spec, const std::atomic<bool>* cancel) = 0;
};

/// fork + execve in a new process group; stdin is /dev/null; on timeout or
/// cancel the whole group gets SIGTERM, then SIGKILL after the grace.
std::unique_ptr<ProcessRunner> MakeSystemProcessRunner();

/// Absolute path of `program` (PATH lookup when it has no '/'), or "" when
/// not found or not executable.
std::string FindExecutable(const std::string& program, const std::string& path_env);

/// The PATH a program started with `env` searches: env's PATH when it sets
/// one, else etbench's own.
std::string SearchPath(const std::map<std::string, std::string>& env);

}  // namespace etbench::harness
