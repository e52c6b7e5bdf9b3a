// The real ProcessRunner: fork + execve (no shell) in a new process group,
// stdout and stderr drained together with poll(), timeout → SIGTERM to the
// group, then SIGKILL after the grace period.
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include "etbench/harness/process.h"

extern char** environ;

namespace etbench::harness {
namespace {

using SteadyClock = std::chrono::steady_clock;

double SecondsSince(SteadyClock::time_point t) {
  return std::chrono::duration<double>(SteadyClock::now() - t).count();
}

bool IsExecutableFile(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}

// Keeps the last `limit` bytes of a stream, counting what it dropped.
class TailBuffer {
 public:
  explicit TailBuffer(std::size_t limit) : limit_(limit) {}
  void Append(const char* data, std::size_t n) {
    text_.append(data, n);
    if (text_.size() > 2 * limit_ + 4096) Trim();
  }
  std::string Take(std::size_t* dropped) {
    Trim();
    *dropped = dropped_;
    return std::move(text_);
  }

 private:
  void Trim() {
    if (text_.size() <= limit_) return;
    const std::size_t cut = text_.size() - limit_;
    text_.erase(0, cut);
    dropped_ += cut;
  }
  std::size_t limit_;
  std::size_t dropped_ = 0;
  std::string text_;
};

// Written by the child to the CLOEXEC status pipe when setup or exec fails.
struct ChildFailure {
  int stage;  // 0 chdir, 1 affinity, 2 exec
  int error;
};

void CloseFd(int* fd) {
  if (*fd >= 0) close(*fd);
  *fd = -1;
}

// Reads what is available; returns false at EOF or on a hard error.
bool Drain(int fd, TailBuffer* buffer) {
  char chunk[65536];
  while (true) {
    const ssize_t n = read(fd, chunk, sizeof chunk);
    if (n > 0) {
      buffer->Append(chunk, static_cast<std::size_t>(n));
      continue;
    }
    if (n == 0) return false;
    if (errno == EINTR) continue;
    return errno == EAGAIN || errno == EWOULDBLOCK;
  }
}

// Direct children of this process other than `except` (after our child
// exited, these are its orphaned descendants, adopted as we are a
// subreaper).
std::vector<pid_t> AdoptedChildren() {
  std::vector<pid_t> out;
  const pid_t self = getpid();
  std::error_code ec;
  for (std::filesystem::directory_iterator it("/proc", ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::FILE* f = std::fopen((it->path() / "stat").c_str(), "r");
    if (f == nullptr) continue;
    char buffer[512];
    const std::size_t n = std::fread(buffer, 1, sizeof buffer - 1, f);
    std::fclose(f);
    buffer[n] = '\0';
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses.
    const char* close_paren = std::strrchr(buffer, ')');
    if (close_paren == nullptr) continue;
    char state = 0;
    int ppid = 0;
    if (std::sscanf(close_paren + 1, " %c %d", &state, &ppid) != 2) continue;
    if (ppid == self) out.push_back(static_cast<pid_t>(std::atoi(name.c_str())));
  }
  return out;
}

// Kills and reaps every descendant left behind by the program that just
// exited (background jobs, daemons started with setsid): as a subreaper we
// adopted them. Repeats because killing one orphans its own children.
void KillLeftoverDescendants() {
  for (int round = 0; round < 100; ++round) {
    const std::vector<pid_t> children = AdoptedChildren();
    if (children.empty()) return;
    for (pid_t child : children) kill(child, SIGKILL);
    for (pid_t child : children) {
      while (waitpid(child, nullptr, 0) < 0 && errno == EINTR) {
      }
    }
  }
}

class SystemProcessRunner : public ProcessRunner {
 public:
  ProcessResult Run(const ProcessSpec& spec, const std::atomic<bool>* cancel) override;
};

ProcessResult SystemProcessRunner::Run(const ProcessSpec& spec, const std::atomic<bool>* cancel) {
  ProcessResult result;
  const auto start = SteadyClock::now();
  if (spec.argv.empty()) {
    result.start_error = "empty command";
    return result;
  }
  const std::string exe = FindExecutable(spec.argv[0], SearchPath(spec.env));
  if (exe.empty()) {
    result.start_error = "'" + spec.argv[0] + "': " +
                         (spec.argv[0].find('/') != std::string::npos ? "no such executable file"
                                                                      : "not found in PATH");
    return result;
  }

  // Everything the child needs is prepared before fork: after it, only
  // async-signal-safe calls.
  std::vector<std::string> env_strings;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const std::string entry = *e;
    const std::string key = entry.substr(0, entry.find('='));
    if (spec.env.count(key) == 0) env_strings.push_back(entry);
  }
  for (const auto& [k, v] : spec.env) env_strings.push_back(k + "=" + v);
  std::vector<char*> envp;
  for (std::string& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_strings = spec.argv;
  std::vector<char*> argv;
  for (std::string& s : argv_strings) argv.push_back(s.data());
  argv.push_back(nullptr);
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  for (int cpu : spec.cpu_affinity) {
    if (cpu >= 0 && cpu < CPU_SETSIZE) CPU_SET(cpu, &cpus);
  }
  const char* working_dir = spec.working_dir.empty() ? nullptr : spec.working_dir.c_str();

  int out_pipe[2] = {-1, -1};
  int err_pipe[2] = {-1, -1};
  int status_pipe[2] = {-1, -1};
  const int dev_null = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (dev_null < 0 || pipe2(out_pipe, O_CLOEXEC) != 0 || pipe2(err_pipe, O_CLOEXEC) != 0 ||
      pipe2(status_pipe, O_CLOEXEC) != 0) {
    result.start_error = std::string("cannot create pipes: ") + strerror(errno);
    for (int* fd : {&out_pipe[0], &out_pipe[1], &err_pipe[0], &err_pipe[1], &status_pipe[0],
                    &status_pipe[1]}) {
      CloseFd(fd);
    }
    if (dev_null >= 0) close(dev_null);
    return result;
  }

  // Descendants that outlive the program (or leave its process group with
  // setsid) are re-parented to us, not to init, so they can be found and
  // stopped (KillLeftoverDescendants).
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  const pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    for (int sig : {SIGINT, SIGTERM, SIGQUIT, SIGPIPE, SIGHUP, SIGCHLD})
      sigaction(sig, &dfl, nullptr);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    dup2(dev_null, STDIN_FILENO);
    dup2(out_pipe[1], STDOUT_FILENO);
    dup2(err_pipe[1], STDERR_FILENO);
    ChildFailure failure{0, 0};
    if (working_dir != nullptr && chdir(working_dir) != 0) {
      failure = {0, errno};
    } else if (!spec.cpu_affinity.empty() && sched_setaffinity(0, sizeof cpus, &cpus) != 0) {
      failure = {1, errno};
    } else {
      execve(exe.c_str(), argv.data(), envp.data());
      failure = {2, errno};
    }
    ssize_t ignored = write(status_pipe[1], &failure, sizeof failure);
    (void)ignored;
    _exit(127);
  }
  close(dev_null);
  CloseFd(&out_pipe[1]);
  CloseFd(&err_pipe[1]);
  CloseFd(&status_pipe[1]);
  if (pid < 0) {
    result.start_error = std::string("fork failed: ") + strerror(errno);
    CloseFd(&out_pipe[0]);
    CloseFd(&err_pipe[0]);
    CloseFd(&status_pipe[0]);
    return result;
  }
  setpgid(pid, pid);  // also done by the child; whichever runs first wins

  // The status pipe closes on a successful exec (CLOEXEC), or carries the
  // reason it failed.
  ChildFailure failure{0, 0};
  ssize_t got = 0;
  do {
    got = read(status_pipe[0], &failure, sizeof failure);
  } while (got < 0 && errno == EINTR);
  CloseFd(&status_pipe[0]);
  if (got == static_cast<ssize_t>(sizeof failure)) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    CloseFd(&out_pipe[0]);
    CloseFd(&err_pipe[0]);
    if (failure.stage == 0) {
      result.start_error =
          "cannot enter working directory '" + spec.working_dir + "': " + strerror(failure.error);
    } else if (failure.stage == 1) {
      result.start_error = std::string("cannot set the CPU affinity: ") + strerror(failure.error);
    } else {
      result.start_error = "cannot execute '" + exe + "': " + strerror(failure.error);
    }
    result.wall_s = SecondsSince(start);
    return result;
  }
  result.started = true;

