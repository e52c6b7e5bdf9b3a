// libFuzzer target: any text as a built-in runtime model file.
#include <cstddef>
#include <cstdint>
#include <string>

#include "etbench/runtime/model_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  (void)etbench::runtime::ParseModelYaml(
      std::string(reinterpret_cast<const char*>(data), size), "fuzz");
  return 0;
}
