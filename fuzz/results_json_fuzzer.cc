// libFuzzer target: any text as a results file, then into the metric set the
// comparison reads.
#include <cstddef>
#include <cstdint>
#include <string>

#include "etbench/results/results.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  auto results = etbench::results::ParseResultsJson(
      std::string(reinterpret_cast<const char*>(data), size), "fuzz");
  if (results.ok()) (void)etbench::results::ToMetricSet(results.value());
  return 0;
}
