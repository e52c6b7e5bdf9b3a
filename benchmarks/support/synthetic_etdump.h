#pragma once
// Deterministic synthetic ETDumps shaped like a real runtime's: per run an
// Execute block with `instructions` OPERATOR_CALL + native_call pairs and a
// Method::execute, after one Default block.

#include <cstdint>
#include <vector>

namespace etbench::bench {

/// Profile events in the result: 2 + runs * (2 * instructions + 1).
std::vector<uint8_t> MakeSyntheticEtdump(int runs, int instructions);

inline std::size_t SyntheticProfileEventCount(int runs, int instructions) {
  return 2 + static_cast<std::size_t>(runs) * (2 * static_cast<std::size_t>(instructions) + 1);
}

}  // namespace etbench::bench