  fcntl(out_pipe[0], F_SETFL, fcntl(out_pipe[0], F_GETFL) | O_NONBLOCK);
  fcntl(err_pipe[0], F_SETFL, fcntl(err_pipe[0], F_GETFL) | O_NONBLOCK);
  TailBuffer out(spec.max_captured_bytes);
  TailBuffer err(spec.max_captured_bytes);

  bool exited = false;
  int status = 0;
  bool stopping = false;
  SteadyClock::time_point exited_at;
  SteadyClock::time_point term_at;
  while (true) {
    if (!exited) {
      const pid_t r = waitpid(pid, &status, WNOHANG);
      if (r == pid) {
        exited = true;
        exited_at = SteadyClock::now();
        // Its descendants go with it, whether it finished, timed out or
        // was interrupted: none may keep running (or keep our pipes open).
        KillLeftoverDescendants();
      }
    }
    if (exited && out_pipe[0] < 0 && err_pipe[0] < 0) break;
    // A grandchild may keep the pipes open after the program exited: give
    // it a moment to flush, then stop reading.
    if (exited && SecondsSince(exited_at) > 0.2) break;
    const double elapsed = SecondsSince(start);
    int wait_ms = 50;
    if (!exited) {
      if (!stopping && cancel != nullptr && cancel->load(std::memory_order_relaxed)) {
        result.interrupted = true;
      } else if (!stopping && spec.timeout_s > 0 && elapsed >= spec.timeout_s) {
        result.timed_out = true;
      }
      if (!stopping && (result.interrupted || result.timed_out)) {
        stopping = true;
        term_at = SteadyClock::now();
        kill(-pid, SIGTERM);
      }
      if (stopping && !result.killed && SecondsSince(term_at) >= spec.kill_grace_s) {
        result.killed = true;
        kill(-pid, SIGKILL);
      }
      if (!stopping && spec.timeout_s > 0) {
        const double left_ms = (spec.timeout_s - elapsed) * 1000;
        wait_ms = std::max(1, std::min(wait_ms, static_cast<int>(left_ms) + 1));
      }
      if (stopping && !result.killed) {
        const double left_ms = (spec.kill_grace_s - SecondsSince(term_at)) * 1000;
        wait_ms = std::max(1, std::min(wait_ms, static_cast<int>(left_ms) + 1));
      }
    } else {
      wait_ms = 20;
    }
    pollfd fds[2];
    nfds_t n = 0;
    if (out_pipe[0] >= 0) fds[n++] = {out_pipe[0], POLLIN, 0};
    if (err_pipe[0] >= 0) fds[n++] = {err_pipe[0], POLLIN, 0};
    // With both pipes closed, only the exit is left to wait for.
    if (n == 0) wait_ms = std::min(wait_ms, 2);
    const int ready = poll(n > 0 ? fds : nullptr, n, wait_ms);
    if (ready <= 0) continue;
    for (nfds_t i = 0; i < n; ++i) {
      if (fds[i].revents == 0) continue;
      int* fd = fds[i].fd == out_pipe[0] ? &out_pipe[0] : &err_pipe[0];
      TailBuffer* buffer = fds[i].fd == out_pipe[0] ? &out : &err;
      if (!Drain(*fd, buffer)) CloseFd(fd);
    }
  }
  if (out_pipe[0] >= 0) Drain(out_pipe[0], &out);
  if (err_pipe[0] >= 0) Drain(err_pipe[0], &err);
  CloseFd(&out_pipe[0]);
  CloseFd(&err_pipe[0]);
  // A stopped program's helpers (a shell's children) go with it.
  if (stopping) kill(-pid, SIGKILL);

  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.term_signal = WTERMSIG(status);
  }
  result.stdout_text = out.Take(&result.stdout_dropped);
  result.stderr_text = err.Take(&result.stderr_dropped);
  result.wall_s = SecondsSince(start);
  return result;
}

}  // namespace

