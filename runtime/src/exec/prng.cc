#include "exec/prng.h"

namespace etbench::runtime {

uint64_t HashName(std::string_view name) {
  uint64_t hash = 0xCBF29CE484222325ull;
  for (char c : name) {
    hash ^= static_cast<uint8_t>(c);
    hash *= 0x100000001B3ull;
  }
  return hash;
}

void FillUniform(uint64_t seed, std::string_view stream_name, float offset,
                 float bound, float* data, int64_t n) {
  // Mix the seed through one SplitMix64 step so that seeds 0, 1, 2, ... give
  // unrelated streams even for equal names.
  SplitMix64 mixer(seed);
  SplitMix64 rng(mixer.Next() ^ HashName(stream_name));
  for (int64_t i = 0; i < n; ++i) {
    data[i] = offset + bound * (2.0f * rng.NextUnit() - 1.0f);
  }
}

}  // namespace etbench::runtime
