// libFuzzer target: any bytes through the verified reader and the grouping.
// Build: cmake -S . -B build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DETBENCH_FUZZ=ON
// Run:   build-fuzz/fuzz/etdump_fuzzer tests/fuzz_corpus/etdump -max_total_time=60
// Findings go into tests/fuzz_corpus/etdump/, which fuzz_corpus_test re-runs.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "etbench/inspector/etdump_file.h"
#include "etbench/inspector/inspector.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  auto file = etbench::EtdumpFile::FromBytes(std::vector<uint8_t>(data, data + size), "fuzz");
  if (!file.ok()) return 0;
  etbench::InspectorOptions options;
  options.debug_buffer = std::vector<uint8_t>(64, 0);
  auto blocks = etbench::BuildEventBlocks(file.value(), options);
  (void)blocks;
  (void)etbench::DecodeEtdump(file.value());
  return 0;
}
