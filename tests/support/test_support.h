#pragma once
// Small helpers shared by the test suites: fixture paths, temp dirs, files.

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

/// Deterministic log-normal samples: median · exp(σ·Z) with σ from the
/// coefficient of variation `cv` (xorshift + Box–Muller, seeded).
std::vector<double> LogNormalSamples(std::size_t n, double median, double cv, uint64_t seed);

}  // namespace etbench::testing