std::string SearchPath(const std::map<std::string, std::string>& env) {
  if (auto it = env.find("PATH"); it != env.end()) return it->second;
  const char* path = std::getenv("PATH");
  return path != nullptr ? path : "";
}

std::string FindExecutable(const std::string& program, const std::string& path_env) {
  namespace fs = std::filesystem;
  if (program.empty()) return "";
  if (program.find('/') != std::string::npos) {
    if (!IsExecutableFile(program)) return "";
    std::error_code ec;
    const fs::path absolute = fs::absolute(program, ec);
    return ec ? program : absolute.lexically_normal().string();
  }
  std::size_t begin = 0;
  while (begin <= path_env.size()) {
    std::size_t end = path_env.find(':', begin);
    if (end == std::string::npos) end = path_env.size();
    std::string dir = path_env.substr(begin, end - begin);
    if (dir.empty()) dir = ".";
    const std::string candidate = dir + "/" + program;
    if (IsExecutableFile(candidate)) {
      std::error_code ec;
      const fs::path absolute = fs::absolute(candidate, ec);
      return ec ? candidate : absolute.lexically_normal().string();
    }
    begin = end + 1;
  }
  return "";
}

std::string DescribeProcessExit(const ProcessResult& r, double timeout_s) {
  if (!r.started) return "could not be started: " + r.start_error;
  if (r.interrupted) return "was interrupted";
  if (r.timed_out) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", timeout_s > 0 ? timeout_s : r.wall_s);
    return std::string("timed out after ") + seconds + " s (" +
           (r.killed ? "ignored SIGTERM; killed with SIGKILL" : "stopped with SIGTERM") + ")";
  }
  if (r.term_signal != 0) {
    const char* abbrev = sigabbrev_np(r.term_signal);
    return "killed by signal " + std::to_string(r.term_signal) +
           (abbrev != nullptr ? std::string(" (SIG") + abbrev + ")" : std::string());
  }
  if (r.exit_code != 0) return "exited with status " + std::to_string(r.exit_code);
  return "exited with status 0";
}

std::unique_ptr<ProcessRunner> MakeSystemProcessRunner() {
  return std::make_unique<SystemProcessRunner>();
}

}  // namespace etbench::harness
