#include "support/test_support.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

namespace etbench::testing {

std::string FixturePath(const std::string& name) {
  return std::string(ETBENCH_FIXTURES_DIR) + "/" + name;
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

}  // namespace etbench::testing
