// libFuzzer target: any text as a suite config.
#include <cstddef>
#include <cstdint>
#include <string>

#include "etbench/harness/config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  (void)etbench::harness::ParseSuiteConfig(
      std::string(reinterpret_cast<const char*>(data), size), "fuzz/suite.yaml");
  return 0;
}
