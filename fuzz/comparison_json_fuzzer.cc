// libFuzzer target: any text as a comparison JSON (the input of `report`).
#include <cstddef>
#include <cstdint>
#include <string>

#include "etbench/compare/comparison_json_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  (void)etbench::ParseComparisonJson(std::string(reinterpret_cast<const char*>(data), size),
                                    "fuzz");
  return 0;
}
