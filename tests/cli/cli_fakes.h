#pragma once
// etbench in-process with doubles for everything outside: a process runner
// that "runs" a device program by writing a synthetic ETDump, a manual
// clock, a fixed environment and a Ctrl-C flag the test sets. No runtime,
// no real processes.

#include <atomic>
#include <random>
#include <string>
#include <vector>

#include "cli_test_util.h"
#include "harness_test_util.h"

namespace etbench::testing {

class FakeDevice {
 public:
  /// A command suite in `dir` whose program the fake process runner plays:
  /// one model "m", 1 warm-up + 20 iterations per repetition, 6 repetitions (the fewest from
  /// which a fixed-baseline gate can establish a change at alpha 0.01).
  explicit FakeDevice(const TempDir& dir) : FakeDevice(dir, {"m"}) {}
  /// The same suite with these models (each its own "NAME.model"; the
  /// program gets the model's name last).
  FakeDevice(const TempDir& dir, const std::vector<std::string>& models)
      : processes_([this](const harness::ProcessSpec& spec) { return Play(spec); }) {
    std::string files;
    for (const std::string& name : models) {
      WriteModelFile(dir, name);
      files += (files.empty() ? "" : ", ") + dir.File(name + ".model");
    }
    suite_ = WriteSuite(dir, "suite: s\nrunner: command\nwarmup: 1\niterations: 20\n"
                             "repetitions: 6\ncommand:\n  argv: [/bin/true, '{etdump}', "
                             "'{iterations}', '{args}', '{name}']\nmodels: [" +
                                 files + "]\noutput_dir: " + dir.File("out") +
                                 "/{suite}\nlabels: {device: fake, branch: b, commit: c}\n");
  }

  const std::string& suite() const { return suite_; }
  /// Executions take `factor` times as long from now on; with `arg`, only
  /// in runs whose argv holds it.
  void SlowDown(uint64_t factor, std::string arg = "") {
    factor_ = factor;
    slow_arg_ = std::move(arg);
    fast_arg_.clear();
  }
  /// Executions take `factor` times as long from now on, except in runs
  /// whose argv holds `arg` (an older, faster build).
  void SlowDownExcept(uint64_t factor, std::string arg) {
    factor_ = factor;
    slow_arg_.clear();
    fast_arg_ = std::move(arg);
  }
  /// Runs whose ETDump path holds `path_part` (e.g. "/confirm": the gate's
  /// confirmation runs) are not slowed down: a slow first run was chance.
  void FastUnder(std::string path_part) { fast_path_ = std::move(path_part); }
  /// The program fails from now on.
  void Fail() { fail_ = true; }
  /// Ctrl-C arrives during the `n`-th program run (1-based).
  void InterruptAtRun(int n) { interrupt_at_ = n; }
  /// Every execution of `model` takes a factor from 0.8
  /// to 1.2 that changes from one program run to the next.
  void Noisy(std::string model) { noisy_ = std::move(model); }
  /// Every program run advances the clock by this many seconds.
  void SecondsPerRun(double seconds) { seconds_per_run_ = seconds; }
  int runs() const { return runs_; }

  /// CliDeps with the doubles (streams are set by RunCliWith).
  CliDeps Deps() {
    CliDeps deps;
    deps.process_runner = &processes_;
    deps.clock = &clock_;
    deps.env = &env_;
    deps.catch_interrupts = [this] {
      cancel_ = false;  // a new run
      return std::shared_ptr<const std::atomic<bool>>(std::shared_ptr<void>(), &cancel_);
    };
    return deps;
  }

 private:
  harness::ProcessResult Play(const harness::ProcessSpec& spec) {
    if (spec.argv.front() == "git") return Exited(1);
    if (++runs_ == interrupt_at_) cancel_ = true;
    if (fail_) return Exited(3, "", "no device\n");
    clock_.Advance(seconds_per_run_);
    bool slow = slow_arg_.empty();
    for (const std::string& a : spec.argv) slow |= a == slow_arg_;
    for (const std::string& a : spec.argv) slow &= fast_arg_.empty() || a != fast_arg_;
    slow &= fast_path_.empty() || spec.argv.at(1).find(fast_path_) == std::string::npos;
    uint64_t percent = 100;
    if (!noisy_.empty() && spec.argv.back() == noisy_) {
      percent = std::uniform_int_distribution<uint64_t>(80, 120)(noisy_rng_);
    }
    std::vector<uint64_t> execute_ns;
    const int executions = std::stoi(spec.argv.at(2));
    for (int i = 0; i < executions; ++i) {
      execute_ns.push_back((1000000 + static_cast<uint64_t>(i % 7) * 1000) * (slow ? factor_ : 1) *
                           percent / 100);
    }
    WriteBinaryFile(spec.argv.at(1), MakeExecuteEtdump(execute_ns));
    return Exited(0);
  }

  FakeProcessRunner processes_;
  ManualClock clock_;
  MapEnvironment env_;
  std::atomic<bool> cancel_{false};
  std::string suite_;
  uint64_t factor_ = 1;
  std::string slow_arg_;
  std::string fast_arg_;
  std::string fast_path_;
  bool fail_ = false;
  int interrupt_at_ = 0;
  std::string noisy_;
  std::mt19937 noisy_rng_{5};
  double seconds_per_run_ = 0;
  int runs_ = 0;
};

}  // namespace etbench::testing
