// libFuzzer target: any text through the base JSON reader, then every value
// of the document read as every type (paths, dumps and errors included).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "etbench/base/json_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto doc = etbench::ParseJson(text, "fuzz");
  if (!doc.ok()) return 0;
  // Iterative walk: fuzzed documents may nest up to the depth limit.
  std::vector<etbench::JsonValue> pending{doc->root()};
  while (!pending.empty()) {
    const etbench::JsonValue v = pending.back();
    pending.pop_back();
    (void)v.String();
    (void)v.Number();
    (void)v.Int(-5, 5);
    (void)v.Uint();
    (void)v.Bool();
    (void)v.Get("a").Get("b")[3].String();
    (void)v.Dump();
    (void)v.ErrorAt("x");
    for (const etbench::JsonValue child : v) pending.push_back(child);
  }
  return 0;
}
