#pragma once
// Deterministic, portable pseudo-random numbers for weights and inputs.
// std::*_distribution differ between standard libraries; these do not.

#include <cstdint>
#include <string_view>

namespace etbench::runtime {

/// SplitMix64 (Steele, Lea, Flood 2014): a 64-bit state, full period,
/// statistically good enough for initializing tensors.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}

  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  /// Uniform in [0, 1), from the top 24 bits (exact in float).
  float NextUnit() {
    return static_cast<float>(Next() >> 40) * (1.0f / 16777216.0f);
  }

 private:
  uint64_t state_;
};

/// FNV-1a 64-bit hash (stable across platforms and runs).
uint64_t HashName(std::string_view name);

/// Fills `data[0..n)` with offset + U(-bound, bound), from a stream that
/// depends only on (seed, stream_name): adding a node to a model does not
/// change the weights of the others.
void FillUniform(uint64_t seed, std::string_view stream_name, float offset,
                 float bound, float* data, int64_t n);

}  // namespace etbench::runtime
