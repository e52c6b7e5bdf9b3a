#pragma once
// Doubles and builders shared by the harness tests: synthetic ETDumps, a
// fake runner, a manual clock, a recording terminal, script files.

#include <atomic>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "etbench/base/environment.h"
#include "etbench/harness/clock.h"
#include "etbench/harness/config.h"
#include "etbench/harness/orchestrator.h"
#include "etbench/harness/process.h"
#include "etbench/harness/runner.h"
#include "etbench/harness/terminal.h"
#include "support/test_support.h"

namespace etbench::testing {

/// Method::execute durations (in ns) of each Execute run; every run also
/// holds `instructions` native_call_op<i> + OPERATOR_CALL pairs taking
/// half of it together. A Default block (Method::init, Program::load_method)
/// comes first.
std::vector<uint8_t> MakeExecuteEtdump(const std::vector<uint64_t>& execute_ns,
                                       int instructions = 2);

/// Writes an executable bash script (a "#!/bin/bash" line is added).
std::string WriteScript(const TempDir& dir, const std::string& name, const std::string& body);

/// A suite file in `dir` (model files written next to it as needed).
std::string WriteSuite(const TempDir& dir, const std::string& yaml);

/// Writes a (syntactically irrelevant) model file and returns its path.
std::string WriteModelFile(const TempDir& dir, const std::string& name);

class ManualClock : public harness::Clock {
 public:
  double MonotonicSeconds() override { return now_; }
  int64_t UnixSeconds() override { return 1700000000; }
  void Advance(double seconds) { now_ += seconds; }

 private:
  double now_ = 1000;
};

class RecordingTerminal : public harness::Terminal {
 public:
  explicit RecordingTerminal(bool interactive) : interactive_(interactive) {}
  bool IsInteractive() const override { return interactive_; }
  int Columns() const override { return 100; }
  void Write(std::string_view text) override { text_ += text; }
  const std::string& text() const { return text_; }

 private:
  bool interactive_;
  std::string text_;
};

/// A runner that returns synthetic ETDumps; `behavior` may fail models or
/// change the durations. Records every call.
class FakeRunner : public harness::Runner {
 public:
  struct Call {
    std::string model;
    int repetition;
    int warmup;
    int iterations;
  };
  /// Return !ok to fail; may set `execute_ns` (warm-up included).
  using Behavior = std::function<harness::RepetitionOutput(const harness::ModelSpec&,
                                                           const harness::RepetitionPlan&,
                                                           std::vector<uint64_t>* execute_ns)>;

  explicit FakeRunner(Behavior behavior = nullptr) : behavior_(std::move(behavior)) {}
  std::string Name() const override { return "fake"; }
  std::string Version() const override { return "fake 1"; }
  harness::RepetitionOutput Run(const harness::ModelSpec& model,
                                const harness::RepetitionPlan& plan) override;
  const std::vector<Call>& calls() const { return calls_; }

 private:
  Behavior behavior_;
  std::vector<Call> calls_;
};

/// ProcessRunner double: records every spec and answers with `handler`
/// (which may write the files a real program would).
class FakeProcessRunner : public harness::ProcessRunner {
 public:
  using Handler = std::function<harness::ProcessResult(const harness::ProcessSpec&)>;
  explicit FakeProcessRunner(Handler handler) : handler_(std::move(handler)) {}
  harness::ProcessResult Run(const harness::ProcessSpec& spec, const std::atomic<bool>*) override {
    specs_.push_back(spec);
    return handler_(spec);
  }
  const std::vector<harness::ProcessSpec>& specs() const { return specs_; }

 private:
  Handler handler_;
  std::vector<harness::ProcessSpec> specs_;
};

/// A ProcessResult of a program that exited with `exit_code`.
harness::ProcessResult Exited(int exit_code, std::string out = "", std::string err = "");

/// A SuiteConfig with `models` (model files created in `dir`), builtin
/// runner, output in dir/out.
harness::SuiteConfig MakeSuite(const TempDir& dir, const std::vector<std::string>& models,
                               int warmup = 1, int iterations = 3, int repetitions = 2);

/// The same over the repository's model files (configs/models/<name>.yaml).
harness::SuiteConfig MakeRepoSuite(const TempDir& dir, const std::vector<std::string>& models,
                                   int warmup = 1, int iterations = 3, int repetitions = 2);

/// Real process runner, manual clock, empty environment; git not queried.
struct TestDeps {
  TestDeps();
  std::unique_ptr<harness::ProcessRunner> processes;
  ManualClock clock;
  MapEnvironment env;
  harness::RunDeps deps;
};

/// Absolute path of the built et_runner ("" when not built).
std::string EtRunnerPath();
/// Absolute path of the tiny Google Benchmark binary ("" when not built).
std::string FakeGbenchPath();

}  // namespace etbench::testing
