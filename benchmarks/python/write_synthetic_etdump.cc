// write_synthetic_etdump RUNS INSTRUCTIONS OUT: the benchmarks' synthetic
// ETDump (one Default block, RUNS Execute blocks of INSTRUCTIONS
// OPERATOR_CALL + native_call pairs) written to OUT for the Python benchmark.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "etbench/base/atomic_file.h"
#include "support/synthetic_etdump.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: write_synthetic_etdump RUNS INSTRUCTIONS OUT\n");
    return 2;
  }
  const int runs = std::atoi(argv[1]);
  const int instructions = std::atoi(argv[2]);
  if (runs <= 0 || instructions <= 0) {
    std::fprintf(stderr, "write_synthetic_etdump: RUNS and INSTRUCTIONS must be positive\n");
    return 2;
  }
  etbench::Status written =
      etbench::WriteFileAtomically(argv[3], etbench::bench::MakeSyntheticEtdump(runs, instructions));
  if (!written.ok()) {
    std::fprintf(stderr, "write_synthetic_etdump: %s\n", written.error().message.c_str());
    return 2;
  }
  std::printf("%zu profile events\n", etbench::bench::SyntheticProfileEventCount(runs, instructions));
  return 0;
}
