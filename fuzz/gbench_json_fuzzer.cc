// libFuzzer target: any text as a Google Benchmark JSON report.
#include <cstddef>
#include <cstdint>
#include <string>

#include "etbench/harness/runner.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  (void)etbench::harness::ParseGbenchJson(text, "real_time", "fuzz");
  (void)etbench::harness::ParseGbenchJson(text, "cpu_time", "fuzz");
  return 0;
}
