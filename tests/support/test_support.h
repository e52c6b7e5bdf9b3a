#pragma once
// Small helpers shared by the test suites: fixture paths, temp dirs, files.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace etbench::testing {

/// Absolute path of a file under tests/fixtures.
std::string FixturePath(const std::string& name);

/// A fresh directory removed (recursively) on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

std::vector<uint8_t> ReadBinaryFile(const std::string& path);
std::string ReadTextFile(const std::string& path);
void WriteBinaryFile(const std::string& path, const std::vector<uint8_t>& bytes);
void WriteTextFile(const std::string& path, const std::string& text);

/// How many times `what` occurs in `text`, without overlaps.
std::size_t Count(const std::string& text, const std::string& what);

/// Absolute path of a file in the source tree (e.g. "configs/executorch.yaml").
std::string SourcePath(const std::string& relative);

/// The directory holding ExecuTorch's executor_runner, from the environment
/// variable ETBENCH_EXECUTORCH_BIN (.ci/run sets it to ../shared/executorch/bin
/// when that exists); "" when unset or without an executable executor_runner.
std::string ExecutorchBinDir();
/// The message of a test skipped for want of it: what is missing and how to
/// point the tests at an ExecuTorch build.
std::string ExecutorchBinSkipMessage();

/// Sets (or with `prepend_path`, prepends a directory to) an environment
/// variable for the scope; restores the old value on destruction.
class ScopedEnv {
 public:
  ScopedEnv(std::string name, const std::string& value);
  ~ScopedEnv();
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;
  /// PATH with `dir` first.
  static std::string PathWith(const std::string& dir);

 private:
  std::string name_;
  bool had_old_ = false;
  std::string old_;
};

/// Deterministic log-normal samples: median · exp(σ·Z) with σ from the
/// coefficient of variation `cv` (xorshift + Box–Muller, seeded).
std::vector<double> LogNormalSamples(std::size_t n, double median, double cv, uint64_t seed);

}  // namespace etbench::testing
