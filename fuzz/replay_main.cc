// Corpus replay for the normal (non-libFuzzer) build: runs every file of the
// directories given on the command line through LLVMFuzzerTestOneInput, so
// ctest re-checks each committed fuzz input with any compiler. A crash or a
// sanitizer report fails the test; a clean return passes it.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
  std::size_t inputs = 0;
  for (int i = 1; i < argc; ++i) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(argv[i], ec)) {
      if (!entry.is_regular_file()) continue;
      std::ifstream in(entry.path(), std::ios::binary);
      const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                       std::istreambuf_iterator<char>());
      LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
      ++inputs;
    }
    if (ec) {
      std::fprintf(stderr, "%s: %s\n", argv[i], ec.message().c_str());
      return 2;
    }
  }
  std::printf("replayed %zu inputs\n", inputs);
  // An empty corpus means the test checked nothing: fail it.
  return inputs > 0 ? 0 : 1;
}
