// libFuzzer target: any bytes as a legacy prof_result.bin.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "etbench/inspector/legacy_profile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  (void)etbench::ParseLegacyProfile(std::vector<uint8_t>(data, data + size), "fuzz");
  return 0;
}
