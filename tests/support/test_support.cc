#include "support/test_support.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

#include <unistd.h>

namespace etbench::testing {

std::string FixturePath(const std::string& name) {
  return std::string(ETBENCH_FIXTURES_DIR) + "/" + name;
}

std::string SourcePath(const std::string& relative) {
  return std::string(ETBENCH_SOURCE_DIR) + "/" + relative;
}

std::string ExecutorchBinDir() {
  const char* dir = std::getenv("ETBENCH_EXECUTORCH_BIN");
  if (dir == nullptr || *dir == '\0') return "";
  const std::string runner = std::string(dir) + "/executor_runner";
  return access(runner.c_str(), X_OK) == 0 ? std::string(dir) : "";
}

std::string ExecutorchBinSkipMessage() {
  const char* dir = std::getenv("ETBENCH_EXECUTORCH_BIN");
  const std::string what =
      dir == nullptr || *dir == '\0'
          ? std::string("ETBENCH_EXECUTORCH_BIN is not set")
          : "ETBENCH_EXECUTORCH_BIN=" + std::string(dir) + " has no executable executor_runner";
  return what + ": to run the tests with ExecuTorch's own runtime, set ETBENCH_EXECUTORCH_BIN to "
                "the directory of an executor_runner built with ETDump support "
                "(EXECUTORCH_BUILD_DEVTOOLS=ON, EXECUTORCH_ENABLE_EVENT_TRACER=ON), e.g. "
                "ETBENCH_EXECUTORCH_BIN=$HOME/executorch/cmake-out ctest --test-dir build";
}

ScopedEnv::ScopedEnv(std::string name, const std::string& value) : name_(std::move(name)) {
  if (const char* old = std::getenv(name_.c_str())) {
    had_old_ = true;
    old_ = old;
  }
  setenv(name_.c_str(), value.c_str(), 1);
}

ScopedEnv::~ScopedEnv() {
  if (had_old_) {
    setenv(name_.c_str(), old_.c_str(), 1);
  } else {
    unsetenv(name_.c_str());
  }
}

std::string ScopedEnv::PathWith(const std::string& dir) {
  const char* path = std::getenv("PATH");
  return path != nullptr && *path != '\0' ? dir + ":" + path : dir;
}

TempDir::TempDir() {
  std::string pattern =
      (std::filesystem::temp_directory_path() / "etbench-test-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("mkdtemp failed for " + pattern);
  }
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::vector<uint8_t> ReadBinaryFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

std::string ReadTextFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void WriteBinaryFile(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path);
}

void WriteTextFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path);
}

std::vector<double> LogNormalSamples(std::size_t n, double median, double cv, uint64_t seed) {
  uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
  auto next = [&state] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return static_cast<double>(state >> 11) * 0x1.0p-53;
  };
  const double sigma = std::sqrt(std::log1p(cv * cv));
  std::vector<double> out;
  while (out.size() < n) {
    const double u1 = std::max(next(), 1e-300), u2 = next();
    const double r = std::sqrt(-2 * std::log(u1));
    out.push_back(median * std::exp(sigma * r * std::cos(2 * M_PI * u2)));
    if (out.size() < n) out.push_back(median * std::exp(sigma * r * std::sin(2 * M_PI * u2)));
  }
  return out;
}

std::size_t Count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = 0; (at = text.find(what, at)) != std::string::npos; at += what.size()) ++n;
  return n;
}

}  // namespace etbench::testing
