// libFuzzer target: any text as a thresholds file.
#include <cstddef>
#include <cstdint>
#include <string>

#include "etbench/compare/thresholds.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  (void)etbench::ParseThresholdsYaml(std::string(reinterpret_cast<const char*>(data), size),
                                     "fuzz");
  return 0;
}
