#include "support/synthetic_etdump.h"

#include <string>

#include "etbench/inspector/etdump_writer.h"

namespace etbench::bench {

std::vector<uint8_t> MakeSyntheticEtdump(int runs, int instructions) {
  static const char* kOps[] = {"native_call_convolution.out", "native_call_relu.out",
                               "native_call_max_pool2d_with_indices.out",
                               "native_call_addmm.out", "native_call_add.out"};
  EtdumpBuilder builder;
  builder.BeginRun("Default");
  builder.AddProfileEvent("Method::init", -1, 0, 100, 900);
  builder.AddProfileEvent("Program::load_method", -1, 0, 50, 1000);
  builder.EndRun();
  uint64_t t = 10000;
  uint64_t state = 0x9E3779B97F4A7C15ull;
  for (int r = 0; r < runs; ++r) {
    builder.BeginRun("Execute");
    const uint64_t run_start = t;
    for (int i = 0; i < instructions; ++i) {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      const uint64_t op_start = t + 20;
      const uint64_t op_end = op_start + 500 + (state % 2000);
      builder.AddProfileEvent(kOps[i % 5], 0, i, op_start, op_end);
      builder.AddProfileEvent("OPERATOR_CALL", 0, i, t, op_end + 15);
      t = op_end + 30;
    }
    builder.AddProfileEvent("Method::execute", -1, 0, run_start - 10, t + 10);
    builder.EndRun();
    t += 1000;
  }
  return builder.Finish();
}

}  // namespace etbench::bench
