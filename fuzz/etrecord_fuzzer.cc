// libFuzzer target: any bytes as an ETRecord archive (zip, marker, JSON
// debug_handle_map, torch.export graph JSON).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "etbench/inspector/etrecord.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  (void)etbench::LoadEtrecordFromBytes(std::vector<uint8_t>(data, data + size), "fuzz");
  return 0;
}
